"""The room options of Texas 42, declared once (docs/rules-texas42.md): the engine checks
them (`games.texas42.state.Config`), the API serves and validates them, the room form is built
from them."""

from __future__ import annotations

from games.core.options import Option, Source
from games.core.text import gettext_noop

GAME = "texas42"
SEATS = 4

_NO_YES = (gettext_noop("No"), gettext_noop("Yes"))

SCHEMA: tuple[Option, ...] = (
    Option("target_marks", 7, minimum=1, maximum=100, label=gettext_noop("Match target (marks)"),
           help=gettext_noop("marks that win the match"),
           sources=(Source("Texas 42 rules",
                           gettext_noop("Game is most often played to seven marks, or to 250 points where "
                                        "the score is kept in points: agree which before you start.")),)),
    Option("target_points", None, minimum=1, maximum=10_000, nullable=True,
           label=gettext_noop("Keep the score in points instead, to"),
           default_note=gettext_noop("marks are kept"),
           help=gettext_noop("when set, the score is kept in points and this many win (target_marks is "
                             "ignored)")),
    Option("all_pass", "redeal", choices=("redeal", "force"), label=gettext_noop("When all four pass"),
           choice_labels=(gettext_noop("Shuffle and deal again"), gettext_noop("The shuffler must bid")),
           help=gettext_noop("when all four seats pass (the older name of forced_bid: \"force\" is "
                             "forced_bid)"),
           shown=False),
    Option("forced_bid", False, choices=(False, True),
           label=gettext_noop("The shuffler must bid when the others pass"),
           choice_labels=_NO_YES,
           help=gettext_noop("when the first three seats pass, the shuffler may not pass (all_pass "
                             "\"force\")"),
           sources=(Source("Wikipedia, 42 (dominoes)",
                           gettext_noop("If all players pass the dealer must bid 30; in some variations the "
                                        "dominoes are reshuffled and the hand restarts.")),
                    Source("pagat.com, Texas 42",
                           gettext_noop("If all four players pass, the tiles are thrown in and the next "
                                        "player deals.")))),
    Option("doubles_trump", False, choices=(False, True),
           label=gettext_noop("Doubles may be named as trumps"),
           choice_labels=_NO_YES, help=gettext_noop("the doubles may be named trumps"),
           sources=(Source("Texas 42 rules",
                           gettext_noop("Doubles-as-trumps is a common agreed variation, not the "
                                        "default.")),)),
    Option("follow_me", False, choices=(False, True),
           label=gettext_noop("Follow-me (no trumps) may be named"),
           choice_labels=_NO_YES, help=gettext_noop("no trumps may be named")),
    Option("nello", False, choices=(False, True), label=gettext_noop("Nello may be bid"),
           choice_labels=_NO_YES,
           help=gettext_noop("the bidder may play to lose every trick")),
    Option("nello_doubles", "high", choices=("high", "low", "own_suit"),
           label=gettext_noop("Doubles in nello"),
           choice_labels=(gettext_noop("Highest in their suits"), gettext_noop("Lowest in their suits"),
                          gettext_noop("A suit of their own")),
           help=gettext_noop("how the doubles rank when nello is named"), requires="nello",
           sources=(Source("42-dominoes.blogspot.com, Rule Variations",
                           gettext_noop("Nearly everyone plays the doubles high in their suits or as a "
                                        "separate suit; some call them low in their suits.")),
                    Source("domino-play.com, Nel-O",
                           gettext_noop("Doubles form a suit of their own; some let the bidder choose that, "
                                        "high in suit or low in suit.")),
                    Source("dominorules.com (Kelley, Great Book of Domino Games), Nel-O",
                           gettext_noop("Some treat the doubles as a separate suit; most do not.")))),
    Option("nello_min_marks", 0, choices=(0, 1, 2), label=gettext_noop("Nello needs a bid of at least"),
           choice_labels=(gettext_noop("Any bid"), gettext_noop("One mark (42)"),
                          gettext_noop("Two marks (84)")),
           help=gettext_noop("the smallest winning bid on which nello may be named"), requires="nello",
           sources=(Source("42-dominoes.blogspot.com, Rule Variations",
                           gettext_noop("You first bid 42 or 84, then call nello when you name trumps.")),
                    Source("Wikipedia, 42 (dominoes)",
                           gettext_noop("A nel-o bidder who takes a trick is set and the opponents score a "
                                        "mark.")))),
    Option("plunge", False, choices=(False, True), label=gettext_noop("Plunge may be bid"),
           choice_labels=_NO_YES,
           help=gettext_noop("with four doubles or more: bid four marks (or two more than the standing bid); "
                             "the partner names trumps and leads, and the side must take every trick"),
           sources=(Source("domino-play.com, Plunge",
                           gettext_noop("At least four doubles; the partner chooses trumps and leads; at "
                                        "least four marks, the only opening bid over two marks.")),
                    Source("dominorules.com (Kelley, Great Book of Domino Games), Plunge",
                           gettext_noop("At least four doubles; the bid is 168 and not a trick may be "
                                        "lost.")),
                    Source("42-dominoes.blogspot.com, Rule Variations",
                           gettext_noop("Some bid plunge at 84 and call it when trumps are named; four marks "
                                        "is a variation.")))),
    Option("splash", False, choices=(False, True), label=gettext_noop("Splash may be bid"),
           choice_labels=_NO_YES,
           help=gettext_noop("with three doubles or more: bid two marks (three over two); the partner names "
                             "trumps and leads, and the side must take every trick"),
           sources=(Source("Wikipedia, 42 (dominoes)",
                           gettext_noop("Splash, worth two marks, needs three doubles; plunge (or crash) is "
                                        "the same with four doubles for four marks (three in some "
                                        "variants).")),)),
    Option("sevens", False, choices=(False, True), label=gettext_noop("Sevens may be named"),
           choice_labels=_NO_YES,
           help=gettext_noop("on a bid of 42 or more: each trick goes to the tile closest to seven pips, and "
                             "the bidder's side must take every trick"),
           sources=(Source("dominorules.com (Kelley, Great Book of Domino Games), Sevens",
                           gettext_noop("At least 42; no trumps or suits; each player plays the tile closest "
                                        "to seven; a tie does not set the bidder.")),
                    Source("42-dominoes.blogspot.com, Rule Variations",
                           gettext_noop("A bid for all the tricks, usually played for two marks.")))),
)
