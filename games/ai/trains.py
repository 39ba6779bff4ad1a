"""Mexican Train (and Chicken Foot's layout of arms): plan a long chain, shed pips, answer doubles.

Voids come from the `ends` that draw and pass events carry: a seat that had to draw or pass
held nothing matching the ends it was allowed to play on. The engine double of the round is
public (`view["engine"]`), so it is never among the unseen tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.ai.inference import HiddenHand, hand_of, line_hidden_hands, tile_of, unseen_tiles
from games.ai.policy import View
from games.ai.search import heaviest_tile
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile

CHAIN_NODES = 4000


def longest_chain(start: int, tiles: Sequence[Tile], limit: int = CHAIN_NODES) -> list[Tile]:
    """The longest train (most tiles, then most pips) `tiles` can build from `start`."""
    best: list[Tile] = []
    best_key = (0, 0)
    budget = [limit]
    path: list[Tile] = []

    def grow(value: int, left: list[Tile]) -> None:
        nonlocal best, best_key
        budget[0] -= 1
        key = (len(path), sum(t.pips for t in path))
        if key > best_key:
            best, best_key = list(path), key
        if budget[0] <= 0:
            return
        for i, tile in enumerate(left):
            if tile.has(value):
                path.append(tile)
                grow(tile.other(value), left[:i] + left[i + 1:])
                path.pop()

    grow(start, list(tiles))
    return best


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
        # Chicken Foot hands run longer (every double freezes the table), so fewer playouts.
        return 16 if view.get("game") == "chicken_foot" else 30

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        return line_hidden_hands(view)

    def unseen(self, view: View) -> list[Tile]:
        engine = view.get("engine")
        return unseen_tiles(view, [tile_of(engine)] if engine else [])

    def special(
        self, rules: Rules[Any], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Action | None:
        return None

    def medium(self, rules: Rules[Any], view: View, legal: list[Action], rng: random.Random) -> Action:
        scores = self.prior(rules, view, legal, rng)
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]

    def prior(self, rules: Rules[Any], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        """Medium's score of each action: shed pips along the planned train, answer doubles."""
        me = view.get("seat")
        mine = f"train:{me}"
        hand = list(hand_of(view))
        start = own_end(view)
        chain = longest_chain(start, hand) if start is not None else []
        planned = set(chain)
        opening = bool((view.get("turn_phase") or {}).get("first_turn"))
        ends = {str(e["id"]): e for e in view.get("ends") or ()}
        out: list[float] = []
        for action in legal:
            if action["type"] == "end_turn":
                # The opening chain stops where the plan ends.
                on_plan = any(
                    a["type"] == "play" and a.get("end") == mine and chain and tile_of(a["tile"]) == chain[0]
                    for a in legal
                )
                out.append(-50.0 if on_plan else 50.0)
                continue
            if action["type"] != "play":
                out.append(-100.0)
                continue
            tile = tile_of(action["tile"])
            end = str(action.get("end"))
            rest = [t for t in hand if t != tile]
            score = float(tile.pips)
            if end == mine:
                score += 8.0 if chain and tile == chain[0] else 2.0
                if (ends.get(mine) or {}).get("marker"):
                    score += 4.0
            elif tile in planned:
                score -= 10.0
            if tile.is_double and rest:
                score += 10.0 if any(t.has(tile.low) for t in rest) else -15.0
            if not rest:
                score += 1000.0
            if opening and end != mine:
                score -= 5.0
            out.append(score)
        return out

    def rollout(self, rules: Rules[Any], state: Any, legal: list[Action], rng: random.Random) -> Action:
        """Heaviest tile first, doubles a little earlier, one time in ten at random."""
        return heaviest_tile(legal, rng, noise=0.1, double_bonus=3.0)


TRAINS_KIT = TrainsKit()
