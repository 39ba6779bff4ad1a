"""Legal actions and the unchecked step of Block, Draw and All Fives.

These are the hot paths of every AI rollout, so they work on the bitmask encoding directly,
look the open ends up in a memoised plan, and build each new state with one constructor call.
"""

from __future__ import annotations

from games.core.actions import Action
from games.core.layout import CLOSED, END_INDEX, end_total, lead_layout, place
from games.line.match import end_hand, stop_at_target
from games.line.scoring import fives_points
from games.line.state import DRAW, LEAD, NOBODY, PASS, PLAY, SCORE, LineState, new_state


def fitting(state: LineState) -> int:
    """The tiles that fit some open end, as a mask (none while the layout is empty)."""
    return state.config.tiles.plan(state.layout.ends)[0]


def can_draw(state: LineState, boneyard: int) -> bool:
    return boneyard > state.config.draw_floor


def legal_actions(state: LineState) -> list[Action]:
    seat = state.to_move
    if seat < 0:
        return []
    tiles = state.deal.config.tiles
    hand = state.hands[seat]
    ends = state.layout.ends
    low, high = tiles.low, tiles.high
    if ends[0] == CLOSED:
        i = state.deal.lead
        if i >= 0:
            return [{"type": "play", "tile": [low[i], high[i]]}]
        out: list[Action] = []
        while hand:
            bit = hand & -hand
            hand ^= bit
            i = bit.bit_length() - 1
            out.append({"type": "play", "tile": [low[i], high[i]]})
        return out
    fit, per_end = tiles.plans.get(ends) or tiles.plan(ends)
    playable = hand & fit
    if playable:
        out = []
        while playable:
            bit = playable & -playable
            playable ^= bit
            i = bit.bit_length() - 1
            a = low[i]
            b = high[i]
            for mask, name in per_end:
                if mask & bit:
                    out.append({"type": "play", "tile": [a, b], "end": name})
        return out
    if len(state.boneyard) > state.deal.config.draw_floor:
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def is_legal(state: LineState, action: Action) -> bool:
    """Whether the canonical `action` is one of `legal_actions(state)`, without listing them.

    `apply` asks this on every move of the server; building the whole list to look one
    action up in it cost as much as the move itself.
    """
    seat = state.to_move
    if seat < 0:
        return False
    kind = action["type"]
    config = state.deal.config
    ends = state.layout.ends
    if kind == "play":
        tiles = config.tiles
        a, b = action["tile"]
        if b > tiles.top:
            return False
        index = tiles.grid[a][b]
        if not state.hands[seat] >> index & 1:
            return False
        end = action.get("end")
        if ends[0] == CLOSED:
            lead = state.deal.lead
            return end is None and (lead < 0 or lead == index)
        e = END_INDEX.get(end, CLOSED) if isinstance(end, str) else CLOSED
        return e != CLOSED and ends[e] != CLOSED and ends[e] in (a, b)
    if kind not in ("draw", "pass") or ends[0] == CLOSED or state.hands[seat] & fitting(state):
        return False
    may_draw = len(state.boneyard) > config.draw_floor
    return may_draw if kind == "draw" else not may_draw


def advance(state: LineState, action: Action) -> LineState:
    kind = action["type"]
    if kind == "play":
        return play(state, action)
    if kind == "draw":
        return draw(state)
    return pass_turn(state)


def play(state: LineState, action: Action) -> LineState:
    config = state.deal.config
    seat = state.to_move
    tiles = config.tiles
    a, b = action["tile"]
    index = tiles.grid[a][b]
    end_name = action.get("end")
    if end_name is None:
        layout = lead_layout(a, b, config.spinner)
        end = LEAD
    else:
        end = END_INDEX[end_name]
        shown = state.layout.ends[end]
        layout = place(state.layout, end, b if a == shown else a, a == b, config.spinner)
    hands = state.hands
    hand = hands[seat] & ~(1 << index)
    hands = (*hands[:seat], hand, *hands[seat + 1:])
    log = ((PLAY, seat, index, end), state.log)
    scores = state.scores
    fives = state.fives
    scored = -1
    if config.fives:
        points = fives_points(end_total(layout))
        if points:
            scored = config.side[seat]
            scores = (*scores[:scored], scores[scored] + points, *scores[scored + 1:])
            fives = (*fives[:scored], fives[scored] + points, *fives[scored + 1:])
            log = ((SCORE, seat, scored, points), log)
    after = new_state(state.deal, hands, state.boneyard, layout, (seat + 1) % config.players, scores,
                      fives, log)
    if scored >= 0 and scores[scored] >= config.target:
        return stop_at_target(after, scored)
    if not hand:
        return end_hand(after, seat)
    if len(state.boneyard) <= config.draw_floor:
        fit = (tiles.plans.get(layout.ends) or tiles.plan(layout.ends))[0]
        for h in hands:
            if h & fit:
                break
        else:
            return end_hand(after, NOBODY)
    return after


def draw(state: LineState) -> LineState:
    seat = state.to_move
    boneyard = state.boneyard
    hands = state.hands
    hands = (*hands[:seat], hands[seat] | 1 << boneyard[0], *hands[seat + 1:])
    rest = boneyard[1:]
    after = new_state(state.deal, hands, rest, state.layout, seat, state.scores, state.fives,
                      ((DRAW, seat), state.log))
    if len(rest) <= state.deal.config.draw_floor:
        fit = fitting(state)
        for h in hands:
            if h & fit:
                break
        else:
            return end_hand(after, NOBODY)
    return after


def pass_turn(state: LineState) -> LineState:
    """The seat passes. A pass never finds a block in play (the move before it would have
    ended the hand), but a state rebuilt from a view with a sampled deal can be one: it ends
    there instead of passing round for ever."""
    seat = state.to_move
    shown = tuple(v for v in state.layout.ends if v != CLOSED)
    after = new_state(state.deal, state.hands, state.boneyard, state.layout,
                      (seat + 1) % state.deal.config.players, state.scores, state.fives,
                      ((PASS, seat, shown), state.log))
    fit = fitting(state)
    for h in state.hands:
        if h & fit:
            return after
    return end_hand(after, NOBODY)
