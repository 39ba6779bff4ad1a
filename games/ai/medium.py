"""Medium: a sound heuristic player, one per game family (see the kits)."""

from __future__ import annotations

from games.ai.kit import Kit
from games.ai.policy import View, bot_seed, decision_rng, legal_of, safe_fallback
from games.core.actions import Action
from games.engine import get_rules


class MediumBot:
    """Plays the kit's heuristic: no search, no sampling beyond what the heuristic needs."""

    level = "medium"

    def __init__(self, game: str, kit: Kit, seed: bytes | str | int | None = None) -> None:
        self.game = game
        self.kit = kit
        self.seed = bot_seed(seed)
        self.rules = get_rules(game)

    def choose(self, view: View) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        try:
            return self.kit.medium(self.rules, view, legal, rng)
        except Exception as error:  # a live table must get a move
            return safe_fallback(self, view, legal, error)
