"""Hard: infers voids, samples consistent deals and searches them (see `search.py`).

Its work per decision is the kit's budget of playouts, so it is deterministic given its
seed and bounded in time on any machine in proportion to that machine's speed.
"""

from __future__ import annotations

import gc

from games.ai.kit import Kit
from games.ai.policy import View, bot_seed, decision_rng, legal_of, safe_fallback
from games.ai.scored import Scored, only, pick
from games.ai.search import pimc_values
from games.core.actions import Action
from games.engine import get_rules


class HardBot:
    """Determinized Monte Carlo search over the kit's rollout policy."""

    level = "hard"

    def __init__(
        self, game: str, kit: Kit, seed: bytes | str | int | None = None, budget: int | None = None
    ) -> None:
        self.game = game
        self.kit = kit
        self.seed = bot_seed(seed)
        self.rules = get_rules(game)
        self.fixed_budget = budget

    def choose(self, view: View) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        # A search allocates hundreds of thousands of short-lived, acyclic objects (deals,
        # moves, lists): the cyclic collector's passes over them, and over everything else
        # the process holds, cost a tenth of a decision and find nothing. Reference counting
        # frees them as before; the collector runs again once the decision is made.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._search(view, legal).choice
        except Exception as error:  # a live table must get a move
            return safe_fallback(self, view, legal, error)
        finally:
            if collecting:
                gc.enable()

    def scored(self, view: View) -> Scored:
        """`choose`'s whole search, kept: the candidates, each one's estimated outcome and
        the choice (the same as `choose` makes). Errors propagate: no fallback here."""
        legal = legal_of(view)
        if len(legal) == 1:
            return only(legal[0])
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._search(view, legal)
        finally:
            if collecting:
                gc.enable()

    def _search(self, view: View, legal: list[Action]) -> Scored:
        rng = decision_rng(self.seed, view)
        budget = self.fixed_budget if self.fixed_budget is not None else self.kit.budget(view)
        special = self.kit.special(self.rules, view, legal, rng, budget)
        if special is not None:
            return special
        prior = self.kit.prior(self.rules, view, legal, rng)
        if len(legal) > self.kit.candidates:
            # Search only the heuristic's best few: the budget goes where the choice is close.
            ranked = sorted(range(len(legal)), key=lambda i: (-prior[i], i))[: self.kit.candidates]
            keep = sorted(ranked)
            legal = [legal[i] for i in keep]
            prior = [prior[i] for i in keep]
        values = pimc_values(
            self.rules, self.kit, view, legal, rng, budget=budget, win_bonus=self.kit.win_bonus
        )
        score = [v + self.kit.prior_weight * p for v, p in zip(values, prior)]
        return pick(legal, values, score)
