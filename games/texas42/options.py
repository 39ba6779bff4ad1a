"""The room options of Texas 42, declared once (docs/rules-texas42.md): the engine checks
them (`games.texas42.state.Config`), the API serves and validates them, the room form is built
from them."""

from __future__ import annotations

from games.core.options import Option, Source

GAME = "texas42"
SEATS = 4

_NO_YES = ("No", "Yes")

SCHEMA: tuple[Option, ...] = (
    Option("target_marks", 7, minimum=1, maximum=100, label="Match target (marks)",
           help="marks that win the match",
           sources=(Source("Texas 42 rules",
                           "Game is most often played to seven marks, or to 250 points where "
                           "the score is kept in points: agree which before you start."),)),
    Option("target_points", None, minimum=1, maximum=10_000, nullable=True,
           label="Keep the score in points instead, to", default_note="marks are kept",
           help="when set, the score is kept in points and this many win (target_marks is ignored)"),
    Option("all_pass", "redeal", choices=("redeal", "force"), label="When all four pass",
           choice_labels=("Shuffle and deal again", "The shuffler must bid"),
           help="when all four seats pass (the older name of forced_bid: \"force\" is forced_bid)",
           shown=False),
    Option("forced_bid", False, choices=(False, True), label="The shuffler must bid when the others pass",
           choice_labels=_NO_YES,
           help="when the first three seats pass, the shuffler may not pass (all_pass \"force\")",
           sources=(Source("Wikipedia, 42 (dominoes)",
                           "If all players pass the dealer must bid 30; in some variations the "
                           "dominoes are reshuffled and the hand restarts."),
                    Source("pagat.com, Texas 42",
                           "If all four players pass, the tiles are thrown in and the next player "
                           "deals."))),
    Option("doubles_trump", False, choices=(False, True), label="Doubles may be named as trumps",
           choice_labels=_NO_YES, help="the doubles may be named trumps",
           sources=(Source("Texas 42 rules",
                           "Doubles-as-trumps is a common agreed variation, not the default."),)),
    Option("follow_me", False, choices=(False, True), label="Follow-me (no trumps) may be named",
           choice_labels=_NO_YES, help="no trumps may be named"),
    Option("nello", False, choices=(False, True), label="Nello may be bid", choice_labels=_NO_YES,
           help="the bidder may play to lose every trick"),
    Option("nello_doubles", "high", choices=("high", "low", "own_suit"), label="Doubles in nello",
           choice_labels=("Highest in their suits", "Lowest in their suits", "A suit of their own"),
           help="how the doubles rank when nello is named", requires="nello",
           sources=(Source("42-dominoes.blogspot.com, Rule Variations",
                           "Nearly everyone plays the doubles high in their suits or as a separate "
                           "suit; some call them low in their suits."),
                    Source("domino-play.com, Nel-O",
                           "Doubles form a suit of their own; some let the bidder choose that, high "
                           "in suit or low in suit."),
                    Source("dominorules.com (Kelley, Great Book of Domino Games), Nel-O",
                           "Some treat the doubles as a separate suit; most do not."))),
    Option("nello_min_marks", 0, choices=(0, 1, 2), label="Nello needs a bid of at least",
           choice_labels=("Any bid", "One mark (42)", "Two marks (84)"),
           help="the smallest winning bid on which nello may be named", requires="nello",
           sources=(Source("42-dominoes.blogspot.com, Rule Variations",
                           "You first bid 42 or 84, then call nello when you name trumps."),
                    Source("Wikipedia, 42 (dominoes)",
                           "A nel-o bidder who takes a trick is set and the opponents score a "
                           "mark."))),
    Option("plunge", False, choices=(False, True), label="Plunge may be bid", choice_labels=_NO_YES,
           help="with four doubles or more: bid four marks (or two more than the standing bid); the "
                "partner names trumps and leads, and the side must take every trick",
           sources=(Source("domino-play.com, Plunge",
                           "At least four doubles; the partner chooses trumps and leads; at least "
                           "four marks, the only opening bid over two marks."),
                    Source("dominorules.com (Kelley, Great Book of Domino Games), Plunge",
                           "At least four doubles; the bid is 168 and not a trick may be lost."),
                    Source("42-dominoes.blogspot.com, Rule Variations",
                           "Some bid plunge at 84 and call it when trumps are named; four marks is "
                           "a variation."))),
    Option("splash", False, choices=(False, True), label="Splash may be bid", choice_labels=_NO_YES,
           help="with three doubles or more: bid two marks (three over two); the partner names "
                "trumps and leads, and the side must take every trick",
           sources=(Source("Wikipedia, 42 (dominoes)",
                           "Splash, worth two marks, needs three doubles; plunge (or crash) is "
                           "the same with four doubles for four marks (three in some variants)."),)),
    Option("sevens", False, choices=(False, True), label="Sevens may be named", choice_labels=_NO_YES,
           help="on a bid of 42 or more: each trick goes to the tile closest to seven pips, and "
                "the bidder's side must take every trick",
           sources=(Source("dominorules.com (Kelley, Great Book of Domino Games), Sevens",
                           "At least 42; no trumps or suits; each player plays the tile closest to "
                           "seven; a tie does not set the bidder."),
                    Source("42-dominoes.blogspot.com, Rule Variations",
                           "A bid for all the tricks, usually played for two marks."))),
)
