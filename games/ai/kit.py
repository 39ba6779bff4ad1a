"""What each game family teaches the bots: its inference, its heuristic and its rollout policy.

The bots themselves (`medium.py`, `hard.py`) are game-agnostic; a kit is the small piece of
game knowledge they plug in. Kits read views and call the engine protocol only, never a game
family's code, so the AI keeps working whatever the engines do inside.
"""

from __future__ import annotations

import random
from typing import Protocol

from games.ai.inference import HiddenHand
from games.ai.policy import View
from games.ai.scored import Scored
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile


class Kit(Protocol):
    """One family's knowledge, used by Medium (heuristic) and Hard (search)."""

    #: Points a won hand is worth in the search's outcome, on top of the points themselves.
    win_bonus: float
    #: How much of the heuristic's score Hard adds to each searched value (a prior).
    prior_weight: float
    #: Hard searches at most this many actions, the heuristic's best.
    candidates: int

    def budget(self, view: View) -> int:
        """Playouts Hard may spend on this decision (work, not time)."""
        ...

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        """Every other seat's hand as constrained slots."""
        ...

    def unseen(self, view: View) -> list[Tile]:
        """Tiles this seat has not seen."""
        ...

    def medium(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> Action:
        """The heuristic choice."""
        ...

    def prior(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        """The heuristic's score of each legal action, or zeros where it has none."""
        ...

    def rollout(self, rules: Rules[object], state: object, legal: list[Action], rng: random.Random) -> Action:
        """A fast, reasonable move for search playouts, from the full state."""
        ...

    def special(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored | None:
        """A decision the generic search does not handle (the family's own search), scored,
        else None."""
        ...
