"""What a seat sees of a Chicken Foot position, and the state a view describes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.chicken_foot.layout import ARMS, branch_id, branch_of, open_branches
from games.chicken_foot.options import GAME
from games.chicken_foot.state import FootState
from games.chicken_foot.turns import legal_actions
from games.core.penalty_rules import common_fields, common_view
from games.core.records import tiles_from_json
from games.core.tiles import Tile, tiles_json


def _ends(state: FootState) -> list[dict[str, Any]]:
    if not state.led:
        return []
    playable = set(open_branches(state))
    arms = state.arms
    pending = set(state.pending)
    return [
        {
            "id": branch_id(i, arms),
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
    arms = state.arms
    return {
        "lead": [state.lead, state.lead] if state.led else None,
        "branches": [
            {
                "id": branch_id(i, arms),
                "from": None if parent < 0 else branch_id(parent, arms),
                "tiles": tiles_json(tiles),
                "open_end": state.branch_ends[i],
                "closed": state.closed[i],
            }
            for i, (tiles, parent) in enumerate(zip(state.branch_tiles, state.branch_parent))
        ],
        "pending": [branch_id(i, arms) for i in state.pending],
    }


def build_view(state: FootState, seat: int | None, result: dict[str, Any] | None) -> dict[str, Any]:
    """The view of docs/engine.md, "Views", with the Chicken Foot keys of docs/rules-chicken-foot.md."""
    view = common_view(
        state, seat, game=GAME, hand_number=state.hand, legal_actions=legal_actions, result=result
    )
    view.update(
        {
            "ends": _ends(state),
            # The number only: the double itself is in the leader's hand until it is led.
            "lead": state.lead,
            "leader": state.leader,
            "led": state.led,
            "layout": _layout(state),
            "round": state.hand,
            "rounds": state.top + 1,
            "turn_phase": None
            if state.turn is None
            else {"seat": state.turn, "drawn": state.drawn is not None},
        }
    )
    return view


def state_from_view(
    view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> FootState:
    """The position a view shows, with the hidden tiles placed as given (see `common_fields`)."""
    options = view["options"]
    arms = int(options.get("opening_arms", ARMS))
    branches = view["layout"]["branches"]
    parents = []
    for b in branches:
        parent = branch_of(b["from"], arms) if b["from"] is not None else -1
        parents.append(-1 if parent is None else parent)
    pending = (branch_of(p, arms) for p in view["layout"]["pending"])
    return FootState(
        **common_fields(view, hands, boneyard),
        top=int(options["set"]),
        hand_size=int(options["hand_size"]),
        double_blank=int(options["double_blank"]),
        arms=arms,
        hand=int(view["hand_number"]),
        leader=int(view["leader"]),
        led=bool(view["led"]),
        branch_tiles=tuple(tiles_from_json(b["tiles"]) for b in branches),
        branch_ends=tuple(int(b["open_end"]) for b in branches),
        branch_parent=tuple(parents),
        closed=tuple(bool(b["closed"]) for b in branches),
        pending=tuple(p for p in pending if p is not None),
    )
