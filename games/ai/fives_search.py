"""Hard's All Fives search with its own playout loop: faster, and playouts that score.

Profiling the line search on All Fives found most of a decision outside the playouts' moves:
rebuilding a full engine state from the view for every sampled deal (a fifth of the time),
and, at the end of every playout, the engine dealing the next hand with its fair shuffle
(close to a third). Block and Draw avoid the second with a one-point target, but All Fives
cannot: its match ends the moment a side reaches the target, even in mid-hand, so the real
target must stay.

So the state is built from the view once per decision, and the playouts step a small mutable
copy of it (hands as the engine's bitmasks, the boneyard, the engine's own `Layout`) through
the engine's own layout and scoring functions, stopping where the hand or the match ends
instead of dealing on. The moves are listed in the engine's order, and with the greed and the
match bonus at zero the playout policy draws from its random stream exactly as
`line_search.heaviest` does: the values are then the engine-driven search's to the last bit
(a test holds them equal), which is how the loop is checked against the rules.

The time saved buys two changes the heaviest-tile playouts lacked, both about All Fives' own
scoring: every playout seat takes the points on the ends (as Medium does), and a playout that
ends the match counts a bonus for the side that reached the target (see `POINTS_WEIGHT`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import line_search
from games.ai.line_fast import LineConfig, LineTiles, line_fast_path, line_state
from games.ai.line_search import PLAYOUT_CAP, Plan, Search, weighted_means
from games.ai.line_weights import Weights
from games.ai.policy import View
from games.ai.scored import Scored
from games.core.actions import Action
from games.core.layout import CLOSED, DOWN, END_INDEX, LEFT, RIGHT, UP, Layout, end_total, lead_layout, place
from games.core.protocol import Rules
from games.core.tiles import Tile

#: A move inside a playout: (tile index, end index) for a play (`LEAD_END` on an empty
#: layout), `DRAW` or `PASS`.
Move = tuple[int, int]
LEAD_END = -1
LEFT_END, RIGHT_END = LEFT, RIGHT
DRAW: Move = (-1, 0)
PASS: Move = (-2, 0)


def first_move(grid: Sequence[Sequence[int]], action: Action) -> Move:
    """The playout move of the action a search is valuing."""
    if action["type"] != "play":
        return DRAW if action["type"] == "draw" else PASS
    a, b = action["tile"]
    end = action.get("end")
    return grid[a][b], LEAD_END if end is None else END_INDEX[end]


def placed(left: int, right: int, a: int, b: int, end: int) -> tuple[int, int]:
    """The open ends of a two-ended line once the tile a-b is played on `end`: the inlined
    step of the Block and Draw playouts, which need no layout."""
    if end == LEAD_END:
        return a, b
    if end == LEFT_END:
        return (b if a == left else a), right
    return left, (b if a == right else a)


#: How much a playout move values the points it scores, against its pips (0: heaviest tile).
POINTS_WEIGHT = 1.0

#: Outcome added when the playout ends the match with this side at the target (taken away
#: when another side reached it).
MATCH_BONUS = 30.0

def open_total(layout: Layout) -> int:
    """`end_total` of a layout with a tile on some arm: the lines' ends and the used arms."""
    ends = layout.ends
    used = layout.used
    doubles = layout.doubles
    total = 0
    for e in (LEFT, RIGHT, UP, DOWN):
        v = ends[e]
        if v != CLOSED and (e < UP or used >> e & 1):
            total += v * 2 if doubles >> e & 1 else v
    return total


def move_points(layout: Layout, base: int, index: int, end: int, tiles: LineTiles) -> int:
    """What laying tile `index` on open `end` scores, `base` being `open_total(layout)`.

    After any play but the lead, `end_total` is `open_total`, and a play changes only its own
    end's share (a spinner opening its arms adds arms that count nothing until used), so this
    is the engine's count without building the next layout.
    """
    a, b = tiles.low[index], tiles.high[index]
    shown = layout.ends[end]
    outer = b if a == shown else a
    if end >= UP and not layout.used >> end & 1:
        old = 0
    else:
        old = shown * 2 if layout.doubles >> end & 1 else shown
    total = base - old + (outer * 2 if a == b else outer)
    return total if total > 0 and total % 5 == 0 else 0


class FivesSearch(Search):
    """`Search` for All Fives whose `values` steps its own copy of the sampled state."""

    def __init__(self, rules: Rules[object], view: View, plan: Plan, weights: Weights | None = None, *,
                 points_weight: float | None = None, match_bonus: float | None = None) -> None:
        super().__init__(rules, view, plan, weights)
        self.points_weight = POINTS_WEIGHT if points_weight is None else points_weight
        self.match_bonus = MATCH_BONUS if match_bonus is None else match_bonus
        #: The line rules' own scoring (`LineRules.fives_points`, `score_hand`, `NOBODY`),
        #: reached through the rules object's fast path: the AI imports no game family.
        line = line_fast_path(rules)
        self.fives_points = line.fives_points
        self.score_hand = line.score_hand
        self.nobody: int = line.NOBODY
        self.config: LineConfig | None = None
        self.layout: Layout | None = None
        self.scores: tuple[int, ...] = ()
        self.to_move = 0

    def begin(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        """The view's public facts (layout, scores, the config), from the first sampled deal:
        they are the same on every deal."""
        state = line_state(self.rules.state_from_view(self.base_view, hands, boneyard))
        self.config = state.config
        self.layout = state.layout
        self.scores = tuple(state.scores)
        self.to_move = state.to_move

    def values(self, legal: Sequence[Action], rng: random.Random, budget: int) -> list[float]:
        """Mean outcome of each action over the same sampled deals and random streams as
        `Search.values` draws (All Fives weighs no deal above another)."""
        samples = max(2, budget // len(legal))
        self.adapt(rng)
        rows: list[tuple[float, list[float]]] = []
        for _ in range(samples):
            hands, boneyard, weight = self.sample_hands(rng)
            rows.append((weight, self.row(hands, boneyard, legal, rng)))
        return weighted_means(rows, len(legal))

    def row(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile], legal: Sequence[Action],
            rng: random.Random) -> list[float]:
        """Every candidate played out on one sampled deal, all from the same random stream."""
        if self.config is None:
            self.begin(hands, boneyard)
        assert self.config is not None
        tiles = self.config.tiles
        masks = [tiles.mask(h) for h in hands]
        stock = [tiles.index(t) for t in boneyard]
        stream = rng.getrandbits(64)
        return [self.playout_value(masks, stock, action, random.Random(stream)) for action in legal]

    def playout_value(self, hands: list[int], boneyard: list[int], first: Action,
                      rng: random.Random) -> float:
        """The searching side's outcome of one playout of `first` on one sampled deal."""
        return self.outcome_of(self.play_out(hands, boneyard, first, rng))

    def outcome_of(self, after: list[int]) -> float:
        """`Search.scores_outcome`, with the match bonus."""
        value = self.scores_outcome(after)
        if self.match_bonus:
            assert self.config is not None
            target = self.config.target
            if after[self.side] >= target:
                value += self.match_bonus
            elif max(after) >= target:
                value -= self.match_bonus
        return value

    def play_out(self, hands: list[int], boneyard: list[int], first: Action, rng: random.Random) -> list[int]:
        """Play `first`, then the rest of the hand by the heaviest tile; the final scores.

        Each step follows `games.line.moves` (play, draw, pass and their ends of hand); the
        hand's end is scored by `score_hand` and the next hand is never dealt.
        """
        config = self.config
        layout = self.layout
        assert config is not None
        assert layout is not None
        tiles = config.tiles
        low, high, pips, grid = tiles.low, tiles.high, tiles.pips, tiles.grid
        plans = tiles.plans
        spinner = config.spinner
        players = config.players
        side = config.side
        target = config.target
        floor = config.draw_floor
        noise = self.plan.noise
        greed = self.points_weight
        scores = list(self.scores)
        hands = list(hands)
        drawn = 0
        stock = len(boneyard)
        seat = self.to_move
        move = first_move(grid, first)
        a, b = first["tile"] if first["type"] == "play" else (0, 0)
        for _ in range(PLAYOUT_CAP):
            index, end = move
            if index >= 0:
                if end == LEAD_END:
                    layout = lead_layout(a, b, spinner)
                else:
                    layout = place(layout, end, b if a == layout.ends[end] else a, a == b, spinner)
                hand = hands[seat] & ~(1 << index)
                hands[seat] = hand
                if config.fives:
                    points = self.fives_points(end_total(layout))
                    if points:
                        scored = side[seat]
                        scores[scored] += points
                        if scores[scored] >= target:
                            return scores
                if not hand:
                    return self._end_hand(hands, scores, seat)
                if stock - drawn <= floor:
                    fit = (plans.get(layout.ends) or tiles.plan(layout.ends))[0]
                    if not any(h & fit for h in hands):
                        return self._end_hand(hands, scores, self.nobody)
                seat = (seat + 1) % players
            elif index == DRAW[0]:
                hands[seat] |= 1 << boneyard[drawn]
                drawn += 1
                if stock - drawn <= floor:
                    fit = (plans.get(layout.ends) or tiles.plan(layout.ends))[0]
                    if not any(h & fit for h in hands):
                        return self._end_hand(hands, scores, self.nobody)
            else:
                fit = (plans.get(layout.ends) or tiles.plan(layout.ends))[0]
                seat = (seat + 1) % players
                if not any(h & fit for h in hands):
                    return self._end_hand(hands, scores, self.nobody)
            legal = self._legal(layout, hands[seat], stock - drawn > floor)
            if len(legal) == 1:
                move = legal[0]
            elif rng.random() < noise:
                move = rng.choice(legal)
            else:
                base = open_total(layout) if greed else 0
                move = legal[0]
                top = -1.0
                for option in legal:
                    i = option[0]
                    weight = pips[i] + (4.5 if low[i] == high[i] else 0.0) + rng.random()
                    if greed:
                        weight += greed * move_points(layout, base, i, option[1], tiles)
                    if weight > top:
                        top, move = weight, option
            if move[0] >= 0:
                a, b = low[move[0]], high[move[0]]
        return scores

    def _legal(self, layout: Layout, hand: int, may_draw: bool) -> list[Move]:
        """`games.line.moves.legal_actions` as moves, in the same order."""
        assert self.config is not None
        tiles = self.config.tiles
        ends = layout.ends
        out: list[Move] = []
        if ends[0] == CLOSED:
            while hand:
                bit = hand & -hand
                hand ^= bit
                out.append((bit.bit_length() - 1, LEAD_END))
            return out
        fit, per_end = tiles.plans.get(ends) or tiles.plan(ends)
        playable = hand & fit
        if playable:
            while playable:
                bit = playable & -playable
                playable ^= bit
                i = bit.bit_length() - 1
                for mask, name in per_end:
                    if mask & bit:
                        out.append((i, END_INDEX[name]))
            return out
        return [DRAW if may_draw else PASS]

    def _end_hand(self, hands: list[int], scores: list[int], out: int) -> list[int]:
        """`games.line.match.end_hand`'s scoring, without the summary or the next deal."""
        config = self.config
        assert config is not None
        pips = tuple(config.tiles.pip_count(h, config.double_blank) for h in hands)
        outcome = self.score_hand(config, pips, out)
        if outcome.winner != self.nobody and outcome.points:
            scores[outcome.winner] += outcome.points
        return scores


def evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
             budget: int, plan: Plan, weights: Weights | None = None) -> Scored:
    """`line_search.evaluate` with the All Fives search."""
    return line_search.evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan, weights=weights,
                              search=FivesSearch)
