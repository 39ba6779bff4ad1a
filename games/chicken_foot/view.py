"""What a seat sees of a Chicken Foot position, and the state a view describes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.chicken_foot.layout import branch_id, branch_of, open_branches
from games.chicken_foot.options import GAME
from games.chicken_foot.state import FootState, decode, decode_log, encode
from games.chicken_foot.turns import legal_actions
from games.core.fairness import SEED_BYTES
from games.core.tiles import Tile, make_tile, tiles_json


def _ends(state: FootState) -> list[dict[str, Any]]:
    if not state.led:
        return []
    playable = set(open_branches(state))
    pending = set(state.pending)
    return [
        {
            "id": branch_id(i),
            "value": state.branch_ends[i],
            # An empty arm or toe sits against its double, which lies crosswise.
            "double": not tiles or tiles[-1].is_double,
            "pending": i in pending,
            "playable": i in playable,
        }
        for i, tiles in enumerate(state.branch_tiles)
        if not state.closed[i]
    ]


def _layout(state: FootState) -> dict[str, Any]:
    return {
        "lead": [state.lead, state.lead] if state.led else None,
        "branches": [
            {
                "id": branch_id(i),
                "from": None if parent < 0 else branch_id(parent),
                "tiles": tiles_json(tiles),
                "open_end": state.branch_ends[i],
                "closed": state.closed[i],
            }
            for i, (tiles, parent) in enumerate(zip(state.branch_tiles, state.branch_parent))
        ],
        "pending": [branch_id(i) for i in state.pending],
    }


def build_view(state: FootState, seat: int | None, result: dict[str, Any] | None) -> dict[str, Any]:
    """The view of SPEC §3 with the Chicken Foot keys of docs/rules-chicken-foot.md."""
    players = state.players
    over = state.turn is None
    view: dict[str, Any] = {"game": GAME, "players": players, "seat": seat, "options": state.options}
    if seat is not None:
        view["hand"] = tiles_json(state.hands[seat])
    view.update(
        {
            "hand_sizes": [len(h) for h in state.hands],
            "boneyard": len(state.boneyard),
            "to_move": state.turn,
            "legal": legal_actions(state) if seat is not None and seat == state.turn else [],
            "log": decode_log(state.log),
            "scores": list(state.totals),
            "teams": [[s] for s in range(players)],
            "hand_number": state.hand,
            "commitment": state.commitment,
            "revealed": list(state.revealed),
            "last_hand": decode(state.last_hand),
            "match_over": over,
            "result": result,
            "ends": _ends(state),
            # The number only: the double itself is in the leader's hand until it is led.
            "lead": state.lead,
            "leader": state.leader,
            "led": state.led,
            "layout": _layout(state),
            "round": state.hand,
            "rounds": state.top + 1,
            "turn_phase": None if over else {"seat": state.turn, "drawn": state.drawn is not None},
        }
    )
    return view


def _tiles(raw: Sequence[Any]) -> tuple[Tile, ...]:
    return tuple(make_tile(int(t[0]), int(t[1])) for t in raw)


def state_from_view(
    view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> FootState:
    """The position a view shows, with the hidden tiles placed as given.

    The seat to move's drawn tile, when it has drawn, is the last tile of its hand. Seeds stay
    secret, so later hands of the rebuilt state come from a placeholder master: it is exact
    up to the end of the current hand.
    """
    options = view["options"]
    branches = view["layout"]["branches"]
    turn = view["to_move"]
    phase = view["turn_phase"] or {}
    held = tuple(tuple(make_tile(t[0], t[1]) for t in h) for h in hands)
    parents = []
    for b in branches:
        parent = branch_of(b["from"]) if b["from"] is not None else -1
        parents.append(-1 if parent is None else parent)
    pending = (branch_of(p) for p in view["layout"]["pending"])
    return FootState(
        players=int(view["players"]),
        top=int(options["set"]),
        hand_size=int(options["hand_size"]),
        double_blank=int(options["double_blank"]),
        master=bytes(SEED_BYTES),
        hand=int(view["hand_number"]),
        seed=bytes(SEED_BYTES),
        commitment=str(view["commitment"]),
        hands=held,
        boneyard=tuple(make_tile(t[0], t[1]) for t in boneyard),
        leader=int(view["leader"]),
        led=bool(view["led"]),
        branch_tiles=tuple(_tiles(b["tiles"]) for b in branches),
        branch_ends=tuple(int(b["open_end"]) for b in branches),
        branch_parent=tuple(parents),
        closed=tuple(bool(b["closed"]) for b in branches),
        pending=tuple(p for p in pending if p is not None),
        turn=turn,
        drawn=held[turn][-1] if turn is not None and phase.get("drawn") else None,
        totals=tuple(int(s) for s in view["scores"]),
        dealt=held,
        log=tuple(encode(e) for e in view["log"]),
        revealed=tuple(view["revealed"]),
        last_hand=None if view["last_hand"] is None else encode(view["last_hand"]),
    )
