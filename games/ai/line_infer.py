"""Reading an opponent's choices, not only its passes: how likely a sampled deal made its plays.

A pass or a draw proves a void (`inference.py`); a play proves less but says a lot about a
Medium-like player: one that played a light tile while a double fitted probably had no
fitting double. So each sampled deal is weighted by the chance that a Medium-like model of
the other seats makes the plays they made, holding the tiles the deal gives them at the time.
The model is mixed with a uniform choice, so a random player's plays cost a deal little.

To know which tiles a seat held at an earlier play, each hidden tile slot keeps the moment
its tile arrived (dealt, or drawn later), and the sampler here reports the slot of every
tile it deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from games.ai.inference import EndTracker, initial_sizes, set_top, tile_of
from games.ai.policy import View
from games.core.tiles import Tile, full_set

if TYPE_CHECKING:
    from games.ai.line import Weights

RESTARTS = 12
DEALT = -1


@dataclass(slots=True)
class Slot:
    """One hidden tile: the numbers it cannot carry, and the log index of its arrival."""

    banned: frozenset[int]
    born: int


@dataclass(frozen=True, slots=True)
class Play:
    """A play by a hidden seat: when, what, and the open ends (by name) it was made on."""

    at: int
    seat: int
    tile: Tile
    end: str
    ends: tuple[tuple[str, int], ...]
    played_mask: int
    #: Tiles the seat held just before, and when the tile played probably arrived (a play
    #: straight after the seat's own draw most often plays the tile drawn).
    size: int
    born: int


@dataclass(slots=True)
class Reading:
    """A view read for the search: every hidden seat's slots and its plays this hand."""

    slots: dict[int, list[Slot]] = field(default_factory=dict)
    plays: list[Play] = field(default_factory=list)


def _numbers(event: Mapping[str, Any], tracker: EndTracker) -> set[int]:
    for key in ("values", "ends"):
        numbers = event.get(key)
        if isinstance(numbers, list) and all(type(n) is int for n in numbers):
            return set(numbers)
    return tracker.values()


def _give(slots: list[Slot], tile: Tile) -> None:
    """Drop the slot that most plausibly held `tile`, as `HiddenHand.give` does."""
    if not slots:
        return
    allowed = [i for i, s in enumerate(slots) if tile.low not in s.banned and tile.high not in s.banned]
    if allowed:
        pick = max(allowed, key=lambda i: (len(slots[i].banned), i))
    else:
        pick = min(range(len(slots)), key=lambda i: (len(slots[i].banned), i))
    del slots[pick]


def read_view(view: View) -> Reading:
    """The same voids as `line_hidden_hands`, with each slot's arrival and the plays made."""
    me = view.get("seat")
    sizes = initial_sizes(view)
    out = Reading()
    out.slots = {seat: [Slot(frozenset(), DEALT) for _ in range(size)]
                 for seat, size in enumerate(sizes) if seat != me}
    tracker = EndTracker(bool((view.get("options") or {}).get("spinner")))
    stride = set_top(view) + 1
    played_mask = 0
    held = list(sizes)
    previous: Mapping[str, Any] = {}
    for at, event in enumerate(view.get("log") or ()):
        kind = event.get("type")
        seat = event.get("seat")
        slots = out.slots.get(seat) if isinstance(seat, int) else None
        if kind == "play" and isinstance(seat, int):
            tile = tile_of(event["tile"])
            end = event.get("end")
            if slots is not None:
                if isinstance(end, str) and tracker.ends and end in tracker.ends:
                    fresh = previous.get("type") == "draw" and previous.get("seat") == seat
                    out.plays.append(Play(at, seat, tile, end, tuple(tracker.ends.items()),
                                          played_mask, held[seat], at - 1 if fresh else DEALT))
                _give(slots, tile)
            played_mask |= _bit(tile, stride)
            tracker.play(tile, end)
            if seat < len(held):
                held[seat] -= 1
        elif kind == "draw" and isinstance(seat, int) and seat < len(held):
            held[seat] += 1
        previous = event
        if kind in ("draw", "pass") and slots is not None:
            if not (kind == "draw" and event.get("lead")):
                extra = frozenset(_numbers(event, tracker))
                for s in slots:
                    s.banned |= extra
            if kind == "draw":
                slots.append(Slot(frozenset(), at))
    return out


def _try(reading: Reading, pool: Sequence[Tile], rng: random.Random,
         strict: bool) -> dict[int, list[tuple[Tile, int]]] | None:
    jobs = [(len(s.banned), rng.random(), seat, s) for seat, slots in reading.slots.items() for s in slots]
    jobs.sort(key=lambda job: (-job[0], job[1]))
    left = list(pool)
    rng.shuffle(left)
    out: dict[int, list[tuple[Tile, int]]] = {seat: [] for seat in reading.slots}
    for _size, _key, seat, slot in jobs:
        banned = slot.banned
        index = next((i for i, t in enumerate(left) if t.low not in banned and t.high not in banned), None)
        if index is None:
            if strict:
                return None
            index = 0
        out[seat].append((left.pop(index), slot.born))
    return out


def sample(reading: Reading, unseen: Sequence[Tile], rng: random.Random) -> dict[int, list[tuple[Tile, int]]]:
    """Each hidden seat's tiles with their arrival, consistent with the voids where possible."""
    needed = sum(len(s) for s in reading.slots.values())
    if needed > len(unseen):
        raise ValueError(f"the view hides {needed} tiles but only {len(unseen)} are unseen")
    for attempt in range(RESTARTS + 1):
        dealt = _try(reading, unseen, rng, strict=attempt < RESTARTS)
        if dealt is not None:
            return dealt
    raise AssertionError("the relaxed deal always succeeds")


@dataclass(frozen=True, slots=True)
class Model:
    """The Medium-like model of the other seats: its weights, sharpness and share of chance."""

    weights: Weights
    beta: float
    chance: float
    top: int
    #: Prior share of a uniformly random player, against which the model is weighed per deal.
    random_share: float = 0.0


def _bit(tile: Tile, stride: int) -> int:
    return 1 << (tile.low * stride + tile.high)


@cache
def _carries(top: int) -> tuple[int, ...]:
    stride = top + 1
    return tuple(sum(1 << (min(n, m) * stride + max(n, m)) for m in range(stride)) for n in range(stride))


def _score(model: Model, tile: Tile, end: str, ends: dict[str, int], *, rest: int, unseen: int,
           carries: tuple[int, ...]) -> float:
    """Medium's score of a play, less the terms no deal changes (going out beats all).

    `rest` and `unseen` are masks: the seat's other tiles, and the tiles it has not seen.
    """
    if not rest:
        return 1000.0
    w = model.weights
    after = dict(ends)
    after[end] = tile.other(ends[end])
    score = tile.pips * w.pips + (w.double if tile.is_double else 0.0)
    score += w.spread * sum(1 for mask in carries if rest & mask)
    for v in set(after.values()):
        score += w.follow * min(2, (rest & carries[v]).bit_count())
        score -= w.scarce * (unseen & carries[v]).bit_count()
    return score


def log_likelihood(model: Model, reading: Reading, dealt: Mapping[int, Sequence[tuple[Tile, int]]]) -> float:
    """Log chance that the seats, holding the dealt tiles, make every observed play.

    The seats are either the model (mixed per play with a little chance) or, with prior
    `random_share`, uniformly random players: a deal is weighed under both, so against a
    random player the plays soon stop telling deals apart.
    """
    total = 0.0
    full = sum(_bit(t, model.top + 1) for t in full_set(model.top))
    carries = _carries(model.top)
    by_seat: dict[int, list[Play]] = {}
    for play in reading.plays:
        by_seat.setdefault(play.seat, []).append(play)
    for seat, plays in by_seat.items():
        mine, uniform = _seat_likelihood(model, plays, dealt.get(seat, ()), full, carries)
        total += _mix(model.random_share, mine, uniform)
    return total


def _mix(share: float, model: float, uniform: float) -> float:
    """log((1 - share) e^model + share e^uniform), the seat being either kind of player."""
    if share <= 0.0:
        return model
    a = math.log(1.0 - share) + model
    b = math.log(share) + uniform
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


def _seat_likelihood(model: Model, plays: Sequence[Play], now: Sequence[tuple[Tile, int]],
                     full: int, carries: tuple[int, ...]) -> tuple[float, float]:
    """Log chance of one seat's plays under the model, and under uniformly random play."""
    total = 0.0
    uniform = 0.0
    for k, play in enumerate(plays):
        later = [play.tile] + [p.tile for p in plays[k + 1:] if p.born < play.at]
        kept = [t for t, born in now if born < play.at]
        # Too many: some later plays were of tiles drawn since; the latest are likeliest.
        later = later[: max(1, play.size - len(kept))]
        held = set(kept + later)
        ends = dict(play.ends)
        options = [(t, name) for t in held for name, v in ends.items() if t.has(v)]
        if len(options) < 2:
            continue
        stride = model.top + 1
        mask = sum(_bit(t, stride) for t in held)
        unseen = full & ~mask & ~play.played_mask
        scores = [_score(model, t, name, ends, rest=mask & ~_bit(t, stride), unseen=unseen, carries=carries)
                  for t, name in options]
        seen = (play.tile, play.end)
        chosen = scores[options.index(seen)] if seen in options else min(scores)
        top = max(scores)
        z = sum(math.exp(model.beta * (s - top)) for s in scores)
        p = math.exp(model.beta * (chosen - top)) / z
        total += math.log((1.0 - model.chance) * p + model.chance / len(options))
        uniform -= math.log(len(options))
    return total, uniform


def random_posterior(model: Model, reading: Reading,
                     deals: Sequence[Mapping[int, Sequence[tuple[Tile, int]]]]) -> dict[int, float]:
    """Each seat's chance of being a uniformly random player rather than the model, given
    its plays so far, with the deals (sampled from the voids alone) averaging out its tiles.

    The prior is `model.random_share`; a seat with no play that told the two apart keeps it.
    So the search can play out each seat as the kind of player it has shown itself to be.
    """
    full = sum(_bit(t, model.top + 1) for t in full_set(model.top))
    carries = _carries(model.top)
    by_seat: dict[int, list[Play]] = {}
    for play in reading.plays:
        by_seat.setdefault(play.seat, []).append(play)
    share = min(max(model.random_share, 1e-6), 1.0 - 1e-6)
    out: dict[int, float] = {}
    for seat, plays in by_seat.items():
        pairs = [_seat_likelihood(model, plays, dealt.get(seat, ()), full, carries) for dealt in deals]
        if not pairs:
            continue
        mine = _log_mean_exp([m for m, _ in pairs]) + math.log(1.0 - share)
        uniform = _log_mean_exp([u for _, u in pairs]) + math.log(share)
        top = max(mine, uniform)
        out[seat] = math.exp(uniform - top) / (math.exp(mine - top) + math.exp(uniform - top))
    return out


def _log_mean_exp(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values) / len(values))
