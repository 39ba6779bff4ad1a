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
               help="when all four seats pass"),
    Option("doubles_trump", False, choices=(False, True), label="Doubles may be named as trumps",
           choice_labels=_NO_YES, help="the doubles may be named trumps",
           sources=(Source("Texas 42 rules",
                           "Doubles-as-trumps is a common agreed variation, not the default."),)),
    Option("follow_me", False, choices=(False, True), label="Follow-me (no trumps) may be named",
           choice_labels=_NO_YES, help="no trumps may be named"),
    Option("nello", False, choices=(False, True), label="Nello may be bid", choice_labels=_NO_YES,
           help="the bidder may play to lose every trick"),
)
