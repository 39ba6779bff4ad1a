"""Dealing a hand, finding the lead double, and scoring the hand."""

from __future__ import annotations

from games.chicken_foot.events import lead_draw_event
from games.chicken_foot.state import FootState, evolve
from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.core.penalty import close_hand
from games.core.tiles import Tile, full_set


def _holder(hands: tuple[tuple[Tile, ...], ...], double: Tile) -> int | None:
    return next((s for s, h in enumerate(hands) if double in h), None)


def deal_hand(state: FootState, number: int) -> FootState:
    """Hand `number` dealt from its hand seed, with draws until its lead double is held.

    Nothing is set aside: the whole set is shuffled (docs/engine.md, "Fair shuffle") and
    dealt. If the double that leads this hand is in the yard, every seat in seat order takes
    one tile, pass after pass, until a pass ends with the double in a hand; the draws are
    logged. Nobody has a choice, so this happens here rather than as actions.
    """
    seed = hand_seed(state.master, number)
    double = Tile(state.top - number, state.top - number)
    hands, yard = deal(shuffle(full_set(state.top), seed), state.players, state.hand_size)
    held = [list(h) for h in hands]
    log: list[str] = []
    while _holder(tuple(map(tuple, held)), double) is None and yard:
        for seat in range(state.players):
            if not yard:
                break
            held[seat].append(yard[0])
            yard = yard[1:]
            log.append(lead_draw_event(seat))
    final = tuple(tuple(h) for h in held)
    leader = _holder(final, double)
    assert leader is not None, "the lead double is always dealt or drawn"
    return evolve(
        state,
        hand=number,
        seed=seed,
        commitment=commitment(seed),
        hands=final,
        boneyard=yard,
        leader=leader,
        led=False,
        branch_tiles=(),
        branch_ends=(),
        branch_parent=(),
        closed=(),
        pending=(),
        turn=leader,
        drawn=None,
        dealt=hands,
        log=tuple(log),
    )


def finish_hand(state: FootState, out: int | None) -> FootState:
    """Score the hand (`out`: the seat that went out, None when blocked), then deal the next."""
    done = evolve(state, **close_hand(state, state.hand, ("lead", state.lead), out))
    if state.hand >= state.top:
        return evolve(done, turn=None, drawn=None)
    return deal_hand(done, state.hand + 1)
