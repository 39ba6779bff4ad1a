"""Perfect-information Monte Carlo: sample deals consistent with the view, play each out.

Every candidate action is tried on the same sampled deals with the same playout stream
(common random numbers), so the comparison between actions is not drowned in the luck of
the deal. The work is counted in playouts, never in wall-clock time, so a decision is a pure
function of the view and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai.kit import Kit
from games.ai.policy import View
from games.ai.sampling import sample_deal
from games.core.actions import Action
from games.core.protocol import Rules

PLAYOUT_CAP = 2000


def my_side(view: View) -> int:
    seat = view.get("seat")
    for side, seats in enumerate(view.get("teams") or ()):
        if seat in seats:
            return side
    raise ValueError(f"seat {seat!r} is on no side of this view")


def heaviest_tile(legal: list[Action], rng: random.Random, noise: float, double_bonus: float) -> Action:
    """The cheap playout policy of the layout games: the heaviest tile, doubles first, with noise.

    One move in `1/noise` is uniformly random, and ties break at random, so playouts spread.
    """
    if rng.random() < noise:
        return rng.choice(legal)
    best = legal[0]
    top = -1.0
    for action in legal:
        raw = action.get("tile")
        if raw is None:
            continue
        weight = raw[0] + raw[1] + (double_bonus if raw[0] == raw[1] else 0.0) + rng.random()
        if weight > top:
            top, best = weight, action
    return best


def determinize(rules: Rules[object], kit: Kit, view: View, rng: random.Random) -> object:
    """One full state equal to the view, hidden tiles placed by a consistent sample."""
    hands, boneyard = sample_deal(view, kit.hidden(view), kit.unseen(view), rng)
    return rules.state_from_view(view, hands, boneyard)


def playout(rules: Rules[object], kit: Kit, state: object, hand: int, rng: random.Random) -> object:
    """Play the rest of hand number `hand` with the kit's rollout policy."""
    for _ in range(PLAYOUT_CAP):
        if rules.to_move(state) is None or rules.hand_index(state) != hand:
            return state
        legal = rules.legal_actions(state)
        action = legal[0] if len(legal) == 1 else kit.rollout(rules, state, legal, rng)
        state = rules.advance(state, action)
    return state


def outcome(rules: Rules[object], before: Sequence[int], state: object, side: int, win_bonus: float) -> float:
    """How good the hand went for `side`: its gain over the others, plus a bonus for winning."""
    after = rules.scores(state)
    sign = -1 if rules.lower_score_wins else 1
    gains = [sign * (a - b) for a, b in zip(after, before)]
    mine = gains[side]
    others = [g for i, g in enumerate(gains) if i != side]
    if not others:
        return float(mine)
    best = max(others)
    bonus = win_bonus if mine > best else -win_bonus if mine < best else 0.0
    return mine - sum(others) / len(others) + bonus


def pimc_values(
    rules: Rules[object],
    kit: Kit,
    view: View,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    budget: int,
    win_bonus: float,
) -> list[float]:
    """Mean outcome of each legal action over `budget // len(legal)` sampled deals."""
    samples = max(2, budget // len(legal))
    side = my_side(view)
    before = list(view.get("scores") or ())
    hand = int(view.get("hand_number") or 0)
    totals = [0.0] * len(legal)
    for _ in range(samples):
        state = determinize(rules, kit, view, rng)
        stream = rng.getrandbits(64)
        for i, action in enumerate(legal):
            after = rules.advance(state, action)
            end = playout(rules, kit, after, hand, random.Random(stream))
            totals[i] += outcome(rules, before, end, side, win_bonus)
    return [t / samples for t in totals]
