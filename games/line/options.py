"""The room options of Block, Draw and All Fives, declared once (docs/rules-line.md).

The engine checks them (`games.line.config`), the API serves and validates them, and the home
page's room form is built from them. `set` is chosen on the form beside the player count.
"""

from __future__ import annotations

from games.core.options import Option, Source

_DEAL = (
    Source("pagat, Block", "7 each for two players, 5 each for three or four."),
    Source("pagat, Draw", "7 for two players, 7 for three, 6 for four."),
    Source("All Fives rules", "7 each for two players, 5 each for three or four."),
    Source("Household practice", "7 each for two, 5 each for three or more, in every game."),
)
_SCORING = (
    Source("pagat", "The lowest hand scores the others' pips minus its own remaining pips."),
    Source("Most published summaries", "The winner simply takes the total of everyone else's pips."),
)
_SPINNER = (
    Source("pagat, Block and Draw", "No: the layout is a single line with two ends."),
    Source("American house rules, All Fives rules", "Yes: the first double branches four ways."),
)
#: Shared with the penalty games, which count the double-blank the same way.
DOUBLE_BLANK_SOURCES = (
    Source("pagat", "Not mentioned: tiles score their pips, so the double-blank scores 0."),
    Source("Wikipedia", "An option: blanks could score 25 each, the double-blank 50."),
)
_RESERVE = (
    Source("Main rules (pagat)", "The last two tiles of the boneyard are never drawn."),
    Source("All Fives rules", "Draw until a tile fits; pass when the boneyard is empty."),
)
_NEXT_LEAD = (
    Source("All Fives rules", "In later hands the winner of the previous hand starts."),
    Source("Main rules", "Whoever holds the highest double leads, and must lead it."),
)

LINE_TARGET = "100 for two players or partnerships, 61 for three or four"
FIVES_TARGET = "250 for two, 200 for three or four"
_DEALS = {"block": "7 / 5 / 5", "draw": "7 / 7 / 6", "allfives": "7 / 5 / 5"}


def schema(game: str) -> tuple[Option, ...]:
    """The options of `game` ("block", "draw" or "allfives"), in the form's order."""
    fives = game == "allfives"
    target = FIVES_TARGET if fives else LINE_TARGET
    options = [
        Option("set", 6, choices=(6, 9, 12), label="Domino set",
               choice_labels=("Double-six", "Double-nine", "Double-twelve"),
                   help="double-six, -nine or -twelve"),
        Option("partnership", False, choices=(False, True), players=(4,),
               label="Partnerships (four players, seats 1+3 against 2+4)",
               choice_labels=("Individuals", "Partnerships"), help="4 players: seats 0+2 against 1+3"),
        Option("hand_size", None, minimum=1, maximum=45, nullable=True, label="Tiles dealt to each player",
               default_note=f"the documents' table, for 2 / 3 / 4 players on double-six: {_DEALS[game]}",
               help="tiles dealt to each seat", sources=_DEAL),
        Option("scoring", "pagat", choices=("pagat", "opponents"),
               label="Blocked hand: does the winner subtract their own pips?",
               choice_labels=("Yes, subtract (pagat)", "No, opponents' pips only"),
               help="pagat: a blocked hand's winner subtracts their own pips", sources=_SCORING),
        Option("spinner", fives, choices=(False, True), label="First double is a spinner (four ends)",
               choice_labels=("No, a line with two ends", "Yes, a spinner"),
               help="the first double branches four ways", sources=_SPINNER),
        Option("boneyard_reserve", 2 if game == "draw" else 0, minimum=0, maximum=90,
               label="Tiles left in the boneyard that are never drawn",
               help="tiles never drawn from the boneyard", sources=_RESERVE, shown=game != "block"),
        Option("target", None, minimum=1, maximum=10000, nullable=True, label="Match target (points)",
               default_note=target, help="points that win the match",
               sources=(Source("pagat, scoring table", target + "."),
                        Source("All Fives rules",
                               "Draw and Block to 100, All Fives to 150.")) if fives else ()),
        Option("next_lead", "winner", choices=("winner", "highest_double"), label="Who leads the later hands",
               choice_labels=("The previous hand's winner, any tile", "The highest double, every hand"),
               help="who leads the hands after the first", sources=_NEXT_LEAD),
        Option("double_blank", 0, choices=(0, 50), label="The double-blank counts",
               choice_labels=("0 pips", "50 points"), help="what the 0-0 counts in a hand",
               sources=DOUBLE_BLANK_SOURCES),
        Option("round_to_five", fives, choices=(False, True),
               label="Hand-end points rounded to the nearest five",
               choice_labels=("Exact pips", "Round to five"), help="hand-end points to the nearest five",
               shown=fives),
    ]
    return tuple(options)
