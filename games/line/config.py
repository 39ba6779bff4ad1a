"""The options of the line games (docs/rules-line.md, "Options"), resolved once into a frozen configuration.

Defaults that depend on the game, the set and the player count (hand size, target) are filled
in here, so the resolved options a view shows can start an identical match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core.options import OptionError, resolve_options, verify_players
from games.core.text import gettext_noop
from games.core.tiles import set_size
from games.line.options import schema
from games.line.tables import TileTable, table

NO_DRAWING = 1 << 30

#: Most players each set seats (the main document's table of sets).
SET_PLAYERS: dict[int, int] = {6: 4, 9: 6, 12: 10}

#: Default hand sizes by game and set, indexed by player count. Double-six follows docs/rules-line.md's table;
#: the larger sets are this project's choice (docs/rules-line.md).
_LARGE_SETS: dict[int, dict[int, int]] = {
    9: {2: 9, 3: 9, 4: 9, 5: 7, 6: 7},
    12: {2: 12, 3: 12, 4: 12, 5: 11, 6: 11, 7: 9, 8: 9, 9: 7, 10: 7},
}
_DOUBLE_SIX: dict[str, dict[int, int]] = {
    "block": {2: 7, 3: 5, 4: 5},
    "draw": {2: 7, 3: 7, 4: 6},
    "allfives": {2: 7, 3: 5, 4: 5},
}


def default_hand_size(game: str, top: int, players: int) -> int:
    if top == 6:
        return _DOUBLE_SIX[game][players]
    return _LARGE_SETS[top][players]


def default_target(game: str, players: int, partnership: bool) -> int:
    if game == "allfives":
        return 250 if players == 2 else 200
    return 100 if players == 2 or partnership else 61


@dataclass(frozen=True, slots=True)
class LineConfig:
    """A match's fixed facts: game, seats, resolved options and the sides they imply."""

    game: str
    players: int
    top: int
    partnership: bool
    hand_size: int
    scoring: str
    spinner: bool
    reserve: int
    target: int
    next_lead: str
    double_blank: int
    round_to_five: bool
    draws: bool
    fives: bool
    side: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    #: The set's tables, and the boneyard size at or below which nobody may draw.
    tiles: TileTable = field(compare=False, repr=False)
    draw_floor: int = field(compare=False, repr=False)

    def options(self) -> dict[str, Any]:
        """The resolved options, as a view shows them and `new_match` accepts them."""
        return {
            "set": self.top,
            "partnership": self.partnership,
            "hand_size": self.hand_size,
            "scoring": self.scoring,
            "spinner": self.spinner,
            "boneyard_reserve": self.reserve,
            "target": self.target,
            "next_lead": self.next_lead,
            "double_blank": self.double_blank,
            "round_to_five": self.round_to_five,
        }


_RESOLVED: dict[tuple[Any, ...], LineConfig] = {}


def resolve_config(game: str, players: object, options: Mapping[str, Any] | None,
                   draws: bool, fives: bool) -> LineConfig:
    """The configuration of a new match; `OptionError` names the option that is wrong.

    Remembered by the exact options given (their types too: `True` is not `1`), since `load`
    and `state_from_view` resolve the same options again and again.
    """
    key: tuple[Any, ...] | None = None
    if isinstance(options, Mapping) and all(
            type(v) in (int, bool, str, type(None)) for v in options.values()):
        key = (game, type(players), players, draws, fives,
               tuple(sorted((str(k), type(v).__name__, v) for k, v in options.items())))
        found = _RESOLVED.get(key)
        if found is not None:
            return found
    config = _resolve(game, players, options, draws, fives)
    if key is not None and len(_RESOLVED) < 4096:
        _RESOLVED[key] = config
    return config


def _resolve(game: str, players: object, options: Mapping[str, Any] | None,
             draws: bool, fives: bool) -> LineConfig:
    count = verify_players(game, players, 2, max(SET_PLAYERS.values()))
    values = resolve_options(game, schema(game), options, count)
    top: int = values["set"]
    if count > SET_PLAYERS[top]:
        raise OptionError(
            "players", "players",
            gettext_noop("option 'players' for %(game)s on double-%(top)s must be 2 to %(maximum)s, "
                         "not %(value)s"),
            {"game": game, "top": top, "maximum": SET_PLAYERS[top], "value": count},
        )
    partnership: bool = values["partnership"]
    if partnership and count != 4:
        raise OptionError("partnership", "does_not_fit",
                          gettext_noop("option 'partnership' needs 4 players, not %(value)s"),
                          {"value": count})
    hand_size = values["hand_size"]
    if hand_size is None:
        hand_size = default_hand_size(game, top, count)
    if hand_size * count > set_size(top):
        raise OptionError(
            "hand_size", "does_not_fit",
            gettext_noop("option 'hand_size' %(size)s for %(players)s players needs %(needed)s tiles; "
                         "double-%(top)s has %(tiles)s"),
            {"size": hand_size, "players": count, "needed": hand_size * count, "top": top,
             "tiles": set_size(top)},
        )
    target = values["target"]
    if target is None:
        target = default_target(game, count, partnership)
    if partnership:
        side = tuple(seat % 2 for seat in range(count))
        teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    else:
        side = tuple(range(count))
        teams = tuple((seat,) for seat in range(count))
    return LineConfig(
        game=game, players=count, top=top, partnership=partnership, hand_size=hand_size,
        scoring=values["scoring"], spinner=values["spinner"], reserve=values["boneyard_reserve"],
        target=target, next_lead=values["next_lead"], double_blank=values["double_blank"],
        round_to_five=values["round_to_five"], draws=draws, fives=fives, side=side, teams=teams,
        tiles=table(top), draw_floor=values["boneyard_reserve"] if draws else NO_DRAWING,
    )
