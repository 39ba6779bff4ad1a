"""The room options of Mexican Train and the deal table they default to.

docs/rules-mexican-train.md, "Options".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.options import Option, OptionError, Source, resolve_options, verify_players
from games.core.penalty import check_hands_fit
from games.core.text import gettext_noop

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
    Option("set", 12, choices=(12, 9, 6), label=gettext_noop("Domino set"),
           choice_labels=(gettext_noop("Double-twelve"), gettext_noop("Double-nine"),
                          gettext_noop("Double-six")),
           help=gettext_noop("the domino set: double-12, double-9 or double-6")),
    Option("rounds", None, minimum=1, maximum=19, nullable=True, label=gettext_noop("Rounds"),
           default_note=gettext_noop("every double from the highest down to the double-blank"),
           help=gettext_noop("rounds to play, from the highest double down (at most the set's top double "
                             "+ 1)")),
    Option("hand_size", None, minimum=1, maximum=90, nullable=True,
           label=gettext_noop("Tiles dealt to each player"),
           default_note=gettext_noop("the deal table: on double-twelve 15 for 2-4, 12 for 5-6, 10 for 7-8, "
                                     "8 for 9-10"),
           help=gettext_noop("tiles dealt to each seat"),
           sources=(Source("pagat", gettext_noop("Up to 4 players take 15, 5-6 take 12, 7-8 take 10, 9-10 "
                                                 "take 8.")),
                    Source("Wikipedia", gettext_noop("Ranges on a double-twelve: 12-16 for two, 10-15 for "
                                                     "three, 11-14 for four, 9-12 for five to eight.")))),
    Option("double_blank", 0, choices=(0, 25, 50), label=gettext_noop("The double-blank counts"),
           choice_labels=(gettext_noop("0 pips"), gettext_noop("25 points"), gettext_noop("50 points")),
           help=gettext_noop("penalty for holding the double-blank"),
           sources=(Source("pagat", gettext_noop("Not mentioned: tiles score their pips, so the double-blank "
                                                 "scores 0.")),
                    Source("Wikipedia",
                           gettext_noop("An option: blanks could score 25 each, the double-blank 50.")),
                    Source("pagat (Chicken Foot)",
                           gettext_noop("The 0-0 is worth 50 points; a variation counts 25: the same house "
                                        "rule at the lower price.")))),
    Option("draw_until_play", False, choices=(False, True),
           label=gettext_noop("A player who cannot play draws"),
           choice_labels=(gettext_noop("One tile, then marks the train"),
                          gettext_noop("Until a tile plays or the boneyard is empty")),
           help=gettext_noop("a seat that cannot play draws one tile, or keeps drawing until one fits"),
           sources=(Source("pagat", gettext_noop("Draw one tile from the boneyard; if it plays, play it, "
                                                 "else place your marker.")),
                    Source("reference.com, rules regarding doubles in Mexican Train",
                           gettext_noop("Depending on the variation, the player draws one domino or draws "
                                        "until they can lay one down.")))),
    Option("first_turn", "multiple", choices=("multiple", "single"), label=gettext_noop("Opening turn"),
           choice_labels=(gettext_noop("Lay as many tiles as form one train"),
                          gettext_noop("One tile, like every turn")),
           help=gettext_noop("a seat's first turn lays a chain of tiles on its train, or one tile")),
)


def _derive(out: dict[str, Any], players: int) -> None:
    top = out["set"]
    if out["rounds"] is None:
        out["rounds"] = top + 1
    elif out["rounds"] > top + 1:
        raise OptionError(
            "rounds", "does_not_fit",
            gettext_noop("option 'rounds' must be at most %(maximum)s on a double-%(top)s set, not "
                         "%(value)s"),
            {"maximum": top + 1, "top": top, "value": out["rounds"]},
        )
    if out["hand_size"] is None:
        table = HAND_SIZES[top]
        if players not in table:
            raise OptionError(
                "players", "does_not_fit",
                gettext_noop("option 'players': a double-%(top)s set deals Mexican Train to at most "
                             "%(maximum)s players, not %(value)s (choose a larger 'set' or give "
                             "'hand_size')"),
                {"top": top, "maximum": max(table), "value": players},
            )
        out["hand_size"] = table[players]
    else:
        check_hands_fit(players, out["hand_size"], top, set_aside=1)


def resolve(players: object, options: Mapping[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """The player count and every option with its value; `OptionError` names a bad option."""
    count = verify_players(GAME, players, MIN_PLAYERS, MAX_PLAYERS)
    return count, resolve_options(GAME, SCHEMA, options, count, _derive)
