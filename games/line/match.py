"""Starting hands, ending them, and ending the match.

A hand that ends is scored and summarised, and the next one is dealt inside the same step,
unless a side has reached the target: then the match is over and the seed is revealed.
"""

from __future__ import annotations

from games.core.layout import EMPTY
from games.line.config import LineConfig
from games.line.dealing import deal_hand, opening
from games.line.scoring import score_hand
from games.line.state import HAND_END, NOBODY, OVER, HandSummary, LineState, new_deal, new_state


def start_hand(config: LineConfig, master: bytes, number: int, *, scores: tuple[int, ...],
               revealed: tuple[str, ...], last_hand: HandSummary | None, leader: int) -> LineState:
    """Hand `number` dealt from the master seed; `leader` leads with any tile when >= 0."""
    return _start(config, master, number, scores, revealed, last_hand, leader)


def _start(config: LineConfig, master: bytes, number: int, scores: tuple[int, ...],  # noqa: PLR0917
           revealed: tuple[str, ...], last_hand: HandSummary | None, leader: int) -> LineState:
    seed, commit, dealt, boneyard = deal_hand(config, master, number)
    bit = _BIT.__getitem__
    hands = tuple([sum(map(bit, d)) for d in dealt])
    seat, lead = opening(config.tiles, hands, leader)
    deal = new_deal(config, master, seed, commit, number, dealt, lead, revealed, last_hand)
    return new_state(deal, hands, boneyard, EMPTY, seat, scores, _ZEROS[len(scores)], ())


def tiles_mask(indices: tuple[int, ...]) -> int:
    return sum(map(_BIT.__getitem__, indices))


_BIT = tuple(1 << i for i in range(256))
_ZEROS = tuple((0,) * n for n in range(17))


def next_leader(config: LineConfig, winner_seat: int) -> int:
    """Who leads the next hand with any tile, or -1 for the highest-double rule."""
    if config.next_lead == "winner" and winner_seat != NOBODY:
        return winner_seat
    return -1


def end_hand(state: LineState, out: int) -> LineState:
    """Score the hand in `state` (seat `out` went out, or `NOBODY`: blocked), deal the next one."""
    deal, hands, _, _, _, scores, fives, log = state
    config = deal.config
    count = config.tiles.pip_count
    blank = config.double_blank
    outcome = score_hand(config, tuple([count(h, blank) for h in hands]), out)
    winner = outcome.winner
    blocked = out == NOBODY
    if winner != NOBODY and outcome.points:
        gained = outcome.points
        points = _ZEROS[len(scores)][:winner] + (gained,) + _ZEROS[len(scores)][winner + 1:]  # noqa: RUF005
        final = scores[:winner] + (scores[winner] + gained,) + scores[winner + 1:]  # noqa: RUF005
    else:
        points = _ZEROS[len(scores)]
        final = scores
    log = ((HAND_END, winner, blocked, points), log)
    summary = HandSummary(deal.hand_number, deal.seed, deal.commitment, deal.dealt, hands, points, fives,
                          winner, blocked, False, log)
    revealed = (*deal.revealed, deal.seed.hex())
    if max(final) >= config.target:
        over = deal._replace(revealed=revealed, last_hand=summary)
        return state._replace(deal=over, to_move=OVER, scores=final, log=log)
    return _start(config, deal.master, deal.hand_number + 1, final, revealed, summary,
                  next_leader(config, outcome.leader))


def stop_at_target(state: LineState, side: int) -> LineState:
    """All Fives: `side` reached the target on the ends, so the match ends in mid-hand."""
    points = (0,) * len(state.scores)
    closing = (HAND_END, side, False, points)
    log = (closing, state.log)
    deal = state.deal
    summary = HandSummary(deal.hand_number, deal.seed, deal.commitment, deal.dealt, state.hands,
                          points, state.fives, side, False, True, log)
    over = deal._replace(revealed=(*deal.revealed, deal.seed.hex()), last_hand=summary)
    return state._replace(deal=over, to_move=OVER, log=log)
