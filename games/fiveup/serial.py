"""`dump`, `load` and `state_from_view`: a state to JSON and back, and a state from a view.

The table is never written: it is replayed from the plays of the log, so a loaded state and
a state rebuilt from a view agree with the original by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.tiles import Tile
from games.fiveup.events import event_from_json, log_json, replay_table
from games.fiveup.options import FiveUpConfig
from games.fiveup.state import (
    GRID,
    MUGGINS,
    NOBODY,
    OVER,
    PLAY,
    SCORE,
    Deal,
    Event,
    FiveUpState,
    HandSummary,
    events,
    log_of,
)
from games.fiveup.view import mask_json, summary_json, tiles_json

MASTER_UNKNOWN = bytes(32)


def dump(state: FiveUpState) -> dict[str, Any]:
    deal = state.deal
    config = deal.config
    return {
        "game": config.game,
        "players": config.players,
        "options": config.options(),
        "master": deal.master.hex(),
        "seed": deal.seed.hex(),
        "commitment": deal.commitment,
        "hand_number": deal.hand_number,
        "hands": [mask_json(h) for h in state.hands],
        "boneyard": tiles_json(state.boneyard),
        "to_move": None if state.to_move == OVER else state.to_move,
        "scores": list(state.scores),
        "fives": list(state.fives),
        "unclaimed": None if state.unclaimed is None else list(state.unclaimed),
        "log": log_json(events(state.log)),
        "dealt": [tiles_json(d) for d in deal.dealt],
        "revealed": list(deal.revealed),
        "last_hand": None if deal.last_hand is None else summary_json(deal.last_hand),
    }


def _index(raw: Any) -> int:
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise ValueError(f"not a tile: {raw!r}")
    a, b = int(raw[0]), int(raw[1])
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"[{a}, {b}] is not a tile of the double-six set")
    return GRID[a][b]


def _indices(raw: Sequence[Any]) -> tuple[int, ...]:
    return tuple(_index(t) for t in raw)


def _mask(raw: Sequence[Any]) -> int:
    mask = 0
    for i in _indices(raw):
        mask |= 1 << i
    return mask


def _log(raw: Sequence[Mapping[str, Any]]) -> tuple[Event, ...]:
    return tuple(event_from_json(e) for e in raw)


def summary_from_json(data: Mapping[str, Any]) -> HandSummary:
    winner = data["winner"]
    return HandSummary(
        number=int(data["number"]),
        seed=bytes.fromhex(data["seed"]),
        commitment=str(data["commitment"]),
        dealt=tuple(_indices(d) for d in data["dealt"]),
        hands_left=tuple(_mask(h) for h in data["hands_left"]),
        points=tuple(int(p) for p in data["points"]),
        fives=tuple(int(p) for p in data["fives"]),
        winner=NOBODY if winner is None else int(winner),
        blocked=bool(data["blocked"]),
        stopped=bool(data["stopped"]),
        log=log_of(_log(data["log"])),
    )


def _unclaimed(raw: Any) -> tuple[int, int] | None:
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return int(raw["seat"]), int(raw["points"])
    return int(raw[0]), int(raw[1])


def load(config: FiveUpConfig, data: Mapping[str, Any]) -> FiveUpState:
    try:
        history = _log(data["log"])
        to_move = data["to_move"]
        last = data["last_hand"]
        deal = Deal(
            config=config,
            master=bytes.fromhex(data["master"]),
            seed=bytes.fromhex(data["seed"]),
            commitment=str(data["commitment"]),
            hand_number=int(data["hand_number"]),
            dealt=tuple(_indices(d) for d in data["dealt"]),
            revealed=tuple(str(s) for s in data["revealed"]),
            last_hand=None if last is None else summary_from_json(last),
        )
        return FiveUpState(
            deal=deal,
            hands=tuple(_mask(h) for h in data["hands"]),
            boneyard=_indices(data["boneyard"]),
            table=replay_table(history),
            to_move=OVER if to_move is None else int(to_move),
            scores=tuple(int(s) for s in data["scores"]),
            fives=tuple(int(s) for s in data["fives"]),
            unclaimed=_unclaimed(data["unclaimed"]),
            log=log_of(history),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a Five-Up state: {exc!r}") from exc


def from_view(config: FiveUpConfig, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]],
              boneyard: Sequence[Tile]) -> FiveUpState:
    """The determinization: the view's public facts with the hidden tiles placed as given.

    The seeds are not in a view, so the state carries an all-zero master and an empty seed:
    its current hand plays exactly like the real one, later deals are its own. `dealt` is
    rebuilt as each seat's tiles in hand plus the tiles it has played.
    """
    if len(hands) != config.players:
        raise ValueError(f"state_from_view needs {config.players} hands, not {len(hands)}")
    masks = tuple(_mask(h) for h in hands)
    seat = view.get("seat")
    if seat is not None and masks[seat] != _mask(view["hand"]):
        raise ValueError(f"hands[{seat}] is not the viewer's hand")
    if [m.bit_count() for m in masks] != list(view["hand_sizes"]):
        raise ValueError("the hands given do not have the sizes the view shows")
    if len(boneyard) != view["boneyard"]:
        raise ValueError("the boneyard given does not have the size the view shows")
    history = _log(view["log"])
    played = [0] * config.players
    for e in history:
        if e[0] == PLAY:
            played[e[1]] |= 1 << e[2]
    stock = _indices(boneyard)
    union = 0
    for m in (*masks, *played, *(1 << i for i in stock)):
        if union & m:
            raise ValueError("a tile is placed twice")
        union |= m
    fives = [0] * len(config.teams)
    for e in history:
        if e[0] == SCORE:
            fives[e[2]] += e[3]
        elif e[0] == MUGGINS:
            fives[config.side[e[1]]] += e[3]
    last = view["last_hand"]
    to_move = view["to_move"]
    deal = Deal(
        config=config, master=MASTER_UNKNOWN, seed=b"", commitment=str(view["commitment"]),
        hand_number=int(view["hand_number"]),
        dealt=tuple(tuple(i for i in range(28) if (masks[k] | played[k]) >> i & 1)
                    for k in range(config.players)),
        revealed=tuple(str(s) for s in view["revealed"]),
        last_hand=None if last is None else summary_from_json(last),
    )
    return FiveUpState(
        deal=deal, hands=masks, boneyard=stock, table=replay_table(history),
        to_move=OVER if to_move is None else int(to_move),
        scores=tuple(int(s) for s in view["scores"]), fives=tuple(fives),
        unclaimed=_unclaimed(view.get("unclaimed")), log=log_of(history),
    )
