"""What the home page and the score sheets say about each game, from the rules documents.

Each contested rule is shown with the positions the documents record and the project's
default marked, so a table can see it is not misremembering. The sheets print from the same data,
which keeps the targets on paper equal to the targets the server plays to.

The words are lazy translations (`gettext_lazy`): the data is made once, and each page shows it
in its request's language (the templates and `json_script` word them when they render). The
options' words come from `games/` in English and are translated the same way
(`lobby.wording`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import options as game_options
from games.engine import get_rules
from games.fiveup.options import TARGET as FIVEUP_TARGET
from games.fiveup.options import TWO_PLAYER_TARGET as FIVEUP_TWO_PLAYER_TARGET
from games.line.options import FIVES_TARGET, LINE_TARGET
from lobby.wording import option_worded


def _later(build: Callable[[], str]) -> Any:
    """A text built by `build` when it is shown, in the language active then (a sentence
    with a value filled in, whose message `build` translates)."""
    return lazy(build, str)()

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
        "options": [option_worded(o, gettext_lazy) for o in options if o["name"] != "set" and o["shown"]],
    }


GAMES: list[dict[str, Any]] = [
    {
        "name": "draw", "title": pgettext_lazy("game name", "Draw"),
        "line": gettext_lazy("The classic: match an open end; if you cannot, draw from the boneyard."),
        "sheet": "line", **_form("draw"),
    },
    {
        "name": "block", "title": pgettext_lazy("game name", "Block"),
        "line": gettext_lazy("Draw without the boneyard: if you cannot play you pass, and most hands "
                             "block."),
        "sheet": "line", **_form("block"),
    },
    {
        "name": "allfives", "title": gettext_lazy("All Fives (Muggins)"),
        "line": gettext_lazy("Score as you play whenever the open ends total a multiple of five."),
        "sheet": "allfives", **_form("allfives"),
    },
    {
        "name": "fiveup", "title": gettext_lazy("Five-Up"),
        "line": gettext_lazy("Every double is a spinner; a count of 15 on the open ends pegs 3, cribbage "
                             "style."),
        "sheet": "fiveup", **_form("fiveup"),
    },
    {
        "name": "texas42", "title": gettext_lazy("Texas 42"),
        "line": gettext_lazy("Four players in two partnerships bid once each, name trumps and play seven "
                             "tricks."),
        "sheet": "texas42", **_form("texas42"),
    },
    {
        "name": "mexican_train", "title": gettext_lazy("Mexican Train"),
        "line": gettext_lazy("A round per double, a train each plus the shared Mexican train; lowest total "
                             "wins."),
        "sheet": "mexican_train", **_form("mexican_train"),
    },
    {
        "name": "chicken_foot", "title": gettext_lazy("Chicken Foot"),
        "line": gettext_lazy("Every double freezes the table until its foot of three toes is filled."),
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
    6: gettext_lazy("Double-six"), 9: gettext_lazy("Double-nine"), 12: gettext_lazy("Double-twelve"),
    15: gettext_lazy("Double-fifteen"), 18: gettext_lazy("Double-eighteen"),
}

def _ends(one: int, other: int) -> Any:
    """Two open ends of an All Fives layout, "5 and 0"."""
    # Translators: two open ends of the layout, on the All Fives score sheet: "5 and 0".
    return _later(lambda: gettext("%(one)s and %(other)s") % {"one": one, "other": other})


def _double_and(pips: int, other: int) -> Any:
    """A crosswise double at one end and a number at the other, "5-5 double and 0"."""
    # Translators: open ends of the layout: a crosswise double at one, a number at the other.
    return _later(lambda: gettext("%(pips)s-%(pips)s double and %(other)s") % {"pips": pips, "other": other})


#: What ends that total no multiple of five score.
_NOTHING = gettext_lazy("Nothing")

SHEETS: dict[str, dict[str, Any]] = {
    "line": {
        "title": gettext_lazy("Block and Draw score sheet"),
        "rounds": [str(n) for n in range(1, 21)],
        "columns": 6,
        "notes": [
            gettext_lazy("After each round, the winner writes the points they scored; keep the running total "
                         "below it."),
            gettext_lazy("Blocked round: the lowest hand scores the others' pips, minus its own under "
                         "pagat's rule."),
            _later(lambda: gettext("The match is played to %(target)s individuals.") % {
                "target": gettext(LINE_TARGET)}),
        ],
    },
    "allfives": {
        "title": gettext_lazy("All Fives (Muggins) score sheet"),
        "rounds": [str(n) for n in range(1, 21)],
        "columns": 4,
        "notes": [
            gettext_lazy("Score during play whenever the open ends total a multiple of five; a crosswise "
                         "double at an end counts both halves."),
            gettext_lazy("Going out scores the pips left in the other hands, rounded to the nearest five."),
            _later(lambda: gettext("The match is played to %(target)s players.") % {
                "target": gettext(FIVES_TARGET)}),
        ],
        "reference": [
            (_ends(5, 0), 5, "5"), (_ends(4, 6), 10, "10"), (_double_and(5, 0), 10, "10"),
            (_double_and(6, 3), 15, "15"), (_ends(3, 4), 7, _NOTHING), (_double_and(6, 1), 13, _NOTHING),
        ],
    },
    "fiveup": {
        "title": gettext_lazy("Five-Up score sheet"),
        "rounds": [str(n) for n in range(1, 21)],
        "columns": 4,
        "notes": [
            gettext_lazy("Peg during play whenever the open ends total a multiple of five: one point "
                         "for every five (a count of 15 pegs 3)."),
            gettext_lazy("Every double is a spinner. A double at an end counts both halves; once both "
                         "its sides are covered it counts nothing until a tile is played on its "
                         "crosswise ends."),
            gettext_lazy("Going out scores the pips left in the opponents' hands, rounded to the nearest "
                         "five, one point for every five."),
            _later(lambda: gettext("The match is played to %(target)s points, or %(two)s for two players; "
                                   "a side wins the moment it gets there.") % {
                "target": FIVEUP_TARGET, "two": FIVEUP_TWO_PLAYER_TARGET}),
        ],
        "reference_title": gettext_lazy("Five-Up scoring reference"),
        "reference": [
            (_ends(5, 0), 5, "1"), (_ends(4, 6), 10, "2"), (_double_and(5, 0), 10, "2"),
            (_double_and(6, 3), 15, "3"), (_ends(3, 4), 7, _NOTHING), (_double_and(6, 1), 13, _NOTHING),
        ],
    },
    "mexican_train": {
        "title": gettext_lazy("Mexican Train score sheet"),
        "rounds": [f"{n}-{n}" for n in range(12, -1, -1)],
        "columns": 8,
        "notes": [
            gettext_lazy("Each round is opened by its engine, 12-12 first, down to the double-blank."),
            gettext_lazy("After each round everyone writes the pips left in their hand."),
            gettext_lazy("After thirteen rounds the LOWEST total wins."),
        ],
    },
}


def game(name: str) -> dict[str, Any] | None:
    return next((g for g in GAMES if g["name"] == name), None)
