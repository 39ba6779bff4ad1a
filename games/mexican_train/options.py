"""The room options of Mexican Train and the deal table they default to (SPEC §6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.options import Option, resolve_options, verify_players
from games.core.penalty import check_hands_fit

GAME = "mexican_train"
MIN_PLAYERS = 2
MAX_PLAYERS = 10

#: Tiles per seat by set and player count. Double-twelve is pagat's table as the rules
#: documents give it; the smaller sets scale it down ("about five" on double-six).
HAND_SIZES: dict[int, dict[int, int]] = {
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8},
    9: {2: 10, 3: 10, 4: 10, 5: 7, 6: 7},
    6: {2: 5, 3: 5, 4: 5},
}

SCHEMA: tuple[Option, ...] = (
    Option("set", 12, choices=(12, 6, 9), help="the domino set: double-12, double-6 or double-9"),
    Option("rounds", None, minimum=1, maximum=19, nullable=True,
           help="rounds to play, from the highest double down; null: every double"),
    Option("hand_size", None, minimum=1, maximum=90, nullable=True,
           help="tiles dealt to each seat; null: the deal table for the set and player count"),
    Option("double_blank", 0, choices=(0, 50), help="penalty for holding the double-blank"),
    Option("first_turn", "multiple", choices=("multiple", "single"),
           help="a seat's first turn lays a chain of tiles on its train, or one tile"),
)


def _derive(out: dict[str, Any], players: int) -> None:
    top = out["set"]
    if out["rounds"] is None:
        out["rounds"] = top + 1
    elif out["rounds"] > top + 1:
        raise ValueError(
            f"option 'rounds' must be at most {top + 1} on a double-{top} set, not {out['rounds']}"
        )
    if out["hand_size"] is None:
        table = HAND_SIZES[top]
        if players not in table:
            raise ValueError(
                f"option 'players': a double-{top} set deals Mexican Train to at most {max(table)} players, "
                f"not {players} (choose a larger 'set' or give 'hand_size')"
            )
        out["hand_size"] = table[players]
    else:
        check_hands_fit(players, out["hand_size"], top, set_aside=1)


def resolve(players: object, options: Mapping[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """The player count and every option with its value; `ValueError` names a bad option."""
    count = verify_players(GAME, players, MIN_PLAYERS, MAX_PLAYERS)
    return count, resolve_options(GAME, SCHEMA, options, count, _derive)
