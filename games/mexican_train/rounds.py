"""Dealing a round and scoring it: the engine set aside, the fair shuffle, pips to totals."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.core.tiles import Tile, full_set, pip_total
from games.mexican_train.state import Event, TrainState, decode_log, encode


def deal_round(state: TrainState, number: int) -> TrainState:
    """Round `number` dealt from its hand seed: the engine comes out before the shuffle.

    The seed is `hand_seed(master, number)`, so a match replays exactly from its master seed.
    """
    engine = state.top - number
    seed = hand_seed(state.master, number)
    tiles = tuple(t for t in full_set(state.top) if t != Tile(engine, engine))
    hands, boneyard = deal(shuffle(tiles, seed), state.players, state.hand_size)
    players = state.players
    return replace(
        state,
        round=number,
        seed=seed,
        commitment=commitment(seed),
        hands=hands,
        boneyard=boneyard,
        lines=((),) * (players + 1),
        line_ends=(engine,) * (players + 1),
        markers=(False,) * players,
        open_doubles=(),
        opened=(False,) * players,
        turn=number % players,
        played=0,
        owed=False,
        drawn=None,
        dealt=hands,
        log=(),
    )


def _summary(state: TrainState, blocked: bool, winner: int | None, points: tuple[int, ...]) -> Event:
    end: dict[str, Any] = {"type": "hand_end", "blocked": blocked, "winner": winner, "points": points}
    return encode(
        {
            "number": state.round,
            "engine": (state.engine, state.engine),
            "seed": state.seed.hex(),
            "commitment": state.commitment,
            "dealt": state.dealt,
            "hands_left": state.hands,
            "points": points,
            "winner": winner,
            "blocked": blocked,
            "log": [*decode_log(state.log), end],
        }
    )


def finish_round(state: TrainState, out: int | None) -> TrainState:
    """Score the round (`out`: the seat that went out, None when blocked), then deal the next.

    A blocked round is won by the one seat holding the fewest pips, if there is just one.
    """
    points = tuple(pip_total(hand, state.double_blank) for hand in state.hands)
    winner = out
    if out is None:
        low = min(points)
        winner = points.index(low) if points.count(low) == 1 else None
    totals = tuple(t + p for t, p in zip(state.totals, points))
    done = replace(
        state,
        totals=totals,
        revealed=(*state.revealed, state.seed.hex()),
        last_hand=_summary(state, out is None, winner, points),
    )
    if state.round + 1 >= state.rounds:
        return replace(done, turn=None, played=0, owed=False, drawn=None)
    return deal_round(done, state.round + 1)
