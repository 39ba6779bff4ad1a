"""Five-Up hands on a small mutable copy: the layout of spinners, its count, and playouts.

Five-Up (docs/rules-fiveup.md) makes every double a spinner, so the layout has any number
of open ends, each counting in its own way: a tile's outer end counts its number, a double
with one side free counts both halves, a double covered on both sides stops counting though
its two crosswise ends open (they count nothing until a tile is laid on them). The bots need
the count after a play many thousand times a decision, so this module restates the layout
rules of docs/rules-fiveup.md and the design's end ids on plain lists (`Layout`), replays a
view's log onto them, and plays a sampled deal to the end of the hand on bitmask hands
(`Deal.play_out`). The AI imports no game family: the engine stays the judge of legality,
and `tests/ai/test_fiveup_ai.py` holds these rules to the engine's, move for move (the same
open ends and count as every view shows, the same plays, the same points and hand scores).

Every end is one of four kinds:

- `PLAIN`: the outer end of a tile that is not a double, or a side of a lead that is not a
  double; counts its number.
- `SIDE`: the free side of a double whose other side is covered (a double laid on an arm, or
  a lead double one of whose sides was played on); counts twice its number. Covering it ends
  the double's count and opens its two crosswise ends.
- `LEAD_SIDE`: a side of a lead double neither of whose sides is covered yet; each counts its
  number (the double counts both halves). Covering one makes the other a `SIDE`.
- `CROSS`: a crosswise end of a double covered on both sides; counts nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.ai.inference import HiddenHand, hand_of
from games.ai.policy import Record, View
from games.core.tiles import Tile, full_set, make_tile

PLAIN, SIDE, LEAD_SIDE, CROSS = 0, 1, 2, 3

TILES: tuple[Tile, ...] = full_set(6)
LOW: tuple[int, ...] = tuple(t.low for t in TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in TILES)
INDEX: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
#: The tiles carrying each number, as a mask.
CARRIES: tuple[int, ...] = tuple(sum(1 << i for i, t in enumerate(TILES) if t.has(n)) for n in range(7))
ALL = (1 << len(TILES)) - 1
#: A tile index by its lone bit (`bit.bit_length() - 1`, looked up).
BIT = {1 << i: i for i in range(len(TILES))}


def index_of(raw: Sequence[int]) -> int:
    return INDEX[make_tile(int(raw[0]), int(raw[1]))]


def pip_count(mask: int) -> int:
    total = 0
    while mask:
        bit = mask & -mask
        mask ^= bit
        total += PIPS[BIT[bit]]
    return total


def fives(count: int) -> int:
    """What a count scores: a fifth of a positive multiple of five, else nothing."""
    return count // 5 if count > 0 and count % 5 == 0 else 0


class Layout:
    """The open ends of a Five-Up layout, in creation order: value, kind and id of each,
    the count, and how many tiles lie on the table."""

    __slots__ = ("count", "ids", "kinds", "placed", "values")

    def __init__(self) -> None:
        self.values: list[int] = []
        self.kinds: list[int] = []
        self.ids: list[str] = []
        self.count = 0
        self.placed = 0

    def copy(self) -> Layout:
        other = Layout.__new__(Layout)
        other.values = list(self.values)
        other.kinds = list(self.kinds)
        other.ids = list(self.ids)
        other.count = self.count
        other.placed = self.placed
        return other

    def fit(self) -> int:
        """The mask of the tiles that fit some open end (every tile on an empty table)."""
        if not self.placed:
            return ALL
        out = 0
        for v in self.values:
            out |= CARRIES[v]
        return out

    def count_after(self, e: int, tile: int) -> int:
        """The count once `tile` is laid on open end number `e` (position in the lists)."""
        v = self.values[e]
        kind = self.kinds[e]
        a = LOW[tile]
        outer = HIGH[tile] if a == v else a
        new = outer * 2 if DOUBLE[tile] else outer
        if kind == PLAIN:
            return self.count - v + new
        if kind == SIDE:
            return self.count - 2 * v + new
        return self.count + new  # CROSS counted nothing; a LEAD_SIDE's half moves to the other

    def lead(self, tile: int) -> None:
        a, b = LOW[tile], HIGH[tile]
        self.lead_as(a, b)

    def lead_as(self, a: int, b: int) -> None:
        """The first tile, `a` shown at "0l" and `b` at "0r"."""
        kind = LEAD_SIDE if a == b else PLAIN
        self.values = [a, b]
        self.kinds = [kind, kind]
        self.ids = ["0l", "0r"]
        self.count = a + b
        self.placed = 1

    def play(self, e: int, tile: int) -> None:
        """Lay `tile` on open end number `e`."""
        values, kinds, ids = self.values, self.kinds, self.ids
        v = values[e]
        kind = kinds[e]
        a = LOW[tile]
        outer = HIGH[tile] if a == v else a
        double = DOUBLE[tile]
        new = outer * 2 if double else outer
        number = self.placed
        self.placed = number + 1
        covered = ids[e]
        del values[e]
        del kinds[e]
        del ids[e]
        if kind == PLAIN:
            self.count += new - v
        elif kind == CROSS:
            self.count += new
        elif kind == SIDE:
            self.count += new - 2 * v
            owner = covered[:-1] if covered in ("0l", "0r") else covered
            values += (v, v)
            kinds += (CROSS, CROSS)
            ids += (owner + "u", owner + "d")
        else:  # LEAD_SIDE: the other side now carries the double's count alone
            self.count += new
            for i, k in enumerate(kinds):
                if k == LEAD_SIDE:
                    kinds[i] = SIDE
                    break
        values.append(outer)
        kinds.append(SIDE if double else PLAIN)
        ids.append(str(number))

    def position(self, end: str) -> int:
        return self.ids.index(end)

    def apply(self, action: Record) -> None:
        """Lay the tile of a play action (or log event), by its end id."""
        a, b = (int(n) for n in action["tile"])
        end = action.get("end")
        if end is None:
            self.lead_as(a, b)
        else:
            self.play(self.position(str(end)), INDEX[make_tile(a, b)])


def this_hand(log: Sequence[Record]) -> list[Record]:
    """The events of the hand under way (after the last hand's end, should a log hold more)."""
    start = 0
    for i, event in enumerate(log):
        if event.get("type") == "hand_end":
            start = i + 1
    return list(log[start:])


def replay(log: Iterable[Record]) -> Layout:
    """The layout the plays of a hand's log leave."""
    layout = Layout()
    for event in log:
        if event.get("type") == "play":
            layout.apply(event)
    return layout


def hidden_hands(view: View) -> dict[int, HiddenHand]:
    """Every other seat's hand as slots: a draw or a pass voids the numbers open then."""
    me = view.get("seat")
    log = this_hand(view.get("log") or ())
    sizes = [int(n) for n in view.get("hand_sizes") or ()]
    for event in log:
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(sizes):
            continue
        if event.get("type") == "play":
            sizes[seat] += 1
        elif event.get("type") == "draw":
            sizes[seat] -= 1
    hands = {seat: HiddenHand([frozenset()] * size) for seat, size in enumerate(sizes) if seat != me}
    layout = Layout()
    for event in log:
        kind = event.get("type")
        seat = event.get("seat")
        hidden = hands.get(seat) if isinstance(seat, int) else None
        if kind == "play":
            if hidden is not None:
                hidden.give(TILES[index_of(event["tile"])])
            layout.apply(event)
        elif kind == "draw" and hidden is not None:
            if layout.placed:
                hidden.forbid(layout.values)
            hidden.receive()
        elif kind == "pass" and hidden is not None and layout.placed:
            hidden.forbid(layout.values)
    return hands


def unseen_tiles(view: View) -> list[Tile]:
    """The tiles neither in the seat's hand nor on the table, in canonical order."""
    seen = set(hand_of(view))
    for event in this_hand(view.get("log") or ()):
        if event.get("type") == "play":
            seen.add(TILES[index_of(event["tile"])])
    return [t for t in TILES if t not in seen]


@dataclass(frozen=True, slots=True)
class Table:
    """A match's fixed facts: seats, the side of each, the target, and how a hand's end
    scores (`score(hands, out)`: the points of each side, `out` the seat that dominoed or
    None when the hand is blocked; the search passes the engine's own scoring)."""

    players: int
    side: tuple[int, ...]
    target: int
    score: Callable[[Sequence[int], int | None], Sequence[int]]


#: A playout move: (tile index, end position), or DRAW / PASS.
DRAW = (-1, 0)
PASS = (-2, 0)


class Deal:
    """One sampled deal of the hand under way: hands as masks, the boneyard in draw order,
    the layout, the scores by side and the seat to move."""

    __slots__ = ("boneyard", "drawn", "hands", "layout", "scores", "seat", "table")

    def __init__(self, table: Table, hands: list[int], boneyard: list[int], layout: Layout, *,
                 scores: list[int], seat: int) -> None:
        self.table = table
        self.hands = hands
        self.boneyard = boneyard
        self.drawn = 0
        self.layout = layout
        self.scores = scores
        self.seat = seat

    def copy(self) -> Deal:
        other = Deal.__new__(Deal)
        other.table = self.table
        other.hands = list(self.hands)
        other.boneyard = self.boneyard
        other.drawn = self.drawn
        other.layout = self.layout.copy()
        other.scores = list(self.scores)
        other.seat = self.seat
        return other

    def moves(self) -> list[tuple[int, int]]:
        """The seat's legal moves: every (tile, end) that fits, else a draw, else a pass."""
        layout = self.layout
        hand = self.hands[self.seat]
        if not layout.placed:
            out = []
            while hand:
                bit = hand & -hand
                hand ^= bit
                out.append((BIT[bit], -1))
            return out
        out = []
        for e, v in enumerate(layout.values):
            fit = hand & CARRIES[v]
            while fit:
                bit = fit & -fit
                fit ^= bit
                out.append((BIT[bit], e))
        if out:
            return out
        return [DRAW] if self.drawn < len(self.boneyard) else [PASS]

    def step(self, move: tuple[int, int]) -> bool:
        """Make `move` for the seat to move; True when the hand or the match ended."""
        tile, e = move
        seat = self.seat
        table = self.table
        if tile >= 0:
            layout = self.layout
            if e < 0:
                layout.lead(tile)
            else:
                layout.play(e, tile)
            hand = self.hands[seat] & ~(1 << tile)
            self.hands[seat] = hand
            points = fives(layout.count)
            if points:
                s = table.side[seat]
                self.scores[s] += points
                if self.scores[s] >= table.target:
                    return True
            if not hand:
                return self.end(seat)
            self.seat = (seat + 1) % table.players
            if self.drawn >= len(self.boneyard):
                return self.blocked()
            return False
        if tile == DRAW[0]:
            self.hands[seat] |= 1 << self.boneyard[self.drawn]
            self.drawn += 1
            return self.blocked()
        self.seat = (seat + 1) % table.players
        return self.blocked()

    def blocked(self) -> bool:
        """End the hand if nobody can play and the boneyard is empty."""
        if self.drawn < len(self.boneyard):
            return False
        fit = self.layout.fit()
        for hand in self.hands:
            if hand & fit:
                return False
        return self.end(None)

    def end(self, out: int | None) -> bool:
        for s, points in enumerate(self.table.score(self.hands, out)):
            self.scores[s] += points
        return True

    def play_out(self, rng: random.Random, *, noise: float, greed: float, double_bonus: float,
                 cap: int = 400, trace: list[tuple[int, int, str]] | None = None) -> None:
        """Play the hand to its end (or the match's): each seat lays the tile that scores most
        (`greed` per point), the heaviest (a double counting `double_bonus` more), one move in
        `1 / noise` at random.

        `step` and `moves` inlined: a seat that cannot play draws until it can (each draw is
        the engine's `draw` action), and a seat that must pass first looks whether anybody
        can play, since passes change nothing (the engine ends a blocked hand one move
        sooner, with the same hands, so the same score). `trace`, when given, receives each
        play as (seat, tile index, end id, "-" for the lead) for the tests, which replay it on the engine.
        """
        if not self.layout.placed:
            moves = self.moves()
            lead = moves[rng.randrange(len(moves))]
            if trace is not None:
                trace.append((self.seat, lead[0], "-"))
            if self.step(lead):
                return
        table = self.table
        players = table.players
        side = table.side
        target = table.target
        hands = self.hands
        boneyard = self.boneyard
        stock = len(boneyard)
        drawn = self.drawn
        layout = self.layout
        values = layout.values
        kinds = layout.kinds
        scores = self.scores
        seat = self.seat
        chance = rng.random
        carries = CARRIES
        low, high, pips, doubles, bits = LOW, HIGH, PIPS, DOUBLE, BIT
        for _ in range(cap):
            hand = hands[seat]
            fit = 0
            for v in values:
                fit |= carries[v]
            playable = hand & fit
            while not playable and drawn < stock:
                hand |= 1 << boneyard[drawn]
                drawn += 1
                playable = hand & fit
            hands[seat] = hand
            if not playable:
                if not any(h & fit for h in hands):
                    self.drawn = drawn
                    self.seat = seat
                    self.end(None)
                    return
                seat = seat + 1 if seat + 1 < players else 0
                continue
            count = layout.count
            if chance() < noise:
                options = []
                for e, v in enumerate(values):
                    here = playable & carries[v]
                    while here:
                        bit = here & -here
                        here ^= bit
                        options.append((bits[bit], e))
                tile, end = options[int(chance() * len(options))]
            else:
                top = -1e9
                tile = end = -1
                for e, v in enumerate(values):
                    here = playable & carries[v]
                    if not here:
                        continue
                    kind = kinds[e]
                    base = count - v if kind == PLAIN else count - 2 * v if kind == SIDE else count
                    while here:
                        bit = here & -here
                        here ^= bit
                        i = bits[bit]
                        a = low[i]
                        outer = high[i] if a == v else a
                        if doubles[i]:
                            total = base + 2 * outer
                            weight = pips[i] + double_bonus + chance()
                        else:
                            total = base + outer
                            weight = pips[i] + chance()
                        if total % 5 == 0 and total > 0:
                            weight += greed * (total // 5)
                        if weight > top:
                            top, tile, end = weight, i, e
            if trace is not None:
                trace.append((seat, tile, layout.ids[end]))
                layout.play(end, tile)
                total = layout.count
            else:  # `Layout.play` inlined, without the ids nobody reads in a playout
                v = values[end]
                kind = kinds[end]
                a = low[tile]
                outer = high[tile] if a == v else a
                double = doubles[tile]
                total = count + (outer * 2 if double else outer)
                del values[end]
                del kinds[end]
                if kind == PLAIN:
                    total -= v
                elif kind == SIDE:
                    total -= 2 * v
                    values += (v, v)
                    kinds += (CROSS, CROSS)
                elif kind == LEAD_SIDE:
                    kinds[kinds.index(LEAD_SIDE)] = SIDE
                values.append(outer)
                kinds.append(SIDE if double else PLAIN)
                layout.count = total
            hand &= ~(1 << tile)
            hands[seat] = hand
            if total % 5 == 0 and total > 0:
                s = side[seat]
                scores[s] += total // 5
                if scores[s] >= target:
                    return
            if not hand:
                self.drawn = drawn
                self.end(seat)
                return
            seat = seat + 1 if seat + 1 < players else 0
