"""Legal actions and the unchecked step of Block, Draw and All Fives.

These are the hot paths of the server and of every AI rollout, so they work on the bitmask
encoding directly, look the open ends up in a memoised plan, find the next layout in the
current one's table of successors, and build each new state with one `tuple.__new__`.

Two forms of the same moves:
- actions, the JSON dicts of the protocol (`legal_actions`, `advance`, `apply`);
- moves, small ints for searches that step many states (`moves`, `step`): a play is
  `tile index << 3 | end` (`end` 0..3, or `LEAD_END` for the lead), a draw `DRAW_MOVE`, a pass
  `PASS_MOVE`. `moves(state)` lists them in the order of `legal_actions(state)`, and
  `step(state, m)` equals `advance(state, action_of(state, m))`.
"""

from __future__ import annotations

from typing import Any

from games.core.actions import Action, FrozenAction, frozen_play
from games.core.layout import CLOSED, END_IDS, END_INDEX, end_total, lead_layout, place
from games.line.match import end_hand, stop_at_target
from games.line.scoring import fives_points
from games.line.state import DRAW, LEAD, NOBODY, PASS, PLAY, SCORE, LineState, new_state
from games.line.tables import LayoutInfo, TileTable

_tuple_new = tuple.__new__

LEAD_END = 4
DRAW_MOVE = -1
PASS_MOVE = -2


def fitting(state: LineState) -> int:
    """The tiles that fit some open end, as a mask (none while the layout is empty)."""
    return state.deal.config.tiles.plan(state.layout.ends)[0]


def can_draw(state: LineState, boneyard: int) -> bool:
    return boneyard > state.deal.config.draw_floor


def _plays(tiles: TileTable, info: LayoutInfo, held: int) -> tuple[tuple[int, ...], tuple[FrozenAction, ...]]:
    """The moves and the (shared) actions of a seat whose tiles that fit are `held`, in the
    order of `legal_actions`. On the empty layout `held` is the whole hand, or `-1 - i` when
    tile `i` must lead. Each tile's are worked out once per open ends and kept in `info`
    (a set has few tiles); a hand of several is put together from them each time, which
    costs less than remembering every hand (measured) and keeps memory bounded."""
    if held < 0 or not held & (held - 1):
        i = -1 - held if held < 0 else held.bit_length() - 1
        found = _tile_plays(tiles, info[1], i)
        info[2][held] = found[0]
        info[3][held] = found
        return found
    pairs = info[3]
    codes: tuple[int, ...] = ()
    actions: tuple[FrozenAction, ...] = ()
    while held:
        bit = held & -held
        held ^= bit
        one = pairs.get(bit) or _plays(tiles, info, bit)
        codes += one[0]
        actions += one[1]
    return codes, actions


def _tile_plays(tiles: TileTable, per_end: tuple[tuple[int, int], ...],
                i: int) -> tuple[tuple[int, ...], tuple[FrozenAction, ...]]:
    """Tile `i`'s moves and actions on these open ends (none open: its lead)."""
    low, high = tiles.low[i], tiles.high[i]
    if not per_end:
        return (i << 3 | LEAD_END,), (frozen_play(i << 3 | LEAD_END, low, high, None),)
    codes = tuple(i << 3 | e for suit, e in per_end if suit >> i & 1)
    return codes, tuple(frozen_play(code, low, high, END_IDS[code & 7]) for code in codes)


def _held(state: LineState, info: LayoutInfo) -> int:
    """The key of `info`'s memo for the seat to move (see `_plays`); 0: it cannot play."""
    hand = state.hands[state.to_move]
    if info[0]:
        return hand & info[0]
    lead = state.deal.lead
    return hand if lead < 0 else -1 - lead


def legal_actions(state: LineState) -> list[Action]:
    """Every legal action, in canonical form. The actions are shared, read-only dicts
    (`FrozenAction`): the same position lists the same objects, and `apply` knows them
    (the last position listed is remembered with its moves, see `listed_move`)."""
    global _LISTED
    deal, hands, boneyard, layout, seat, _, _, _ = state
    if seat < 0:
        return []
    tiles = deal.config.tiles
    info = layout.memo.get(tiles.top) or tiles.layout_info(layout)
    fit = info[0]
    if fit:
        held = hands[seat] & fit
        if not held:
            return [DRAW_ACTION if len(boneyard) > deal.config.draw_floor else PASS_ACTION]
    else:
        held = hands[seat] if deal.lead < 0 else -1 - deal.lead
    found = info[3].get(held) or _plays(tiles, info, held)
    _LISTED = (state, found)
    return list(found[1])


def listed_move(state: LineState, action: FrozenAction) -> int | None:
    """The move of `action` if `state` is the position `legal_actions` listed last and
    `action` one of its actions (a server's or a search's `legal_actions` then `apply`)."""
    listed = _LISTED
    if listed[0] is state:
        codes, actions = listed[1]
        for k in range(len(actions)):
            if actions[k] is action:
                return codes[k]  # type: ignore[no-any-return]
    return None


_LISTED: tuple[Any, ...] = (None, ((), ()))


def moves(state: LineState) -> tuple[int, ...]:
    """`legal_actions` as move ints, in the same order (a tuple shared by every caller)."""
    deal, hands, boneyard, layout, seat, _, _, _ = state
    if seat < 0:
        return ()
    tiles = deal.config.tiles
    info = layout.memo.get(tiles.top) or tiles.layout_info(layout)
    fit = info[0]
    if fit:
        held = hands[seat] & fit
        if not held:
            return _DRAW if len(boneyard) > deal.config.draw_floor else _PASS
    else:
        held = hands[seat] if deal.lead < 0 else -1 - deal.lead
    return info[2].get(held) or _plays(tiles, info, held)[0]


def known_move(state: LineState, action: object) -> int | None:
    """The move of `action` when it is one of the shared actions `legal_actions(state)`
    lists (or equal to one), else None: `apply`'s shortcut for the actions it handed out."""
    seat = state.to_move
    if seat < 0:
        return None
    if action is DRAW_ACTION or action is PASS_ACTION:
        only = moves(state)
        return only[0] if only[0] == action.move else None
    tiles = state.deal.config.tiles
    info = state.layout.memo.get(tiles.top) or tiles.layout_info(state.layout)
    held = _held(state, info)
    found = info[3].get(held) if held else None
    if found is None or action not in found[1]:
        return None
    return found[0][found[1].index(action)]


_DRAW = (DRAW_MOVE,)
_PASS = (PASS_MOVE,)
DRAW_ACTION = FrozenAction(DRAW_MOVE, {"type": "draw"})
PASS_ACTION = FrozenAction(PASS_MOVE, {"type": "pass"})


def action_of(state: LineState, move: int) -> Action:
    """The action dict of a move int."""
    if move == DRAW_MOVE:
        return {"type": "draw"}
    if move == PASS_MOVE:
        return {"type": "pass"}
    tiles = state.deal.config.tiles
    i = move >> 3
    end = move & 7
    if end == LEAD_END:
        return {"type": "play", "tile": [tiles.low[i], tiles.high[i]]}
    return {"type": "play", "tile": [tiles.low[i], tiles.high[i]], "end": END_IDS[end]}


def move_of(state: LineState, action: Action) -> int:
    """The move int of a canonical legal action."""
    kind = action["type"]
    if kind == "draw":
        return DRAW_MOVE
    if kind == "pass":
        return PASS_MOVE
    a, b = action["tile"]
    end = action.get("end")
    index: int = state.deal.config.tiles.grid[a][b]
    return index << 3 | (LEAD_END if end is None else END_INDEX[end])


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


def checked_move(state: LineState, action: object) -> int | None:
    """The move of `action` when it is a legal action already in canonical form, else None.

    The server's common case, answered without building the canonical copy: a dict with
    exactly the keys of its type, a tile `[low, high]` of plain ints, an end id that is open.
    Anything else (malformed, illegal, or legal but written otherwise) is None, and the caller
    takes the careful path, which words the refusal.
    """
    if type(action) is not dict:
        return None
    kind = action.get("type")
    seat = state.to_move
    if seat < 0:
        return None
    if kind == "play":
        tile = action.get("tile")
        if type(tile) is not list or len(tile) != 2:
            return None
        a, b = tile
        if type(a) is not int or type(b) is not int or not 0 <= a <= b:
            return None
        tiles = state.deal.config.tiles
        if b > tiles.top:
            return None
        index = tiles.grid[a][b]
        if not state.hands[seat] >> index & 1:
            return None
        ends = state.layout.ends
        if len(action) == 2:
            if ends[0] != CLOSED:
                return None
            lead = state.deal.lead
            return index << 3 | LEAD_END if lead < 0 or lead == index else None
        end = action.get("end")
        if len(action) != 3 or type(end) is not str or ends[0] == CLOSED:
            return None
        e = END_INDEX.get(end, CLOSED)
        if e == CLOSED or (ends[e] != a and ends[e] != b):
            return None
        return index << 3 | e
    if len(action) != 1 or kind not in ("draw", "pass"):
        return None
    ends = state.layout.ends
    if ends[0] == CLOSED or state.hands[seat] & fitting(state):
        return None
    may_draw = len(state.boneyard) > state.deal.config.draw_floor
    if kind == "draw":
        return DRAW_MOVE if may_draw else None
    return None if may_draw else PASS_MOVE


def advance(state: LineState, action: Action) -> LineState:
    kind = action["type"]
    if kind == "play":
        end = action.get("end")
        a, b = action["tile"]
        index = state.deal.config.tiles.grid[a][b]
        return step(state, index << 3 | (LEAD_END if end is None else END_INDEX[end]))
    if kind == "draw":
        return draw(state)
    return pass_turn(state)


def play(state: LineState, action: Action) -> LineState:
    """A canonical play action (kept for callers that hold one)."""
    return advance(state, action)


def step(state: LineState, move: int) -> LineState:
    """`advance` for a move int (see the module's docstring)."""
    if move < 0:
        return draw(state) if move == DRAW_MOVE else pass_turn(state)
    deal, hands, boneyard, layout, seat, scores, fives, log = state
    config = deal.config
    tiles = config.tiles
    index = move >> 3
    end = move & 7
    a = tiles.low[index]
    b = tiles.high[index]
    if end == LEAD_END:
        end = LEAD
        layout = lead_layout(a, b, config.spinner)
    else:
        outer = a + b - layout.ends[end]
        layout = (layout.after.get(outer << 4 | end << 2 | (a == b) << 1 | config.spinner)
                  or place(layout, end, outer, a == b, config.spinner))
    hand = hands[seat] & ~(1 << index)
    hands = hands[:seat] + (hand,) + hands[seat + 1:]  # noqa: RUF005 - twice as fast as unpacking
    log = ((PLAY, seat, index, end), log)
    if config.fives:
        points = fives_points(end_total(layout))
        if points:
            side = config.side[seat]
            scores = scores[:side] + (scores[side] + points,) + scores[side + 1:]  # noqa: RUF005
            fives = fives[:side] + (fives[side] + points,) + fives[side + 1:]  # noqa: RUF005
            log = ((SCORE, seat, side, points), log)
            if scores[side] >= config.target:
                return stop_at_target(new_state(deal, hands, boneyard, layout, (seat + 1) % config.players,
                                                scores, fives, log), side)
    nxt = seat + 1
    if nxt == config.players:
        nxt = 0
    after = _tuple_new(LineState, (deal, hands, boneyard, layout, nxt, scores, fives, log))
    if not hand:
        return end_hand(after, seat)
    if len(boneyard) <= config.draw_floor:
        fit = (layout.memo.get(tiles.top) or tiles.layout_info(layout))[0]
        for h in hands:
            if h & fit:
                return after
        return end_hand(after, NOBODY)
    return after


def draw(state: LineState) -> LineState:
    deal, hands, boneyard, layout, seat, scores, fives, log = state
    hands = (*hands[:seat], hands[seat] | 1 << boneyard[0], *hands[seat + 1:])
    rest = boneyard[1:]
    after = new_state(deal, hands, rest, layout, seat, scores, fives, ((DRAW, seat), log))
    if len(rest) <= deal.config.draw_floor:
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
    deal, hands, boneyard, layout, seat, scores, fives, log = state
    tiles = deal.config.tiles
    info = layout.memo.get(tiles.top) or tiles.layout_info(layout)
    nxt = seat + 1
    if nxt == deal.config.players:
        nxt = 0
    after = _tuple_new(LineState, (deal, hands, boneyard, layout, nxt, scores, fives,
                                   ((PASS, seat, info[4]), log)))
    fit = info[0]
    for h in hands:
        if h & fit:
            return after
    return end_hand(after, NOBODY)
