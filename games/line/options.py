"""The room options of Block, Draw and All Fives, declared once (docs/rules-line.md).

The engine checks them (`games.line.config`), the API serves and validates them, and the home
page's room form is built from them. `set` is chosen on the form beside the player count.
"""

from __future__ import annotations

from games.core.options import Option, Source
from games.core.text import gettext_noop

_DEAL = (
    Source("pagat, Block", gettext_noop("7 each for two players, 5 each for three or four.")),
    Source("pagat, Draw", gettext_noop("7 for two players, 7 for three, 6 for four.")),
    Source("All Fives rules", gettext_noop("7 each for two players, 5 each for three or four.")),
    Source("Household practice", gettext_noop("7 each for two, 5 each for three or more, in every game.")),
)
_SCORING = (
    Source("pagat", gettext_noop("The lowest hand scores the others' pips minus its own remaining pips.")),
    Source("Most published summaries",
           gettext_noop("The winner simply takes the total of everyone else's pips.")),
)
_SPINNER = (
    Source("pagat, Block and Draw", gettext_noop("No: the layout is a single line with two ends.")),
    Source("American house rules, All Fives rules",
           gettext_noop("Yes: the first double branches four ways.")),
)
#: Shared with the penalty games, which count the double-blank the same way.
DOUBLE_BLANK_SOURCES = (
    Source("pagat", gettext_noop("Not mentioned: tiles score their pips, so the double-blank scores 0.")),
    Source("Wikipedia", gettext_noop("An option: blanks could score 25 each, the double-blank 50.")),
)
_RESERVE = (
    Source("Main rules (pagat)", gettext_noop("The last two tiles of the boneyard are never drawn.")),
    Source("All Fives rules", gettext_noop("Draw until a tile fits; pass when the boneyard is empty.")),
)
_NEXT_LEAD = (
    Source("All Fives rules", gettext_noop("In later hands the winner of the previous hand starts.")),
    Source("Main rules", gettext_noop("Whoever holds the highest double leads, and must lead it.")),
)

#: The match targets the documents give (a nullable option's note, and the score sheets).
LINE_TARGET = gettext_noop("100 for two players or partnerships, 61 for three or four")
FIVES_TARGET = gettext_noop("250 for two, 200 for three or four")
#: The documents' deal table, as the hand size's note says it for each game.
_DEAL_NOTES = {
    "block": gettext_noop("the documents' table, for 2 / 3 / 4 players on double-six: 7 / 5 / 5"),
    "draw": gettext_noop("the documents' table, for 2 / 3 / 4 players on double-six: 7 / 7 / 6"),
    "allfives": gettext_noop("the documents' table, for 2 / 3 / 4 players on double-six: 7 / 5 / 5"),
}


def schema(game: str) -> tuple[Option, ...]:
    """The options of `game` ("block", "draw" or "allfives"), in the form's order."""
    fives = game == "allfives"
    target = FIVES_TARGET if fives else LINE_TARGET
    options = [
        Option("set", 6, choices=(6, 9, 12), label=gettext_noop("Domino set"),
               choice_labels=(gettext_noop("Double-six"), gettext_noop("Double-nine"),
                              gettext_noop("Double-twelve")),
               help=gettext_noop("double-six, -nine or -twelve")),
        Option("partnership", False, choices=(False, True), players=(4,),
               label=gettext_noop("Partnerships (four players, seats 1+3 against 2+4)"),
               choice_labels=(gettext_noop("Individuals"), gettext_noop("Partnerships")),
               help=gettext_noop("4 players: seats 0+2 against 1+3")),
        Option("hand_size", None, minimum=1, maximum=45, nullable=True,
               label=gettext_noop("Tiles dealt to each player"), default_note=_DEAL_NOTES[game],
               help=gettext_noop("tiles dealt to each seat"), sources=_DEAL),
        Option("scoring", "pagat", choices=("pagat", "opponents"),
               label=gettext_noop("Blocked hand: does the winner subtract their own pips?"),
               choice_labels=(gettext_noop("Yes, subtract (pagat)"),
                              gettext_noop("No, opponents' pips only")),
               help=gettext_noop("pagat: a blocked hand's winner subtracts their own pips"),
               sources=_SCORING),
        Option("spinner", fives, choices=(False, True),
               label=gettext_noop("First double is a spinner (four ends)"),
               choice_labels=(gettext_noop("No, a line with two ends"), gettext_noop("Yes, a spinner")),
               help=gettext_noop("the first double branches four ways"), sources=_SPINNER),
        Option("boneyard_reserve", 2 if game == "draw" else 0, minimum=0, maximum=90,
               label=gettext_noop("Tiles left in the boneyard that are never drawn"),
               help=gettext_noop("tiles never drawn from the boneyard"), sources=_RESERVE,
               shown=game != "block"),
        Option("target", None, minimum=1, maximum=10000, nullable=True,
               label=gettext_noop("Match target (points)"),
               default_note=target, help=gettext_noop("points that win the match"),
               sources=(Source("pagat, scoring table", gettext_noop("250 for two, 200 for three or four.")),
                        Source("All Fives rules",
                               gettext_noop("Draw and Block to 100, All Fives to 150."))) if fives else ()),
        Option("next_lead", "winner", choices=("winner", "highest_double"),
               label=gettext_noop("Who leads the later hands"),
               choice_labels=(gettext_noop("The previous hand's winner, any tile"),
                              gettext_noop("The highest double, every hand")),
               help=gettext_noop("who leads the hands after the first"), sources=_NEXT_LEAD),
        Option("double_blank", 0, choices=(0, 50), label=gettext_noop("The double-blank counts"),
               choice_labels=(gettext_noop("0 pips"), gettext_noop("50 points")),
               help=gettext_noop("what the 0-0 counts in a hand"), sources=DOUBLE_BLANK_SOURCES),
        Option("round_to_five", fives, choices=(False, True),
               label=gettext_noop("Hand-end points rounded to the nearest five"),
               choice_labels=(gettext_noop("Exact pips"), gettext_noop("Round to five")),
               help=gettext_noop("hand-end points to the nearest five"), shown=fives),
    ]
    return tuple(options)
