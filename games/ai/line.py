"""Block, Draw and All Fives: voids from passes and draws, a heuristic, a rollout policy.

The heuristic follows the documents' advice, measured against Easy and Hard: shed heavy
tiles and doubles early, keep a spread of numbers, leave ends you can answer and opponents
cannot, and in All Fives take the points on offer without leaving an easy five.
Consequences of a play (points, new ends) are asked of the engine on a sampled deal, so the
heuristic never re-implements the layout rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai.block_search import evaluate as block_evaluate
from games.ai.draw_search import evaluate as draw_evaluate
from games.ai.fives_search import evaluate as fives_evaluate
from games.ai.inference import HiddenHand, hand_of, line_hidden_hands, tile_of, unseen_tiles
from games.ai.line_search import evaluate, plan_for
from games.ai.line_weights import WEIGHTS
from games.ai.policy import Record, View
from games.ai.scored import Scored
from games.ai.search import determinize, heaviest_tile, my_side
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile


def end_total(ends: Sequence[Record]) -> int:
    """The All Fives count of a layout's open ends (a crosswise double counts both halves)."""
    return sum(int(e["value"]) * (2 if e.get("double") else 1) for e in ends)


def best_reply_points(ends: Sequence[Record], tiles: Sequence[Tile]) -> int:
    """Most points one of `tiles` could score on these ends next turn (approximate)."""
    total = end_total(ends)
    best = 0
    for tile in tiles:
        for end in ends:
            value = int(end["value"])
            if not tile.has(value):
                continue
            old = value * (2 if end.get("double") else 1)
            far = tile.other(value)
            new = far * (2 if tile.is_double else 1)
            count = total - old + new
            if count > 0 and count % 5 == 0:
                best = max(best, count)
    return best


def is_void(hidden: HiddenHand, number: int) -> bool:
    return bool(hidden.slots) and all(number in slot for slot in hidden.slots)


class LineKit:
    """Knowledge of the line games for Medium and Hard."""

    candidates = 6
    win_bonus = 15.0
    prior_weight = 1.0

    def budget(self, view: View) -> int:
        plan = plan_for(view)
        return plan.budget_two if len(view.get("hand_sizes") or ()) <= 2 else plan.budget_more

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        return line_hidden_hands(view)

    def unseen(self, view: View) -> list[Tile]:
        return unseen_tiles(view)

    def special(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored | None:
        """Hard's whole decision, by the line games' own search (see `line_search.py`)."""
        prior = self.prior(rules, view, legal, rng)
        weights = WEIGHTS.get(str(view.get("game")), WEIGHTS["draw"])
        if view.get("game") == "allfives":
            return fives_evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan_for(view),
                                weights=weights)
        if view.get("game") == "draw":
            return draw_evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan_for(view),
                               weights=weights)
        if view.get("game") == "block":
            return block_evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan_for(view),
                                weights=weights)
        return evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan_for(view), weights=weights)

    def medium(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> Action:
        scores = self.prior(rules, view, legal, rng)
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]

    def prior(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        """Medium's score of every legal action (higher is better; going out beats all)."""
        me = int(view["seat"])
        fives = view.get("game") == "allfives"
        w = WEIGHTS.get(str(view.get("game")), WEIGHTS["draw"])
        hand = hand_of(view)
        hidden = self.hidden(view)
        unseen = self.unseen(view)
        side = my_side(view)
        teams = view.get("teams") or []
        partners = set(teams[side]) if teams else {me}
        before = list(view.get("scores") or ())
        number = int(view.get("hand_number") or 0)
        state = determinize(rules, self, view, rng)
        out: list[float] = []
        for action in legal:
            if action["type"] != "play":
                out.append(-1000.0)
                continue
            tile = tile_of(action["tile"])
            after = rules.advance(state, action)
            if rules.to_move(after) is None or rules.hand_index(after) != number:
                out.append(1000.0)
                continue
            seen = rules.view(after, me)
            gained = rules.scores(after)[side] - before[side]
            rest = [t for t in hand if t != tile]
            ends = seen.get("ends") or []
            values = {int(e["value"]) for e in ends}
            score = gained * 1.0 + tile.pips * w.pips + (w.double if tile.is_double else 0.0)
            score += w.spread * len({n for t in rest for n in t})
            score += w.follow * sum(min(2, sum(1 for t in rest if t.has(v))) for v in values)
            score -= w.scarce * sum(1 for v in values for t in unseen if t.has(v))
            for seat, info in hidden.items():
                locked = sum(1 for v in values if is_void(info, v))
                score += (-w.lock if seat in partners else w.lock) * locked
            if fives:
                score -= w.threat * best_reply_points(ends, unseen)
            out.append(score)
        return out

    def rollout(self, rules: Rules[object], state: object, legal: list[Action], rng: random.Random) -> Action:
        """Bully play with noise: the heaviest tile, doubles first, one time in eight at random.

        A lighter Medium (reading the mover's view every ply) played no better in measured
        runs and cost five times as much, so the playouts stay this cheap.
        """
        return heaviest_tile(legal, rng, noise=0.125, double_bonus=4.5)


LINE_KIT = LineKit()
