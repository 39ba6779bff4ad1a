"""What the home page and the score sheets say about each game, from the rules documents.

Each contested rule is shown with the positions the documents record and the project's
default marked, so a table can see it is not misremembering. The sheets print from the same data,
which keeps the targets on paper equal to the targets the server plays to.
"""

from __future__ import annotations

from typing import Any

from games import options as game_options
from games.engine import get_rules
from games.line.options import FIVES_TARGET, LINE_TARGET

Option = dict[str, Any]
#: A room seats 2 to 10 (lobby.services.MIN_PLAYERS, MAX_PLAYERS).
ROOM_PLAYERS = range(2, 11)


def _form(game: str) -> dict[str, Any]:
    """What the room form needs of a game, from its one option declaration in `games/`: the
    player counts a room seats, the sets (`set` has a selector of its own) and the options
    the form offers, each with its type, range or choices, default and the documents' say."""
    described = game_options.describe(game, ROOM_PLAYERS.start, ROOM_PLAYERS.stop - 1)
    options = described["options"]
    top = next((o for o in options if o["name"] == "set"), None)
    return {
        "players": list(range(described["min_players"], described["max_players"] + 1)),
        "sets": [c["value"] for c in top["choices"]] if top else [6],
        "default_set": top["default"] if top else 6,
        "options": [o for o in options if o["name"] != "set" and o["shown"]],
    }


GAMES: list[dict[str, Any]] = [
    {
        "name": "draw", "title": "Draw",
        "line": "The classic: match an open end; if you cannot, draw from the boneyard.",
        "sheet": "line", **_form("draw"),
    },
    {
        "name": "block", "title": "Block",
        "line": "Draw without the boneyard: if you cannot play you pass, and most hands block.",
        "sheet": "line", **_form("block"),
    },
    {
        "name": "allfives", "title": "All Fives (Muggins)",
        "line": "Score as you play whenever the open ends total a multiple of five.",
        "sheet": "allfives", **_form("allfives"),
    },
    {
        "name": "texas42", "title": "Texas 42",
        "line": "Four players in two partnerships bid once each, name trumps and play seven tricks.",
        "sheet": "texas42", **_form("texas42"),
    },
    {
        "name": "mexican_train", "title": "Mexican Train",
        "line": "A round per double, a train each plus the shared Mexican train; lowest total wins.",
        "sheet": "mexican_train", **_form("mexican_train"),
    },
    {
        "name": "chicken_foot", "title": "Chicken Foot",
        "line": "Every double freezes the table until its foot of three toes is filled.",
        "sheet": "chicken_foot", **_form("chicken_foot"),
    },
]


def _seated(game: str, top: int, players: int) -> bool:
    try:
        get_rules(game).new_match(players, {"set": top}, seed=bytes(32))
    except game_options.OptionError:
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
