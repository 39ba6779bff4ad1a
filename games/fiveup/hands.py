"""Dealing a hand from its seed, who leads it, and ending it (and the match).

The order of the tiles and the lot for the lead come only from the hand's seed through
games.core.fairness (docs/engine.md, "Fair shuffle"), so every deal and every lot can be
checked by the players once the seed is revealed. A hand that ends is scored and summarised,
and the next one is dealt inside the same step, unless a side has reached the target.
"""

from __future__ import annotations

from games.core.fairness import commitment, hand_seed, shuffle
from games.fiveup.layout import EMPTY
from games.fiveup.options import HAND_SIZE, FiveUpConfig
from games.fiveup.scoring import score_hand
from games.fiveup.state import (
    HAND_END,
    NOBODY,
    OVER,
    TILES,
    Deal,
    FiveUpState,
    HandSummary,
    new_state,
    pip_count,
)

_INDICES = tuple(range(len(TILES)))
_ZEROS = tuple((0,) * n for n in range(5))


def lot(seed: bytes, players: int) -> int:
    """The seat that leads by lot: the first of the seats shuffled with the hand's seed
    extended by ":lot" (`fairness.shuffle` of `[0, ..., players - 1]`), a stream apart from
    the tiles' own, so the lot says nothing about who holds what."""
    return shuffle(tuple(range(players)), seed + b":lot")[0]


def start_hand(config: FiveUpConfig, master: bytes, number: int, *, scores: tuple[int, ...],
               revealed: tuple[str, ...], last_hand: HandSummary | None, leader: int) -> FiveUpState:
    """Hand `number` dealt from the master seed: seat `k` takes the `k`-th block of five, the
    rest is the boneyard in draw order. `leader` leads with any tile; `NOBODY`: by lot."""
    seed = hand_seed(master, number)
    order = shuffle(_INDICES, seed)
    players = config.players
    dealt = tuple(order[k * HAND_SIZE:(k + 1) * HAND_SIZE] for k in range(players))
    hands = tuple(sum(1 << i for i in d) for d in dealt)
    boneyard = order[players * HAND_SIZE:]
    seat = leader if leader != NOBODY else lot(seed, players)
    deal = Deal(config, master, seed, commitment(seed), number, dealt, revealed, last_hand)
    return new_state(deal, hands, boneyard, EMPTY, seat, scores, _ZEROS[len(scores)], None, ())


def end_hand(state: FiveUpState, out: int) -> FiveUpState:
    """Score the hand in `state` (seat `out` dominoed, or `NOBODY`: blocked), then deal the
    next one, or end the match when a side has reached the target. Points left unclaimed by
    the play that ended the hand are lost."""
    deal = state.deal
    config = deal.config
    hands = state.hands
    outcome = score_hand(config, tuple(pip_count(h) for h in hands), out)
    points = outcome.points
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    blocked = out == NOBODY
    log = ((HAND_END, outcome.winner, blocked, points), state.log)
    summary = HandSummary(deal.hand_number, deal.seed, deal.commitment, deal.dealt, hands, points,
                          state.fives, outcome.winner, blocked, False, log)
    revealed = (*deal.revealed, deal.seed.hex())
    if max(scores) >= config.target:
        over = deal._replace(revealed=revealed, last_hand=summary)
        return state._replace(deal=over, to_move=OVER, scores=scores, unclaimed=None, log=log)
    return start_hand(config, deal.master, deal.hand_number + 1, scores=scores, revealed=revealed,
                      last_hand=summary, leader=outcome.leader)


def stop_at_target(state: FiveUpState, side: int) -> FiveUpState:
    """`side` reached the target during the hand: the match ends there (cribbage style)."""
    deal = state.deal
    points = _ZEROS[len(state.scores)]
    log = ((HAND_END, side, False, points), state.log)
    summary = HandSummary(deal.hand_number, deal.seed, deal.commitment, deal.dealt, state.hands,
                          points, state.fives, side, False, True, log)
    over = deal._replace(revealed=(*deal.revealed, deal.seed.hex()), last_hand=summary)
    return state._replace(deal=over, to_move=OVER, unclaimed=None, log=log)
