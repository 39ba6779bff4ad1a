"""Legal actions and the unchecked step of Block, Draw and All Fives.

These are the hot paths of every AI rollout, so they work on the bitmask encoding directly and
build each new state with one constructor call.
"""

from __future__ import annotations

from games.core.actions import Action
from games.core.layout import CLOSED, END_IDS, END_INDEX, end_total, lead_layout, place
from games.line.match import end_hand, stop_at_target
from games.line.scoring import fives_points
from games.line.state import DRAW, LEAD, NOBODY, PASS, PLAY, SCORE, LineState
from games.line.tables import bits, table


def fitting(state: LineState) -> int:
    """The tiles that fit some open end, as a mask (every tile while the layout is empty)."""
    suit = table(state.config.top).suit
    fit = 0
    for v in state.layout.ends:
        if v != CLOSED:
            fit |= suit[v]
    return fit


def can_draw(state: LineState, boneyard: int) -> bool:
    config = state.config
    return config.draws and boneyard > config.reserve


def legal_actions(state: LineState) -> list[Action]:
    seat = state.to_move
    if seat < 0:
        return []
    tiles = table(state.config.top)
    hand = state.hands[seat]
    low, high = tiles.low, tiles.high
    ends = state.layout.ends
    if ends[0] == CLOSED:
        if state.lead >= 0:
            i = state.lead
            return [{"type": "play", "tile": [low[i], high[i]]}]
        return [{"type": "play", "tile": [low[i], high[i]]} for i in bits(hand)]
    suit = tiles.suit
    fit = 0
    open_ends = []
    for e in range(4):
        v = ends[e]
        if v != CLOSED:
            fit |= suit[v]
            open_ends.append((suit[v], END_IDS[e]))
    playable = hand & fit
    if playable:
        out: list[Action] = []
        for i in bits(playable):
            bit = 1 << i
            for mask, name in open_ends:
                if mask & bit:
                    out.append({"type": "play", "tile": [low[i], high[i]], "end": name})
        return out
    if can_draw(state, len(state.boneyard)):
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def advance(state: LineState, action: Action) -> LineState:
    kind = action["type"]
    if kind == "play":
        return _play(state, action)
    if kind == "draw":
        return _draw(state)
    return _pass(state)


def _play(state: LineState, action: Action) -> LineState:
    config = state.config
    seat = state.to_move
    tiles = table(config.top)
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
    hand = state.hands[seat] & ~(1 << index)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    log = (*state.log, (PLAY, seat, index, end))
    scores = state.scores
    fives = state.fives
    scored = -1
    if config.fives:
        points = fives_points(end_total(layout))
        if points:
            scored = config.side[seat]
            scores = (*scores[:scored], scores[scored] + points, *scores[scored + 1:])
            fives = (*fives[:scored], fives[scored] + points, *fives[scored + 1:])
            log = (*log, (SCORE, seat, scored, points))
    after = LineState(
        config, state.master, state.seed, state.commitment, state.hand_number, hands,
        state.boneyard, layout, state.lead, (seat + 1) % config.players, scores, fives, log,
        state.dealt, state.revealed, state.last_hand,
    )
    if scored >= 0 and scores[scored] >= config.target:
        return stop_at_target(after, scored)
    if not hand:
        return end_hand(after, seat)
    if not can_draw(state, len(state.boneyard)):
        suit = tiles.suit
        fit = 0
        for v in layout.ends:
            if v != CLOSED:
                fit |= suit[v]
        for h in hands:
            if h & fit:
                break
        else:
            return end_hand(after, NOBODY)
    return after


def _draw(state: LineState) -> LineState:
    seat = state.to_move
    boneyard = state.boneyard
    hand = state.hands[seat] | 1 << boneyard[0]
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    log = (*state.log, (DRAW, seat))
    rest = boneyard[1:]
    after = LineState(
        state.config, state.master, state.seed, state.commitment, state.hand_number, hands,
        rest, state.layout, state.lead, seat, state.scores, state.fives, log,
        state.dealt, state.revealed, state.last_hand,
    )
    if not can_draw(state, len(rest)):
        fit = fitting(state)
        if not any(h & fit for h in hands):
            return end_hand(after, NOBODY)
    return after


def _pass(state: LineState) -> LineState:
    seat = state.to_move
    shown = tuple(v for v in state.layout.ends if v != CLOSED)
    return LineState(
        state.config, state.master, state.seed, state.commitment, state.hand_number, state.hands,
        state.boneyard, state.layout, state.lead, (seat + 1) % state.config.players, state.scores,
        state.fives, (*state.log, (PASS, seat, shown)), state.dealt, state.revealed, state.last_hand,
    )
