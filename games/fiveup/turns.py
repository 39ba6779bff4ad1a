"""The legal actions and the unchecked step of Five-Up: the hot paths of the server and of
every AI playout.

Two forms of the same moves:
- actions, the JSON dicts of the protocol (`legal_actions`, `advance`);
- moves, small ints for searches that step many states (`moves`, `step`): a play is
  `((end code + 1) << 6 | tile index) << 1 | claim` (end code + 1 is 0 for the lead), a draw
  `DRAW_MOVE`, a pass `PASS_MOVE`, a muggins call `MUGGINS_MOVE`. `moves(state)` lists them in
  the order of `legal_actions(state)`, and `step(state, m)` equals
  `advance(state, action_of(state, m))`.

The order: the muggins call first when the seat may make it, then each tile of the hand in
canonical order on each open end it fits, in the order the ends opened; with the muggins
house rule every play twice, without and then with `"claim": true`, so the list never tells
which plays score.
"""

from __future__ import annotations

from typing import Any

from games.core.actions import Action, FrozenAction, FrozenTile
from games.fiveup.hands import end_hand, stop_at_target
from games.fiveup.layout import end_code, end_id, fives_points, lead_table, place
from games.fiveup.state import (
    DRAW,
    GRID,
    HIGH,
    LEAD,
    LOW,
    MUGGINS,
    NOBODY,
    PASS,
    PLAY,
    SCORE,
    SUIT,
    FiveUpState,
    new_state,
)

DRAW_MOVE = -1
PASS_MOVE = -2
MUGGINS_MOVE = -3

DRAW_ACTION = FrozenAction(DRAW_MOVE, {"type": "draw"})
PASS_ACTION = FrozenAction(PASS_MOVE, {"type": "pass"})
MUGGINS_ACTION = FrozenAction(MUGGINS_MOVE, {"type": "muggins"})
_DRAW = (DRAW_MOVE,)
_PASS = (PASS_MOVE,)


def play_move(tile: int, code: int, claim: bool = False) -> int:
    """The move of tile index `tile` on the end `code` (`LEAD`: the lead)."""
    return ((code + 1) << 6 | tile) << 1 | claim


def fit_mask(state: FiveUpState) -> int:
    """The tiles that fit some open end, as a mask (none while the table is empty)."""
    fit = 0
    for _, value, _ in state.table.ends:
        fit |= SUIT[value]
    return fit


def can_play(state: FiveUpState, seat: int) -> bool:
    """Whether `seat` holds a tile it may play now (any tile, on an empty table)."""
    hand = state.hands[seat]
    if not state.table.placed:
        return bool(hand)
    return bool(hand & fit_mask(state))


def anyone_can_play(state: FiveUpState) -> bool:
    fit = fit_mask(state)
    return any(h & fit for h in state.hands)


def _plays(state: FiveUpState, seat: int) -> list[int]:
    hand = state.hands[seat]
    table = state.table
    if not table.placed:
        out = []
        while hand:
            bit = hand & -hand
            hand ^= bit
            out.append((bit.bit_length() - 1) << 1)
        return out
    ends = table.ends
    fit = 0
    for _, value, _ in ends:
        fit |= SUIT[value]
    held = hand & fit
    out = []
    while held:
        bit = held & -held
        held ^= bit
        i = bit.bit_length() - 1
        for code, value, _ in ends:
            if SUIT[value] & bit:
                out.append(((code + 1) << 6 | i) << 1)
    return out


def moves(state: FiveUpState) -> tuple[int, ...]:
    """`legal_actions` as move ints, in the same order."""
    seat = state.to_move
    if seat < 0:
        return ()
    plays = _plays(state, seat)
    if not plays:
        only = _DRAW if state.boneyard else _PASS
        return (MUGGINS_MOVE, *only) if state.unclaimed is not None else only
    if state.deal.config.muggins:
        doubled = [m | c for m in plays for c in (0, 1)]
        if state.unclaimed is not None:
            return (MUGGINS_MOVE, *doubled)
        return tuple(doubled)
    return tuple(plays)


_ACTIONS: dict[int, FrozenAction] = {DRAW_MOVE: DRAW_ACTION, PASS_MOVE: PASS_ACTION,
                                     MUGGINS_MOVE: MUGGINS_ACTION}


def _action(move: int) -> FrozenAction:
    """The shared, read-only action of a move (games.core.actions.FrozenAction)."""
    found = _ACTIONS.get(move)
    if found is None:
        i = (move >> 1) & 63
        code = (move >> 7) - 1
        fields: dict[str, Any] = {"type": "play", "tile": FrozenTile((LOW[i], HIGH[i]))}
        if code != LEAD:
            fields["end"] = end_id(code)
        if move & 1:
            fields["claim"] = True
        found = _ACTIONS[move] = FrozenAction(move, fields)
    return found


def legal_actions(state: FiveUpState) -> list[Action]:
    """Every legal action of the seat to move, in canonical form (shared, read-only dicts)."""
    return [_action(m) for m in moves(state)]


def action_of(state: FiveUpState, move: int) -> Action:
    """The action dict of a move int (a fresh, plain dict)."""
    action = dict(_action(move))
    if "tile" in action:
        action["tile"] = list(action["tile"])
    return action


def move_of(state: FiveUpState, action: Action) -> int:
    """The move int of a canonical action (legal or not: `is_legal` checks it)."""
    kind = action["type"]
    if kind == "draw":
        return DRAW_MOVE
    if kind == "pass":
        return PASS_MOVE
    if kind == "muggins":
        return MUGGINS_MOVE
    a, b = action["tile"]
    end = action.get("end")
    code = LEAD if end is None else end_code(end)
    if code is None or b > 6:
        return -100  # no move of any position
    return play_move(GRID[a][b], code, bool(action.get("claim")))


def advance(state: FiveUpState, action: Action) -> FiveUpState:
    """Apply a canonical legal action without checking it."""
    if type(action) is FrozenAction:
        return step(state, action.move)
    return step(state, move_of(state, action))


def step(state: FiveUpState, move: int) -> FiveUpState:
    """`advance` for a move int (see the module's docstring)."""
    if move < 0:
        if move == DRAW_MOVE:
            return draw(state)
        if move == PASS_MOVE:
            return pass_turn(state)
        return muggins(state)
    deal, hands, boneyard, table, seat, scores, fives, _, log = state
    config = deal.config
    index = (move >> 1) & 63
    code = (move >> 7) - 1
    claim = move & 1
    a = LOW[index]
    b = HIGH[index]
    if code == LEAD:
        table = lead_table(a, b)
    else:
        ends = table.ends
        position = 0
        while ends[position][0] != code:
            position += 1
        table = place(table, position, a + b - ends[position][1], a == b)
    hand = hands[seat] & ~(1 << index)
    hands = hands[:seat] + (hand,) + hands[seat + 1:]  # noqa: RUF005 - faster than unpacking
    log = ((PLAY, seat, index, code, bool(claim)), log)
    points = fives_points(table.total)
    unclaimed: tuple[int, int] | None = None
    nxt = seat + 1 if seat + 1 < config.players else 0
    if points:
        if claim or not config.muggins:
            side = config.side[seat]
            scores = scores[:side] + (scores[side] + points,) + scores[side + 1:]  # noqa: RUF005
            fives = fives[:side] + (fives[side] + points,) + fives[side + 1:]  # noqa: RUF005
            log = ((SCORE, seat, side, points), log)
            if scores[side] >= config.target:
                return stop_at_target(new_state(deal, hands, boneyard, table, nxt, scores, fives, None, log),
                                      side)
        else:
            unclaimed = (seat, points)
    after = new_state(deal, hands, boneyard, table, nxt, scores, fives, unclaimed, log)
    if not hand:
        return end_hand(after, seat)
    if not boneyard and not anyone_can_play(after):
        return end_hand(after, NOBODY)
    return after


def muggins(state: FiveUpState) -> FiveUpState:
    """The seat to move takes the points the previous play left unclaimed, for its side."""
    deal, hands, boneyard, table, seat, scores, fives, unclaimed, log = state
    assert unclaimed is not None, "no points stand unclaimed"
    config = deal.config
    origin, points = unclaimed
    side = config.side[seat]
    scores = scores[:side] + (scores[side] + points,) + scores[side + 1:]  # noqa: RUF005
    fives = fives[:side] + (fives[side] + points,) + fives[side + 1:]  # noqa: RUF005
    log = ((MUGGINS, seat, origin, points), log)
    after = new_state(deal, hands, boneyard, table, seat, scores, fives, None, log)
    if scores[side] >= config.target:
        return stop_at_target(after, side)
    return after


def draw(state: FiveUpState) -> FiveUpState:
    """The seat takes the first tile of the boneyard; its turn goes on. Once the boneyard is
    empty and nobody can play, the hand is blocked at once."""
    deal, hands, boneyard, table, seat, scores, fives, _, log = state
    hands = hands[:seat] + (hands[seat] | 1 << boneyard[0],) + hands[seat + 1:]  # noqa: RUF005
    rest = boneyard[1:]
    after = new_state(deal, hands, rest, table, seat, scores, fives, None, ((DRAW, seat), log))
    if not rest and not anyone_can_play(after):
        return end_hand(after, NOBODY)
    return after


def pass_turn(state: FiveUpState) -> FiveUpState:
    """The seat passes. A pass never finds a block in play (the move before it would have
    ended the hand), but a state rebuilt from a view with a sampled deal can be one: it ends
    there instead of passing round for ever."""
    deal, hands, boneyard, table, seat, scores, fives, _, log = state
    nxt = seat + 1 if seat + 1 < deal.config.players else 0
    values = tuple(v for _, v, _ in table.ends)
    after = new_state(deal, hands, boneyard, table, nxt, scores, fives, None, ((PASS, seat, values), log))
    if not boneyard and not anyone_can_play(after):
        return end_hand(after, NOBODY)
    return after
