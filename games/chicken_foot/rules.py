"""Chicken Foot on the engine protocol: the `chicken_foot` entry of the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.chicken_foot import options as opts
from games.chicken_foot.hands import deal_hand
from games.chicken_foot.layout import branch_id, branch_of, open_branches
from games.chicken_foot.state import FootState, dump_state, load_state
from games.chicken_foot.turns import advance, legal_actions, settle
from games.chicken_foot.view import build_view, state_from_view
from games.core.actions import Action
from games.core.fairness import master_seed
from games.core.penalty_rules import PenaltyRules
from games.core.tiles import make_tile


class ChickenFootRules(PenaltyRules[FootState]):
    """Chicken Foot as the rules documents give it (pagat); the double-blank's price and the
    opening double's arms are options."""

    name = opts.GAME
    min_players = opts.MIN_PLAYERS
    max_players = opts.MAX_PLAYERS
    option_schema = opts.SCHEMA

    def new_match(
        self, players: int, options: Mapping[str, Any] | None = None, seed: bytes | None = None
    ) -> FootState:
        count, resolved = opts.resolve(players, options)
        blank = FootState(
            players=count,
            top=resolved["set"],
            hand_size=resolved["hand_size"],
            double_blank=resolved["double_blank"],
            arms=resolved["opening_arms"],
            master=master_seed(seed),
            hand=0,
            seed=b"",
            commitment="",
            hands=(),
            boneyard=(),
            leader=0,
            led=False,
            branch_tiles=(),
            branch_ends=(),
            branch_parent=(),
            closed=(),
            pending=(),
            turn=0,
            drawn=None,
            totals=(0,) * count,
            dealt=(),
            log=(),
            revealed=(),
            last_hand=None,
        )
        return settle(deal_hand(blank, 0))

    legal_actions = staticmethod(legal_actions)
    advance = staticmethod(advance)
    build_view = staticmethod(build_view)
    dump = staticmethod(dump_state)
    load = staticmethod(load_state)
    state_from_view = staticmethod(state_from_view)

    def explain_illegal(self, state: FootState, action: Action) -> str:
        seat = state.turn
        if seat is None:
            return "the match is over: no more actions"
        kind = action["type"]
        kinds = {a["type"] for a in legal_actions(state)}
        if kind == "end_turn" or kind not in ("play", "draw", "pass"):
            return f"Chicken Foot has no {kind!r} action"
        if not state.led:
            return f"this hand opens with [{state.lead}, {state.lead}]: lead it with no \"end\""
        if kind in ("draw", "pass"):
            if "play" in kinds:
                return f"you have a tile to play, so you may not {kind}"
            if kind == "draw":
                return "you may draw only one tile a turn, and only from a yard that has tiles"
            return "you may pass only when you can neither play nor draw"
        return self._explain_play(state, seat, action)

    def _explain_play(self, state: FootState, seat: int, action: Action) -> str:
        tile = make_tile(*action["tile"])
        if tile not in state.hands[seat]:
            return f"you do not hold {tile.label()}"
        if state.drawn is not None and tile != state.drawn:
            return f"after drawing you may play only the tile you drew, {state.drawn.label()}"
        end = action.get("end")
        if end is None:
            return "say which end the tile goes on: \"arm:<i>\" or \"toe:<foot>:<i>\""
        arms = state.arms
        branch = branch_of(end, arms)
        if branch is None or branch >= len(state.branch_tiles) or state.closed[branch]:
            ids = ", ".join(branch_id(i, arms) for i in open_branches(state))
            return f"{end!r} is not an open end; you may play on {ids}"
        if branch not in open_branches(state):
            first = branch_id(state.pending[0], arms) if state.pending else ""
            if branch in state.pending:
                return f"empty arms and toes fill in order: play on {first} first"
            return f"the double's arms must all be filled first: play on {first}"
        return f"{tile.label()} does not match the {state.branch_ends[branch]} open on {end}"

    def hand_index(self, state: FootState) -> int:
        return state.hand
