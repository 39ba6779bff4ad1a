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

from games.ai.inference import EndTracker, hand_of, initial_sizes, set_top, tile_of
from games.ai.line_weights import Weights
from games.ai.policy import Record, View
from games.core.tiles import Tile, full_set

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


def _numbers(event: Record, tracker: EndTracker) -> set[int]:
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
    previous: Record = {}
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


def deal_of(view: View, dealt: Mapping[int, Sequence[tuple[Tile, int]]], unseen: Sequence[Tile],
            rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Every seat's hand (the viewer's from the view) and a shuffled boneyard, from the
    hidden seats' tiles of a `sample`."""
    used = {t for tiles in dealt.values() for t, _ in tiles}
    boneyard = [t for t in unseen if t not in used]
    rng.shuffle(boneyard)
    me = view.get("seat")
    seats = len(view.get("hand_sizes") or ())
    hands = [list(hand_of(view)) if seat == me else [t for t, _ in dealt.get(seat, ())]
             for seat in range(seats)]
    return hands, boneyard


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


def log_likelihood(model: Model, reading: Reading, dealt: Mapping[int, Sequence[tuple[Tile, int]]]) -> float:
    """Log chance that the seats, holding the dealt tiles, make every observed play.

    The seats are either the model (mixed per play with a little chance) or, with prior
    `random_share`, uniformly random players: a deal is weighed under both, so against a
    random player the plays soon stop telling deals apart.
    """
    return Likelihood(model, reading)(dealt)


class Likelihood:
    """`log_likelihood` of one reading, with each seat's plays read once for every deal."""

    def __init__(self, model: Model, reading: Reading) -> None:
        self.share = model.random_share
        self.seats = [(seat, SeatReading(model, plays)) for seat, plays in _plays_by_seat(reading).items()]

    def __call__(self, dealt: Mapping[int, Sequence[tuple[Tile, int]]]) -> float:
        total = 0.0
        for seat, seat_reading in self.seats:
            mine, uniform = seat_reading.pair(dealt.get(seat, ()))
            total += mix(self.share, mine, uniform)
        return total


def _plays_by_seat(reading: Reading) -> dict[int, list[Play]]:
    by_seat: dict[int, list[Play]] = {}
    for play in reading.plays:
        by_seat.setdefault(play.seat, []).append(play)
    return by_seat


def mix(share: float, model: float, uniform: float) -> float:
    """log((1 - share) e^model + share e^uniform), the seat being either kind of player."""
    if share <= 0.0:
        return model
    a = math.log(1.0 - share) + model
    b = math.log(share) + uniform
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


def random_posterior(model: Model, reading: Reading,
                     deals: Sequence[Mapping[int, Sequence[tuple[Tile, int]]]]) -> dict[int, float]:
    """Each seat's chance of being a uniformly random player rather than the model, given
    its plays so far, with the deals (sampled from the voids alone) averaging out its tiles.

    The prior is `model.random_share`; a seat with no play that told the two apart keeps it.
    So the search can play out each seat as the kind of player it has shown itself to be.
    """
    share = min(max(model.random_share, 1e-6), 1.0 - 1e-6)
    out: dict[int, float] = {}
    for seat, plays in _plays_by_seat(reading).items():
        seat_reading = SeatReading(model, plays)
        pairs = [seat_reading.pair(dealt.get(seat, ())) for dealt in deals]
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


#: A play an opponent could make with one tile: the end, the score no deal changes (pips,
#: double) and the end values it would leave.
_Option = tuple[str, float, tuple[int, ...]]
#: One observed play, read once: when, how many tiles the seat held, the tiles it played
#: later that it held then, the tiles that fit, the tiles played before, what it could play.
_Row = tuple[int, int, list[int], int, int, dict[int, list[_Option]], tuple[Tile, str]]


class SeatReading:
    """One seat's plays read once, so that many deals can be weighed by them quickly.

    `pair(now)` is the log chance of the plays under the model (Medium's score of every play
    the seat could have made with the tiles `now` gives it, less what no deal changes) and
    under a random player; a test holds it equal to a plain, play-by-play reading. Whatever
    a deal cannot change (the tiles the seat played later, the ends, what each play would
    leave) is worked out here once, not once per deal.
    """

    def __init__(self, model: Model, plays: Sequence[Play]) -> None:
        stride = model.top + 1
        self.model = model
        self.stride = stride
        self.full = sum(_bit(t, stride) for t in full_set(model.top))
        self.carries = _carries(model.top)
        w = model.weights
        self.rows: list[_Row] = []
        for k, play in enumerate(plays):
            later = [_bit(play.tile, stride)]
            later += [_bit(p.tile, stride) for p in plays[k + 1:] if p.born < play.at]
            ends = dict(play.ends)
            fit = 0
            for v in ends.values():
                fit |= self.carries[v]
            options: dict[int, list[_Option]] = {}
            for tile in full_set(model.top):
                per_tile = []
                for name, v in ends.items():
                    if tile.has(v):
                        after = dict(ends)
                        after[name] = tile.other(v)
                        const = tile.pips * w.pips + (w.double if tile.is_double else 0.0)
                        per_tile.append((name, const, tuple(set(after.values()))))
                if per_tile:
                    options[_bit(tile, stride)] = per_tile
            seen = (play.tile, play.end)
            self.rows.append((play.at, play.size, later, fit, play.played_mask, options, seen))
        self.tile_of_bit = {_bit(t, stride): t for t in full_set(model.top)}

    def pair(self, now: Sequence[tuple[Tile, int]]) -> tuple[float, float]:
        """Log chance of the plays under the model, and under uniformly random play."""
        model = self.model
        w = model.weights
        spread, follow, scarce = w.spread, w.follow, w.scarce
        beta, chance = model.beta, model.chance
        carries = self.carries
        numbers = range(len(carries))
        stride = self.stride
        tile_of_bit = self.tile_of_bit
        dealt = [(_bit(t, stride), born) for t, born in now]
        total = 0.0
        uniform = 0.0
        for at, size, later, fit, played, options, seen in self.rows:
            kept = 0
            count = 0
            for bit, born in dealt:
                if born < at:
                    kept |= bit
                    count += 1
            held = kept
            for bit in later[: max(1, size - count)]:
                held |= bit
            unseen = self.full & ~held & ~played
            in_hand = [(held & carries[n]).bit_count() for n in numbers]
            out_hand = [(unseen & carries[n]).bit_count() for n in numbers]
            covered = sum(1 for c in in_hand if c)
            scores: list[float] = []
            chosen: float | None = None
            playable = held & fit
            while playable:
                bit = playable & -playable
                playable ^= bit
                tile = tile_of_bit[bit]
                a, b = tile.low, tile.high
                lone = (in_hand[a] == 1) + (b != a and in_hand[b] == 1)
                for name, const, values in options[bit]:
                    if held == bit:
                        score = 1000.0
                    else:
                        score = const + spread * (covered - lone)
                        for v in values:
                            score += follow * min(2, in_hand[v] - (v in (a, b)))
                            score -= scarce * out_hand[v]
                    if chosen is None and (tile, name) == seen:
                        chosen = score
                    scores.append(score)
            if len(scores) < 2:
                continue
            if chosen is None:
                chosen = min(scores)
            top = max(scores)
            z = sum(math.exp(beta * (s - top)) for s in scores)
            p = math.exp(beta * (chosen - top)) / z
            total += math.log((1.0 - chance) * p + chance / len(scores))
            uniform -= math.log(len(scores))
        return total, uniform
