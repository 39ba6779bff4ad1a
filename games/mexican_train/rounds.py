"""Dealing a round and scoring it: the engine set aside, the fair shuffle, pips to totals."""

from __future__ import annotations

from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.core.penalty import close_hand
from games.core.tiles import Tile, full_set
from games.mexican_train.state import TrainState, evolve


def deal_round(state: TrainState, number: int) -> TrainState:
    """Round `number` dealt from its hand seed: the engine comes out before the shuffle.

    The seed is `hand_seed(master, number)`, so a match replays exactly from its master seed.
    """
    engine = state.top - number
    seed = hand_seed(state.master, number)
    tiles = tuple(t for t in full_set(state.top) if t != Tile(engine, engine))
    hands, boneyard = deal(shuffle(tiles, seed), state.players, state.hand_size)
    players = state.players
    return evolve(
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


def finish_round(state: TrainState, out: int | None) -> TrainState:
    """Score the round (`out`: the seat that went out, None when blocked), then deal the next."""
    done = evolve(state, **close_hand(state, state.round, ("engine", state.engine), out))
    if state.round + 1 >= state.rounds:
        return evolve(done, turn=None, played=0, owed=False, drawn=None)
    return deal_round(done, state.round + 1)
