"""What a seat can know about the hidden tiles from its view alone.

Two kinds of knowledge: which tiles are unseen (the set less the seat's hand and every tile
that reached the table), and what each opponent cannot hold. A pass, or a draw, proves the
seat held nothing matching the open ends at that moment; failing to follow suit in 42 proves
a void in the suit led. A void only binds the tiles held at that moment, never the ones drawn
later, so each hidden hand is kept as a list of slots, one per tile, each with the numbers it
is known not to carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.ai.policy import Record, View
from games.core.tiles import Tile, full_set, make_tile

Slot = frozenset[int]
Ban = frozenset[Tile]


def tile_of(raw: Sequence[int]) -> Tile:
    """A tile from its wire form `[a, b]` (either order)."""
    return make_tile(int(raw[0]), int(raw[1]))


def hand_of(view: View) -> tuple[Tile, ...]:
    return tuple(tile_of(t) for t in view.get("hand") or ())


def set_top(view: View, default: int = 6) -> int:
    top = (view.get("options") or {}).get("set")
    return int(top) if isinstance(top, int) else default


def played_tiles(log: Iterable[Record]) -> list[Tile]:
    """Every tile the log shows reaching the table."""
    return [tile_of(event["tile"]) for event in log if event.get("type") == "play" and "tile" in event]


def unseen_tiles(view: View, also_seen: Iterable[Tile] = ()) -> list[Tile]:
    """The tiles of the set that this seat has not seen, in canonical order."""
    seen = set(hand_of(view)) | set(played_tiles(view.get("log") or ())) | set(also_seen)
    return [t for t in full_set(set_top(view)) if t not in seen]


@dataclass(slots=True)
class HiddenHand:
    """One opponent's hand as slots: `slots[i]` is the numbers tile i cannot carry.

    `banned` lists single tiles known to be absent from every slot (42: a trump it would
    have had to play).
    """

    slots: list[Slot] = field(default_factory=list)
    banned: set[Tile] = field(default_factory=set)

    def forbid(self, numbers: Iterable[int]) -> None:
        extra = frozenset(numbers)
        if extra:
            self.slots = [slot | extra for slot in self.slots]

    def receive(self) -> None:
        self.slots.append(frozenset())

    def give(self, tile: Tile) -> None:
        """Drop the slot that most plausibly held `tile`: the most constrained that allows it."""
        if not self.slots:
            return
        allowed = [i for i, slot in enumerate(self.slots) if tile.low not in slot and tile.high not in slot]
        pool = allowed or list(range(len(self.slots)))
        pick = max(pool, key=lambda i: (len(self.slots[i]), i)) if allowed else min(
            pool, key=lambda i: (len(self.slots[i]), i)
        )
        del self.slots[pick]


def initial_sizes(view: View) -> list[int]:
    """Tiles each seat was dealt this hand: held now, plus played, less drawn."""
    sizes = list(view.get("hand_sizes") or [])
    for event in view.get("log") or ():
        seat = event.get("seat")
        if not isinstance(seat, int) or seat >= len(sizes):
            continue
        if event.get("type") == "play":
            sizes[seat] += 1
        elif event.get("type") == "draw":
            sizes[seat] -= 1
    return sizes


class EndTracker:
    """Follows the open-end values of a line layout through the log, for dating voids.

    It only reports ends it is sure of (the line's two ends and arms already played on),
    so a void it records is always true; an arm not yet built is left out, which only
    weakens the inference.
    """

    def __init__(self, spinner: bool) -> None:
        self.spinner = spinner
        self.ends: dict[str, int] = {}
        self.spinner_value: int | None = None

    def play(self, tile: Tile, end: str | None) -> None:
        if end is None or not self.ends:
            self.ends = {"left": tile.low, "right": tile.high}
        else:
            base = self.ends.get(end, self.spinner_value)
            if base is None:
                return
            self.ends[end] = tile.other(base)
        if self.spinner and tile.is_double and self.spinner_value is None:
            self.spinner_value = tile.low

    def values(self) -> set[int]:
        return set(self.ends.values())


def _void_numbers(event: Record, tracker: EndTracker) -> set[int]:
    """The numbers a draw or pass shows the seat lacked: as logged, else as tracked."""
    for key in ("values", "ends"):
        numbers = event.get(key)
        if isinstance(numbers, list) and all(type(n) is int for n in numbers):
            return set(numbers)
    return tracker.values()


def line_hidden_hands(view: View) -> dict[int, HiddenHand]:
    """Every other seat's hand as constrained slots, read from a layout game's log.

    Draws dealt to find a lead double (Chicken Foot, `"lead": true`) prove nothing.
    """
    me = view.get("seat")
    sizes = initial_sizes(view)
    hands = {seat: HiddenHand([frozenset()] * size) for seat, size in enumerate(sizes) if seat != me}
    tracker = EndTracker(bool((view.get("options") or {}).get("spinner")))
    for event in view.get("log") or ():
        kind = event.get("type")
        seat = event.get("seat")
        hidden = hands.get(seat) if isinstance(seat, int) else None
        if kind == "play":
            tile = tile_of(event["tile"])
            if hidden is not None:
                hidden.give(tile)
            tracker.play(tile, event.get("end"))
        elif kind == "draw" and hidden is not None:
            if not event.get("lead"):
                hidden.forbid(_void_numbers(event, tracker))
            hidden.receive()
        elif kind == "pass" and hidden is not None:
            hidden.forbid(_void_numbers(event, tracker))
    return hands


def fits(tiles: Sequence[Tile], hidden: HiddenHand) -> bool:
    """Whether `tiles` can fill the inferred slots (a bipartite matching exists)."""
    if len(tiles) != len(hidden.slots) or any(t in hidden.banned for t in tiles):
        return False
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j, slot in enumerate(hidden.slots):
            if j in seen or tiles[i].low in slot or tiles[i].high in slot:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(tiles)))
