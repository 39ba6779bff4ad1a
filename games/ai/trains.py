"""Mexican Train (and Chicken Foot's layout of arms): plan a long chain, shed pips, answer doubles.

Voids come from the `ends` that draw and pass events carry: a seat that had to draw or pass
held nothing matching the ends it was allowed to play on. The engine double of the round is
public (`view["engine"]`), so it is never among the unseen tiles.
"""

from __future__ import annotations

import random

from games.ai import trains_search
from games.ai.inference import HiddenHand, hand_of, line_hidden_hands, tile_of, unseen_tiles
from games.ai.policy import View
from games.ai.scored import Scored
from games.ai.search import heaviest_tile
from games.ai.trains_policy import action_scores, longest_chain
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile


def own_end(view: View) -> int | None:
    me = view.get("seat")
    for end in view.get("ends") or ():
        if end.get("owner") == me and end.get("owner") is not None:
            return int(end["value"])
    return None


class TrainsKit:
    """Knowledge of the train games for Medium and Hard."""

    prior_weight = 0.5
    candidates = 5
    win_bonus = 4.0

    def budget(self, view: View) -> int:
        # Chicken Foot hands run longer (every double freezes the table), so fewer playouts;
        # Mexican Train's own search plays short playouts, so many more.
        return 16 if view.get("game") == "chicken_foot" else trains_search.PLAYOUTS

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        return line_hidden_hands(view)

    def unseen(self, view: View) -> list[Tile]:
        engine = view.get("engine")
        return unseen_tiles(view, [tile_of(engine)] if engine else [])

    def special(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored | None:
        """Mexican Train has its own search (see `trains_search.py`); Chicken Foot the generic one."""
        if view.get("game") != "mexican_train":
            return None
        prior = self.prior(rules, view, legal, rng)
        return trains_search.choose(rules, self, view, legal, prior=prior, rng=rng, playouts=budget)

    def medium(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> Action:
        scores = self.prior(rules, view, legal, rng)
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]

    def prior(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        """Medium's score of each action: shed pips along the planned train, answer doubles."""
        me = int(view.get("seat") or 0)
        hand = list(hand_of(view))
        start = own_end(view)
        chain = longest_chain(start, hand) if start is not None else []
        ends = {str(e["id"]): e for e in view.get("ends") or ()}
        marked = bool((ends.get(f"train:{me}") or {}).get("marker"))
        opening = bool((view.get("turn_phase") or {}).get("first_turn"))
        blank = int((view.get("options") or {}).get("double_blank") or 0)
        return action_scores(me, hand, chain, marked=marked, opening=opening, legal=legal, blank=blank)

    def rollout(self, rules: Rules[object], state: object, legal: list[Action], rng: random.Random) -> Action:
        """Heaviest tile first, doubles a little earlier, one time in ten at random."""
        return heaviest_tile(legal, rng, noise=0.1, double_bonus=3.0)


TRAINS_KIT = TrainsKit()
