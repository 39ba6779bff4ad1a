"""The room options of Chicken Foot and the documents' deal table (docs/rules-chicken-foot.md, "Options")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.options import Option, OptionError, Source, resolve_options, verify_players
from games.core.penalty import check_hands_fit
from games.core.text import gettext_noop

GAME = "chicken_foot"
MIN_PLAYERS = 2
MAX_PLAYERS = 16

#: Tiles per seat, from the Chicken Foot page of the rules documents; a missing count is a
#: "–" there: that set does not seat that many players.
HAND_SIZES: dict[int, dict[int, int]] = {
    9: {2: 20, 3: 14, 4: 11, 5: 9, 6: 7},
    12: {4: 18, 5: 14, 6: 12, 7: 10, 8: 9},
    15: {5: 18, 6: 15, 7: 15, 8: 14, 9: 12, 10: 10, 11: 10, 12: 9},
    18: {8: 19, 9: 17, 10: 15, 11: 14, 12: 13, 13: 12, 14: 11, 15: 10, 16: 9},
}

SCHEMA: tuple[Option, ...] = (
    Option("set", 9, choices=(9, 12, 15, 18), label=gettext_noop("Domino set"),
           choice_labels=(gettext_noop("Double-nine"), gettext_noop("Double-twelve"),
                          gettext_noop("Double-fifteen"), gettext_noop("Double-eighteen")),
           help=gettext_noop("the domino set: double-9, -12, -15 or -18")),
    Option("hand_size", None, minimum=1, maximum=95, nullable=True,
           label=gettext_noop("Tiles dealt to each player"),
           default_note=gettext_noop("the Chicken Foot deal table"),
           help=gettext_noop("tiles dealt to each seat")),
    Option("double_blank", 50, choices=(50, 25, 0), label=gettext_noop("The double-blank counts"),
           choice_labels=(gettext_noop("50 points"), gettext_noop("25 points"), "0"),
           help=gettext_noop("penalty for holding the double-blank"),
           sources=(Source("pagat", gettext_noop("The 0-0 is worth 50 points; a variation counts 25.")),)),
    Option("opening_arms", 4, choices=(4, 6), label=gettext_noop("Tiles around the lead double"),
           choice_labels=(gettext_noop("Four, one on each side"),
                          gettext_noop("Six, three on each side (a double chicken foot)")),
           help=gettext_noop("tiles the lead double takes, one on each arm, before any arm is extended"),
           sources=(Source("pagat", gettext_noop("The opening double must have tiles played on all four arms "
                                                 "before any arm is extended by a second tile.")),
                    Source("Chicken Foot rules of flash.net/~russellr (2002, Internet Archive)",
                           gettext_noop("The next six plays go on the double nine, three tiles on each side, "
                                        "forming a double chicken foot; then tiles go on any of the six "
                                        "toes.")))),
)


def _derive(out: dict[str, Any], players: int) -> None:
    top = out["set"]
    table = HAND_SIZES[top]
    if players not in table:
        raise OptionError(
            "set", "does_not_fit",
            gettext_noop("option 'set': a double-%(top)s set does not seat %(players)s players for Chicken "
                         "Foot ('players' %(minimum)s to %(maximum)s on this set)"),
            {"top": top, "players": players, "minimum": min(table), "maximum": max(table)},
        )
    if out["hand_size"] is None:
        out["hand_size"] = table[players]
    else:
        check_hands_fit(players, out["hand_size"], top)


def resolve(players: object, options: Mapping[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """The player count and every option with its value; `OptionError` names a bad option."""
    count = verify_players(GAME, players, MIN_PLAYERS, MAX_PLAYERS)
    return count, resolve_options(GAME, SCHEMA, options, count, _derive)
