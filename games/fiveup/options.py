"""The room options of Five-Up (docs/rules-fiveup.md, "Options"), resolved once into a frozen configuration.

Only three rules are open: partnerships at a table of four, the match target and the muggins
house rule. The deal (five tiles each) and the set (double-six) are pagat's and fixed, so a
view's resolved options always start an identical match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.options import Option, OptionError, Source, resolve_options, verify_players
from games.core.text import gettext_noop

GAME = "fiveup"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: The set (double-six) and the deal, pagat's Five Up page: five tiles each, whatever the table.
TOP = 6
HAND_SIZE = 5
TARGET = 61
TWO_PLAYER_TARGET = 121

SCHEMA: tuple[Option, ...] = (
    Option("partnership", True, choices=(False, True), players=(4,),
           label=gettext_noop("Partnerships (four players, seats 1+3 against 2+4)"),
           choice_labels=(gettext_noop("Individuals"), gettext_noop("Partnerships")),
           help=gettext_noop("4 players: seats 0+2 against 1+3"),
           sources=(Source("pagat, Five Up",
                           gettext_noop("Two to four can play, but it is best as a game of two "
                                        "partnerships.")),)),
    Option("target", None, minimum=1, maximum=1000, nullable=True,
           label=gettext_noop("Match target (points)"),
           default_note=gettext_noop("61, or 121 for two players"),
           help=gettext_noop("points that win the match, the moment a side reaches them"),
           sources=(Source("pagat, Five Up",
                           gettext_noop("Scores are pegged as they are made, on a cribbage board.")),
                    Source("Household practice",
                           gettext_noop("61 to win (once round the board), or 121 for two players.")))),
    Option("muggins", False, choices=(False, True),
           label=gettext_noop("Muggins: points must be claimed, or the next player takes them"),
           choice_labels=(gettext_noop("Off, scoring is automatic"), gettext_noop("On, claim your points")),
           help=gettext_noop("a play scores only when its player claims it; the next player may take "
                             "points left unclaimed"),
           sources=(Source("pagat, Muggins",
                           gettext_noop("Does not describe claiming points: the page uses the name for the "
                                        "game without a spinner.")),
                    Source("House rule",
                           gettext_noop("Agreed before play: a score not called is lost to the next player, "
                                        "who may call \"muggins\" and take it.")))),
)


@dataclass(frozen=True, slots=True)
class FiveUpConfig:
    """A match's fixed facts: the seats, the resolved options and the sides they imply."""

    players: int
    partnership: bool
    target: int
    muggins: bool
    #: The side (index in `scores`) of each seat, and the seats of each side.
    side: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]

    @property
    def game(self) -> str:
        return GAME

    def options(self) -> dict[str, Any]:
        """The resolved options, as a view shows them and `new_match` accepts them."""
        return {"partnership": self.partnership, "target": self.target, "muggins": self.muggins}


_RESOLVED: dict[tuple[Any, ...], FiveUpConfig] = {}


def resolve(players: object, options: Mapping[str, Any] | None) -> FiveUpConfig:
    """The configuration of a match; `OptionError` names the option that is wrong.

    Remembered by the exact options given (their types too), since `load` and
    `state_from_view` resolve the same options again and again.
    """
    key: tuple[Any, ...] | None = None
    if isinstance(options, Mapping) and all(type(v) in (int, bool, type(None)) for v in options.values()):
        key = (type(players), players,
               tuple(sorted((str(k), type(v).__name__, v) for k, v in options.items())))
        found = _RESOLVED.get(key)
        if found is not None:
            return found
    config = _resolve(players, options)
    if key is not None and len(_RESOLVED) < 1024:
        _RESOLVED[key] = config
    return config


def _resolve(players: object, options: Mapping[str, Any] | None) -> FiveUpConfig:
    count = verify_players(GAME, players, MIN_PLAYERS, MAX_PLAYERS)
    values = resolve_options(GAME, SCHEMA, options, count)
    given = dict(options or {})
    if given.get("partnership") is True and count != 4:
        raise OptionError("partnership", "does_not_fit",
                          gettext_noop("option 'partnership' needs 4 players, not %(value)s"),
                          {"value": count})
    # The default (true) means partnerships where there can be any: at a table of four.
    partnership = bool(values["partnership"]) and count == 4
    target = values["target"]
    if target is None:
        target = TWO_PLAYER_TARGET if count == 2 else TARGET
    if partnership:
        side = tuple(seat % 2 for seat in range(count))
        teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    else:
        side = tuple(range(count))
        teams = tuple((seat,) for seat in range(count))
    return FiveUpConfig(players=count, partnership=partnership, target=target,
                        muggins=values["muggins"], side=side, teams=teams)
