"""What the home page and the score sheets say about each game, from the rules documents.

Each contested rule is shown with the positions the documents record and the project's
default marked, so a table can see it is not misremembering. The sheets print from the same data,
which keeps the targets on paper equal to the targets the server plays to.
"""

from __future__ import annotations

from typing import Any

from games.engine import get_rules

Option = dict[str, Any]
#: A room seats 2 to 10 (lobby.services.MIN_PLAYERS, MAX_PLAYERS).
ROOM_PLAYERS = range(2, 11)


def _p(source: str, says: str) -> dict[str, str]:
    return {"source": source, "says": says}

_SOURCES_DEAL = [
    _p("pagat, Block", "7 each for two players, 5 each for three or four."),
    _p("pagat, Draw", "7 for two players, 7 for three, 6 for four."),
    _p("All Fives rules", "7 each for two players, 5 each for three or four."),
    _p("Household practice", "7 each for two, 5 each for three or more, in every game."),
]
_SOURCES_SCORING = [
    _p("pagat", "The lowest hand scores the others' pips minus its own remaining pips."),
    _p("Most published summaries", "The winner simply takes the total of everyone else's pips."),
]
_SOURCES_SPINNER = [
    _p("pagat, Block and Draw", "No: the layout is a single line with two ends."),
    _p("American house rules, All Fives rules", "Yes: the first double branches four ways."),
]
_SOURCES_BLANK = [
    _p("pagat", "Not mentioned: tiles score their pips, so the double-blank scores 0."),
    _p("Wikipedia", "An option: blanks could score 25 each, the double-blank 50."),
]


def _choice(name: str, label: str, default: Any, choices: list[tuple[Any, str]], **extra: Any) -> Option:
    return {
        "name": name,
        "label": label,
        "kind": "choice",
        "default": default,
        "choices": [{"value": v, "label": text} for v, text in choices],
        **extra,
    }


def _number(name: str, label: str, default_label: str, minimum: int, maximum: int, **extra: Any) -> Option:
    """A whole number where empty means the documents' default (null on the wire)."""
    return {
        "name": name,
        "label": label,
        "kind": "number",
        "default": None,
        "default_label": default_label,
        "min": minimum,
        "max": maximum,
        **extra,
    }


LINE_TARGET = "100 for two players or partnerships, 61 for three or four"
FIVES_TARGET = "250 for two, 200 for three or four"


def _line_options(game: str) -> list[Option]:
    deal = {"block": "7 / 5 / 5", "draw": "7 / 7 / 6", "allfives": "7 / 5 / 5"}[game]
    target = FIVES_TARGET if game == "allfives" else LINE_TARGET
    spinner = game == "allfives"
    opts: list[Option] = [
        _choice("partnership", "Partnerships (four players, seats 1+3 against 2+4)", False,
                [(False, "Individuals"), (True, "Partnerships")], players=[4]),
        _number("hand_size", "Tiles dealt to each player", f"for 2 / 3 / 4 players: {deal}", 3, 12,
                contested=True, positions=_SOURCES_DEAL),
        _choice("scoring", "Blocked hand: does the winner subtract their own pips?", "pagat",
                [("pagat", "Yes, subtract (pagat)"), ("opponents", "No, opponents' pips only")],
                contested=True, positions=_SOURCES_SCORING),
        _choice("spinner", "First double is a spinner (four ends)", spinner,
                [(False, "No, a line with two ends"), (True, "Yes, a spinner")],
                contested=True, positions=_SOURCES_SPINNER),
    ]
    if game != "block":
        reserve = 0 if game == "allfives" else 2
        opts.append(_choice(
            "boneyard_reserve", "Tiles left in the boneyard that are never drawn", reserve,
            [(0, "None: draw to the last tile"), (2, "The last two")], contested=True,
            positions=[
                _p("Main rules (pagat)", "The last two tiles of the boneyard are never drawn."),
                _p("All Fives rules", "Draw until a tile fits; pass when the boneyard is empty."),
            ],
        ))
    opts += [
        _number("target", "Match target (points)", target, 5, 1000, contested=game == "allfives",
                positions=[
                    _p("pagat, scoring table", target + "."),
                    _p("All Fives rules", "Draw and Block to 100, All Fives to 150."),
                ]),
        _choice("next_lead", "Who leads the later hands", "winner",
                [("winner", "The previous hand's winner, any tile"),
                 ("highest_double", "The highest double, every hand")],
                contested=True, positions=[
                    _p("All Fives rules", "In later hands the winner of the previous hand starts."),
                    _p("Main rules", "Whoever holds the highest double leads, and must lead it."),
                ]),
        _choice("double_blank", "The double-blank counts", 0, [(0, "0 pips"), (50, "50 points")],
                contested=True, positions=_SOURCES_BLANK),
    ]
    if game == "allfives":
        opts.append(_choice("round_to_five", "Hand-end points rounded to the nearest five", True,
                            [(True, "Round to five"), (False, "Exact pips")]))
    return opts


GAMES: list[dict[str, Any]] = [
    {
        "name": "draw", "title": "Draw",
        "line": "The classic: match an open end; if you cannot, draw from the boneyard.",
        "players": [2, 3, 4], "sets": [6, 9, 12], "default_set": 6, "options": _line_options("draw"),
        "sheet": "line",
    },
    {
        "name": "block", "title": "Block",
        "line": "Draw without the boneyard: if you cannot play you pass, and most hands block.",
        "players": [2, 3, 4], "sets": [6, 9, 12], "default_set": 6, "options": _line_options("block"),
        "sheet": "line",
    },
    {
        "name": "allfives", "title": "All Fives (Muggins)",
        "line": "Score as you play whenever the open ends total a multiple of five.",
        "players": [2, 3, 4], "sets": [6, 9, 12], "default_set": 6, "options": _line_options("allfives"),
        "sheet": "allfives",
    },
    {
        "name": "texas42", "title": "Texas 42",
        "line": "Four players in two partnerships bid once each, name trumps and play seven tricks.",
        "players": [4], "sets": [6], "default_set": 6, "sheet": "texas42",
        "options": [
            _number("target_marks", "Match target (marks)", "7 marks", 1, 100, contested=True, positions=[
                _p("Texas 42 rules", "Game is most often played to seven marks, or to 250 points where the "
                   "score is kept in points: agree which before you start.")]),
            _number("target_points", "Keep the score in points instead, to", "marks are kept", 1, 10000),
            _choice("all_pass", "When all four pass", "redeal",
                    [("redeal", "Shuffle and deal again"), ("force", "The shuffler must bid")]),
            _choice("doubles_trump", "Doubles may be named as trumps", False, [(False, "No"), (True, "Yes")],
                    contested=True, positions=[
                        _p("Texas 42 rules", "Doubles-as-trumps is a common agreed variation, "
                         "not the default.")]),
            _choice("follow_me", "Follow-me (no trumps) may be named", False, [(False, "No"), (True, "Yes")]),
            _choice("nello", "Nello may be bid", False, [(False, "No"), (True, "Yes")]),
        ],
    },
    {
        "name": "mexican_train", "title": "Mexican Train",
        "line": "A round per double, a train each plus the shared Mexican train; lowest total wins.",
        "players": list(range(2, 11)), "sets": [12, 9, 6], "default_set": 12, "sheet": "mexican_train",
        "options": [
            _number("rounds", "Rounds", "every double from the highest down to the double-blank", 1, 13),
            _number("hand_size", "Tiles dealt to each player",
                    "15 for 2-4, 12 for 5-6, 10 for 7-8, 8 for 9-10 (pagat)", 3, 20,
                    contested=True, positions=[
                        _p("pagat", "Up to 4 players take 15, 5-6 take 12, 7-8 take 10, "
                         "9-10 take 8."),
                        _p("Wikipedia", "Ranges on a double-twelve: 12-16 for two, 10-15 for "
                         "three, 11-14 for four, 9-12 for five to eight.")]),
            _choice("double_blank", "The double-blank counts", 0, [(0, "0 pips"), (50, "50 points")],
                    contested=True, positions=_SOURCES_BLANK),
            _choice("first_turn", "Opening turn", "multiple",
                    [("multiple", "Lay as many tiles as form one train"),
                     ("single", "One tile, like every turn")]),
        ],
    },
    {
        "name": "chicken_foot", "title": "Chicken Foot",
        "line": "Every double freezes the table until its foot of three toes is filled.",
        "players": list(ROOM_PLAYERS), "sets": [9, 12, 15, 18], "default_set": 9, "sheet": "chicken_foot",
        "options": [
            _number("hand_size", "Tiles dealt to each player", "the Chicken Foot deal table", 3, 20),
            _choice("double_blank", "The double-blank counts", 50,
                    [(50, "50 points"), (25, "25 points"), (0, "0")],
                    contested=True, positions=[
                        _p("pagat", "The 0-0 is worth 50 points; a variation counts 25.")]),
        ],
    },
]



def _seated(game: str, top: int, players: int) -> bool:
    try:
        get_rules(game).new_match(players, {"set": top}, seed=bytes(32))
    except ValueError:
        return False
    return True


def _set_players(game: dict[str, Any]) -> dict[int, list[int]]:
    """The player counts each set seats, as the engine deals them (a double-nine Chicken
    Foot seats 2 to 6): the form offers only the sets that seat the chosen count."""
    if len(game["sets"]) < 2:
        return {top: list(game["players"]) for top in game["sets"]}
    return {top: [n for n in game["players"] if _seated(game["name"], top, n)] for top in game["sets"]}


for _game in GAMES:
    _game["set_players"] = _set_players(_game)

SET_NAMES = {
    6: "Double-six", 9: "Double-nine", 12: "Double-twelve", 15: "Double-fifteen", 18: "Double-eighteen",
}

SHEETS: dict[str, dict[str, Any]] = {
    "line": {
        "title": "Block and Draw score sheet",
        "rounds": [str(n) for n in range(1, 21)],
        "columns": 6,
        "notes": [
            "After each round, the winner writes the points they scored; keep the running total below it.",
            "Blocked round: the lowest hand scores the others' pips, minus its own under pagat's rule.",
            f"The match is played to {LINE_TARGET} individuals.",
        ],
    },
    "allfives": {
        "title": "All Fives (Muggins) score sheet",
        "rounds": [str(n) for n in range(1, 21)],
        "columns": 4,
        "notes": [
            "Score during play whenever the open ends total a multiple of five; a crosswise double "
            "at an end counts both halves.",
            "Going out scores the pips left in the other hands, rounded to the nearest five.",
            f"The match is played to {FIVES_TARGET} players.",
        ],
        "reference": [
            ("5 and 0", 5, "5"), ("4 and 6", 10, "10"), ("5-5 double and 0", 10, "10"),
            ("6-6 double and 3", 15, "15"), ("3 and 4", 7, "Nothing"), ("6-6 double and 1", 13, "Nothing"),
        ],
    },
    "mexican_train": {
        "title": "Mexican Train score sheet",
        "rounds": [f"{n}-{n}" for n in range(12, -1, -1)],
        "columns": 8,
        "notes": [
            "Each round is opened by its engine, 12-12 first, down to the double-blank.",
            "After each round everyone writes the pips left in their hand.",
            "After thirteen rounds the LOWEST total wins.",
        ],
    },
}


def game(name: str) -> dict[str, Any] | None:
    return next((g for g in GAMES if g["name"] == name), None)
