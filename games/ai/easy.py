"""Easy: a uniformly random legal action, the baseline every other level is measured against."""

from __future__ import annotations

from games.ai.policy import View, bot_seed, decision_rng, legal_of
from games.core.actions import Action


class EasyBot:
    """Picks uniformly among the legal actions with a generator seeded by its seed and the view."""

    level = "easy"

    def __init__(self, game: str, seed: bytes | str | int | None = None) -> None:
        self.game = game
        self.seed = bot_seed(seed)

    def choose(self, view: View) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        return decision_rng(self.seed, view).choice(legal)
