"""A line layout with an optional spinner: which numbers its open ends show.

Block, Draw and All Fives share this shape (and any line game may reuse it). The layout is
kept as the few integers that rules need on every move (the value at each end, whether a
double lies there, which arms hold tiles, the spinner), so a move costs a handful of integer
operations; the tiles themselves live in the game's log.

End indexes 0..3 are the SPEC §4 end ids "left", "right", "up", "down". After a lead tile
[a, b] the left end shows a and the right end b. A spinner (the first double played, where the
game uses one) opens its up and down arms once both of its sides along the line are covered.
"""

from __future__ import annotations

from dataclasses import dataclass

LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3
END_IDS: tuple[str, ...] = ("left", "right", "up", "down")
END_INDEX: dict[str, int] = {name: i for i, name in enumerate(END_IDS)}
CLOSED = -1
NO_SPINNER = -1
_LINE = (1 << LEFT) | (1 << RIGHT)
_CROSS = (1 << UP) | (1 << DOWN)


@dataclass(frozen=True, slots=True)
class Layout:
    """The open ends of a line layout; the empty layout has every end closed.

    `ends[e]` is the number end `e` shows (`CLOSED` where it is not open); bit `e` of
    `doubles` says a double lies crosswise at end `e`; bit `e` of `used` says arm `e` holds a
    tile; `spinner` is the spinner's number once one is down; bit `e` of `waiting` marks an end
    where the spinner still lies with its outer side uncovered.
    """

    ends: tuple[int, int, int, int] = (CLOSED, CLOSED, CLOSED, CLOSED)
    doubles: int = 0
    used: int = 0
    spinner: int = NO_SPINNER
    waiting: int = 0

    @property
    def is_empty(self) -> bool:
        return self.ends[LEFT] == CLOSED

    def open_ends(self) -> list[tuple[int, int]]:
        """`(end index, number shown)` for every open end, in end-index order."""
        return [(e, v) for e, v in enumerate(self.ends) if v != CLOSED]

    def is_double_at(self, end: int) -> bool:
        return bool(self.doubles >> end & 1)


EMPTY = Layout()

_new = object.__new__
_set_ends, _set_doubles, _set_used, _set_spinner, _set_waiting = (
    Layout.__dict__[name].__set__ for name in Layout.__slots__)


def _layout(ends: tuple[int, int, int, int], doubles: int, used: int, spinner: int,
            waiting: int) -> Layout:
    """`Layout(...)` for the per-move path, filling the slots directly (the frozen `__init__`
    assigns the same fields through `object.__setattr__`, about twice as slowly)."""
    layout = _new(Layout)
    _set_ends(layout, ends)
    _set_doubles(layout, doubles)
    _set_used(layout, used)
    _set_spinner(layout, spinner)
    _set_waiting(layout, waiting)
    return layout


def lead_layout(low: int, high: int, spinner: bool) -> Layout:
    """The layout after the lead tile `[low, high]`; a double lead becomes the spinner."""
    if low == high:
        if spinner:
            return Layout((low, low, CLOSED, CLOSED), _LINE, 0, low, _LINE)
        return Layout((low, low, CLOSED, CLOSED), _LINE, 0)
    return Layout((low, high, CLOSED, CLOSED), 0, 0)


def place(layout: Layout, end: int, outer: int, double: bool, spinner: bool) -> Layout:
    """The layout after a tile is laid on `end`, leaving `outer` showing there.

    `double` says the tile is a double; with `spinner` the first double becomes the spinner,
    and covering its last open side opens the up and down arms at its number.
    """
    bit = 1 << end
    doubles = (layout.doubles | bit) if double else (layout.doubles & ~bit)
    used = layout.used | bit
    waiting = layout.waiting
    spin = layout.spinner
    e0, e1, e2, e3 = layout.ends
    if end == LEFT:
        e0 = outer
    elif end == RIGHT:
        e1 = outer
    elif end == UP:
        e2 = outer
    else:
        e3 = outer
    if waiting & bit:
        waiting &= ~bit
        if not waiting:
            e2 = e3 = spin
            doubles |= _CROSS
    if double and spinner and spin == NO_SPINNER:
        spin = outer
        waiting = bit
    return _layout((e0, e1, e2, e3), doubles, used, spin, waiting)


def end_total(layout: Layout) -> int:
    """The All Fives count of the open ends.

    A double at an end counts both halves; a lone tile (a lone spinner included) counts its
    pips once; an up or down arm with nothing on it yet counts nothing.
    """
    if layout.is_empty:
        return 0
    ends = layout.ends
    doubles = layout.doubles
    if not layout.used:
        return ends[LEFT] * 2 if doubles & 1 else ends[LEFT] + ends[RIGHT]
    total = 0
    for e in (LEFT, RIGHT, UP, DOWN):
        v = ends[e]
        if v == CLOSED or (e >= UP and not layout.used >> e & 1):
            continue
        total += v * 2 if doubles >> e & 1 else v
    return total
