"""Starting hands, ending them, and ending the match.

A hand that ends is scored and summarised, and the next one is dealt inside the same step,
unless a side has reached the target: then the match is over and the seed is revealed.
"""

from __future__ import annotations

from dataclasses import replace

from games.core.layout import EMPTY
from games.line.config import LineConfig
from games.line.dealing import deal_hand, opening
from games.line.scoring import score_hand
from games.line.state import HAND_END, NOBODY, OVER, HandSummary, LineState, events, new_deal, new_state


def start_hand(config: LineConfig, master: bytes, number: int, *, scores: tuple[int, ...],
               revealed: tuple[str, ...], last_hand: HandSummary | None, leader: int) -> LineState:
    """Hand `number` dealt from the master seed; `leader` leads with any tile when >= 0."""
    seed, commit, dealt, boneyard = deal_hand(config, master, number)
    hands = tuple(tiles_mask(d) for d in dealt)
    seat, lead = opening(config.tiles, hands, leader)
    deal = new_deal(config, master, seed, commit, number, dealt, lead, revealed, last_hand)
    return new_state(deal, hands, boneyard, EMPTY, seat, scores, (0,) * len(scores), ())


def tiles_mask(indices: tuple[int, ...]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def next_leader(config: LineConfig, winner_seat: int) -> int:
    """Who leads the next hand with any tile, or -1 for the highest-double rule."""
    if config.next_lead == "winner" and winner_seat != NOBODY:
        return winner_seat
    return -1


def end_hand(state: LineState, out: int) -> LineState:
    """Score the hand in `state` (seat `out` went out, or `NOBODY`: blocked), deal the next one."""
    config = state.config
    tiles = config.tiles
    pips = tuple(tiles.pip_count(h, config.double_blank) for h in state.hands)
    outcome = score_hand(config, pips, out)
    points = [0] * len(state.scores)
    scores = list(state.scores)
    if outcome.winner != NOBODY and outcome.points:
        points[outcome.winner] = outcome.points
        scores[outcome.winner] += outcome.points
    blocked = out == NOBODY
    closing = (HAND_END, outcome.winner, blocked, tuple(points))
    log = (closing, state.log)
    summary = HandSummary(
        number=state.hand_number, seed=state.seed, commitment=state.commitment, dealt=state.dealt,
        hands_left=state.hands, points=tuple(points), fives=state.fives, winner=outcome.winner,
        blocked=blocked, stopped=False, log=(*events(state.log), closing),
    )
    final = tuple(scores)
    revealed = (*state.revealed, state.seed.hex())
    if max(final) >= config.target:
        deal = replace(state.deal, revealed=revealed, last_hand=summary)
        return replace(state, deal=deal, to_move=OVER, scores=final, log=log)
    return start_hand(config, state.master, state.hand_number + 1, scores=final, revealed=revealed,
                      last_hand=summary, leader=next_leader(config, outcome.leader))


def stop_at_target(state: LineState, side: int) -> LineState:
    """All Fives: `side` reached the target on the ends, so the match ends in mid-hand."""
    points = (0,) * len(state.scores)
    closing = (HAND_END, side, False, points)
    log = (closing, state.log)
    summary = HandSummary(
        number=state.hand_number, seed=state.seed, commitment=state.commitment, dealt=state.dealt,
        hands_left=state.hands, points=points, fives=state.fives, winner=side, blocked=False,
        stopped=True, log=(*events(state.log), closing),
    )
    deal = replace(state.deal, revealed=(*state.revealed, state.seed.hex()), last_hand=summary)
    return replace(state, deal=deal, to_move=OVER, log=log)
