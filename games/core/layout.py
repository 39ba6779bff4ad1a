"""A line layout with an optional spinner: which numbers its open ends show.

Block, Draw and All Fives share this shape (and any line game may reuse it). The layout is
kept as the few integers that rules need on every move (the value at each end, whether a
double lies there, which arms hold tiles, the spinner), so a move costs a handful of integer
operations; the tiles themselves live in the game's log.

End indexes 0..3 are the end ids "left", "right", "up", "down" (docs/engine.md, "Actions").
After a lead tile [a, b] the left end shows a and the right end b. A spinner (the first
double played, where the game uses one) opens its up and down arms once both of its sides
along the line are covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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

    `after` remembers the layouts that tiles laid on this one lead to (see `place`), and
    `memo` what a game family works out from the layout once (its legal moves by hand, per
    set); neither takes part in comparing layouts.
    """

    ends: tuple[int, int, int, int] = (CLOSED, CLOSED, CLOSED, CLOSED)
    doubles: int = 0
    used: int = 0
    spinner: int = NO_SPINNER
    waiting: int = 0
    after: dict[int, Layout] = field(default_factory=dict, compare=False, repr=False)
    memo: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_empty(self) -> bool:
        return self.ends[LEFT] == CLOSED

    def open_ends(self) -> list[tuple[int, int]]:
        """`(end index, number shown)` for every open end, in end-index order."""
        return [(e, v) for e, v in enumerate(self.ends) if v != CLOSED]

    def is_double_at(self, end: int) -> bool:
        return bool(self.doubles >> end & 1)


EMPTY = Layout()

#: Every layout `place` and `lead_layout` made, by its fields, so that equal layouts are one
#: object and each remembers its successors: double-six has about a thousand, and each move
#: then finds its layout with one lookup instead of building it. Past the cap (a server that
#: ran for months on the large sets) layouts are built afresh, still correct, and memory
#: stays bounded.
_INTERNED: dict[tuple[tuple[int, int, int, int], int, int, int, int], Layout] = {}
#: The most layouts interned. Read at every intern, so a process with less memory to spare
#: (or a test of the path past the cap) may lower it; the layouts already kept stay.
INTERN_CAP = 30_000
_LEADS: dict[int, Layout] = {}


def _layout(ends: tuple[int, int, int, int], doubles: int, used: int, spinner: int,
            waiting: int) -> Layout:
    """The one layout with these fields (a new one past the cap)."""
    key = (ends, doubles, used, spinner, waiting)
    layout = _INTERNED.get(key)
    if layout is None:
        layout = Layout(ends, doubles, used, spinner, waiting)
        if len(_INTERNED) < INTERN_CAP:
            _INTERNED[key] = layout
    return layout


def lead_layout(low: int, high: int, spinner: bool) -> Layout:
    """The layout after the lead tile `[low, high]`; a double lead becomes the spinner."""
    key = low << 6 | high << 1 | spinner
    found = _LEADS.get(key)
    if found is not None:
        return found
    if low == high:
        if spinner:
            layout = _layout((low, low, CLOSED, CLOSED), _LINE, 0, low, _LINE)
        else:
            layout = _layout((low, low, CLOSED, CLOSED), _LINE, 0, NO_SPINNER, 0)
    else:
        layout = _layout((low, high, CLOSED, CLOSED), 0, 0, NO_SPINNER, 0)
    _LEADS[key] = layout
    return layout


def place_key(end: int, outer: int, double: bool, spinner: bool) -> int:
    """The key of `Layout.after` for a tile laid on `end` leaving `outer`."""
    return outer << 4 | end << 2 | double << 1 | spinner


def place(layout: Layout, end: int, outer: int, double: bool, spinner: bool) -> Layout:
    """The layout after a tile is laid on `end`, leaving `outer` showing there.

    `double` says the tile is a double; with `spinner` the first double becomes the spinner,
    and covering its last open side opens the up and down arms at its number.
    """
    key = outer << 4 | end << 2 | double << 1 | spinner
    found = layout.after.get(key)
    if found is None:
        found = _placed(layout, end, outer, double, spinner)
        if len(_INTERNED) < INTERN_CAP:  # past the cap nothing more is kept
            layout.after[key] = found
    return found


def _placed(layout: Layout, end: int, outer: int, double: bool, spinner: bool) -> Layout:
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
