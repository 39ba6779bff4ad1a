"""The tree of spinners: every double is a spinner, and where a tile may go next.

Tiles are numbered in play order (the lead is tile 0). An open end is `(code, value, kind)`:
`code` is `4 * k + sub`, tile `k`'s end `sub` (0: the lead's left or a later tile's outer end,
1: the lead's right, 2 and 3: a double's crosswise ends, "up" and "down"); `value` is the
number it shows; `kind` says what it adds to the count:

- `NORMAL`: the outer end of a tile that is not a double: its number;
- `DOUBLE`: the free side of a double whose other side is covered: both halves, twice its number;
- `HALF`: a side of a lead double with both sides still free: its number (the lone double
  counts its pips once, 2 x its number in all);
- `CROSS`: a crosswise end of a double whose sides are both covered: nothing, until a tile is
  played on it (then that tile's outer end counts).

A double laid on an end touches it with one side, so its free side is played first; once
that is covered its two crosswise ends open. A lead double has two free sides, then its two
crosswise ends. The ends are kept in the order they opened, which is the order of the view's
`ends`. The table is a few small tuples, so a move costs a handful of tuple operations.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

NORMAL, DOUBLE, HALF, CROSS = 0, 1, 2, 3
#: What an end of each kind adds to the count, per number shown.
_WEIGHT = (1, 2, 1, 0)
_SUBS = ("", "r", "u", "d")
_LEAD_SUBS = ("l", "r", "u", "d")

End = tuple[int, int, int]


class Table(NamedTuple):
    """The open ends in the order they opened, the count (`total`: the sum of what they add),
    and how many tiles lie on the table."""

    ends: tuple[End, ...]
    total: int
    placed: int


EMPTY = Table((), 0, 0)


def end_weight(kind: int) -> int:
    return _WEIGHT[kind]


def end_counts(value: int, kind: int) -> int:
    """What an open end adds to the count now."""
    return value * _WEIGHT[kind]


@cache
def end_id(code: int) -> str:
    """The end id of docs/rules-fiveup.md, "End ids": "0l", "0r", "0u", "0d", "k", "ku", "kd"."""
    k, sub = divmod(code, 4)
    if k == 0:
        return f"0{_LEAD_SUBS[sub]}"
    return f"{k}{_SUBS[sub]}"


def end_code(end: object) -> int | None:
    """The code an end id names, or None when it is no end id at all."""
    if type(end) is not str or not 1 <= len(end) <= 4:
        return None
    return _CODES.get(end)


#: Every end id a hand can ever name (28 tiles at most), by id.
_CODES: dict[str, int] = {end_id(4 * k + sub): 4 * k + sub
                          for k in range(28) for sub in range(4) if k == 0 or sub != 1}


def lead_table(low: int, high: int) -> Table:
    """The table after the lead `[low, high]`: "0l" shows `low`, "0r" shows `high`."""
    if low == high:
        return Table(((0, low, HALF), (1, low, HALF)), 2 * low, 1)
    return Table(((0, low, NORMAL), (1, high, NORMAL)), low + high, 1)


def place(table: Table, position: int, outer: int, double: bool) -> Table:
    """The table after a tile is laid on the open end at `position` of `table.ends`, leaving
    `outer` facing out (`double`: the tile is a double, laid crosswise)."""
    ends = table.ends
    code, value, kind = ends[position]
    count = table.total - value * _WEIGHT[kind]
    rest = ends[:position] + ends[position + 1:]
    if kind == HALF:
        # One side of the lead double is covered: its other side now counts both halves.
        other = 1 - code
        rest = tuple((c, v, DOUBLE) if c == other else (c, v, k) for c, v, k in rest)
        count += value
    elif kind == DOUBLE:
        # Both sides of this double are covered: it stops counting and its crosswise ends open.
        base = code & ~3
        rest += ((base + 2, value, CROSS), (base + 3, value, CROSS))
    k = table.placed
    if double:
        rest += ((4 * k, outer, DOUBLE),)
        count += 2 * outer
    else:
        rest += ((4 * k, outer, NORMAL),)
        count += outer
    return Table(rest, count, k + 1)


def fives_points(count: int) -> int:
    """What a count scores: a positive multiple of five scores count / 5 (15 scores 3)."""
    return count // 5 if count and count % 5 == 0 else 0


def count_of(ends: tuple[End, ...]) -> int:
    """The count of a tuple of open ends (the table keeps it; this is its definition)."""
    return sum(v * _WEIGHT[k] for _, v, k in ends)
