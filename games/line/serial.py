"""`dump`, `load` and `state_from_view`: a state to JSON and back, and a state from a view.

The layout is never written: it is replayed from the plays of the log, so a loaded state and a
state rebuilt from a view agree with the original by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.tiles import Tile
from games.line.config import LineConfig
from games.line.dealing import opening
from games.line.events import event_from_json, log_json, replay_layout
from games.line.state import (
    ANY_TILE,
    NOBODY,
    OVER,
    PLAY,
    SCORE,
    Deal,
    Event,
    HandSummary,
    LineState,
    events,
    log_of,
)
from games.line.tables import TileTable, table
from games.line.views import mask_json, summary_json, tiles_json

MASTER_UNKNOWN = bytes(32)


def dump(state: LineState) -> dict[str, Any]:
    config = state.config
    tiles = table(config.top)
    return {
        "game": config.game,
        "players": config.players,
        "options": config.options(),
        "master": state.master.hex(),
        "seed": state.seed.hex(),
        "commitment": state.commitment,
        "hand_number": state.hand_number,
        "hands": [mask_json(config, h) for h in state.hands],
        "boneyard": tiles_json(config, state.boneyard),
        "lead": None if state.lead == ANY_TILE else tiles.tiles[state.lead].as_list(),
        "to_move": None if state.to_move == OVER else state.to_move,
        "scores": list(state.scores),
        "fives": list(state.fives),
        "log": log_json(tiles, events(state.log)),
        "dealt": [tiles_json(config, d) for d in state.dealt],
        "revealed": list(state.revealed),
        "last_hand": None if state.last_hand is None else summary_json(config, state.last_hand),
    }


def _indices(tiles: TileTable, raw: Sequence[Any]) -> tuple[int, ...]:
    return tuple(tiles.index_of(item) for item in raw)


def _mask(tiles: TileTable, raw: Sequence[Any]) -> int:
    mask = 0
    for i in _indices(tiles, raw):
        mask |= 1 << i
    return mask


def _log(tiles: TileTable, raw: Sequence[Mapping[str, Any]]) -> tuple[Event, ...]:
    return tuple(event_from_json(tiles, e) for e in raw)


def summary_from_json(tiles: TileTable, data: Mapping[str, Any]) -> HandSummary:
    winner = data["winner"]
    return HandSummary(
        number=int(data["number"]),
        seed=bytes.fromhex(data["seed"]),
        commitment=str(data["commitment"]),
        dealt=tuple(_indices(tiles, d) for d in data["dealt"]),
        hands_left=tuple(_mask(tiles, h) for h in data["hands_left"]),
        points=tuple(int(p) for p in data["points"]),
        fives=tuple(int(p) for p in data["fives"]),
        winner=NOBODY if winner is None else int(winner),
        blocked=bool(data["blocked"]),
        stopped=bool(data["stopped"]),
        log=log_of(_log(tiles, data["log"])),
    )


def load(config: LineConfig, data: Mapping[str, Any]) -> LineState:
    tiles = table(config.top)
    log = _log(tiles, data["log"])
    to_move = data["to_move"]
    lead = data["lead"]
    last = data["last_hand"]
    deal = Deal(
        config=config,
        master=bytes.fromhex(data["master"]),
        seed=bytes.fromhex(data["seed"]),
        commitment=str(data["commitment"]),
        hand_number=int(data["hand_number"]),
        dealt=tuple(_indices(tiles, d) for d in data["dealt"]),
        lead=ANY_TILE if lead is None else tiles.index_of(lead),
        revealed=tuple(str(s) for s in data["revealed"]),
        last_hand=None if last is None else summary_from_json(tiles, last),
    )
    return LineState(
        deal=deal,
        hands=tuple(_mask(tiles, h) for h in data["hands"]),
        boneyard=_indices(tiles, data["boneyard"]),
        layout=replay_layout(config, log),
        to_move=OVER if to_move is None else int(to_move),
        scores=tuple(int(s) for s in data["scores"]),
        fives=tuple(int(s) for s in data["fives"]),
        log=log_of(log),
    )


def from_view(config: LineConfig, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]],
              boneyard: Sequence[Tile]) -> LineState:
    """The determinization: the view's public facts with the hidden tiles placed as given.

    The seeds are not in a view, so the state carries an all-zero master and an empty seed:
    its current hand plays exactly like the real one, later deals are its own. `dealt` is
    rebuilt as each seat's tiles in hand plus the tiles it has played.
    """
    tiles = table(config.top)
    if len(hands) != config.players:
        raise ValueError(f"state_from_view needs {config.players} hands, not {len(hands)}")
    masks = tuple(_mask(tiles, h) for h in hands)
    seat = view.get("seat")
    if seat is not None and masks[seat] != _mask(tiles, view["hand"]):
        raise ValueError(f"hands[{seat}] is not the viewer's hand")
    if [m.bit_count() for m in masks] != list(view["hand_sizes"]):
        raise ValueError("the hands given do not have the sizes the view shows")
    if len(boneyard) != view["boneyard"]:
        raise ValueError("the boneyard given does not have the size the view shows")
    log = _log(tiles, view["log"])
    plays = [e for e in log if e[0] == PLAY]
    played = [0] * config.players
    for e in plays:
        played[e[1]] |= 1 << e[2]
    stock = _indices(tiles, boneyard)
    union = 0
    for m in (*masks, *played, *(1 << i for i in stock)):
        if union & m:
            raise ValueError("a tile is placed twice")
        union |= m
    last = view["last_hand"]
    summary = None if last is None else summary_from_json(tiles, last)
    fives = [0] * len(config.teams)
    for e in log:
        if e[0] == SCORE:
            fives[e[2]] += e[3]
    winner_leads = config.next_lead == "winner" and summary is not None and summary.winner != NOBODY
    if winner_leads:
        lead = ANY_TILE
    elif plays:
        lead = plays[0][2]
    elif view["to_move"] is not None:
        # The seat to move holds the hand's lead, whatever the sample put in the other hands.
        lead = opening(tiles, (masks[int(view["to_move"])],), -1)[1]
    else:
        lead = opening(tiles, masks, -1)[1]
    to_move = view["to_move"]
    deal = Deal(
        config=config, master=MASTER_UNKNOWN, seed=b"", commitment=str(view["commitment"]),
        hand_number=int(view["hand_number"]),
        dealt=tuple(tuple(sorted(tiles.index(t) for t in tiles.tiles_of(masks[k] | played[k])))
                    for k in range(config.players)),
        lead=lead, revealed=tuple(str(s) for s in view["revealed"]), last_hand=summary,
    )
    return LineState(
        deal=deal, hands=masks, boneyard=stock, layout=replay_layout(config, log),
        to_move=OVER if to_move is None else int(to_move),
        scores=tuple(int(s) for s in view["scores"]), fives=tuple(fives), log=log_of(log),
    )
