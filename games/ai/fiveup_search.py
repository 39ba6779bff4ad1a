"""Hard's Five-Up search: determinized Monte Carlo on `fiveup_sim.Deal` playouts.

The view is read once per decision: the layout replayed from the log, the unseen tiles, and
each other hand as slots (`read_plays`): the numbers each slot's tile cannot carry (a draw or
a pass voids every number open then) and the draw that brought it. Each sampled deal fills
the slots most constrained first and leaves the rest, shuffled, as the boneyard
(`sample_slots`, as `sampling.sample_deal` does). Once another seat has chosen between
plays, `READ` deals are drawn and weighed by how well they explain those choices
(`play_weight`: a seat that played for fewer points than a tile it held would have scored
rarely held it), and the playouts' deals are resampled from them by weight.

Every candidate is laid on the same deals and the hand is played out with the same random
stream (common random numbers), each seat laying the play that scores most, else the
heaviest tile, one move in eight at random. A playout stops where the hand ends, scored by
the engine's own `score_hand` (reached through the rules object: `FiveUpFastPath`), or where
a side reaches the target, which ends the match even in mid-hand; it never deals the next
hand. Its outcome is the searching side's points gained less the other sides' mean, plus
`MATCH_BONUS` when its side reached the target (less when another did). Medium's score of
each candidate is added to its mean outcome as a prior, and only Medium's best few plays are
searched. The room's options reach the playouts through the view: seats and sides, the
target, and the muggins rule, which changes nothing inside a playout, where every seat
claims what it scores.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeGuard, runtime_checkable

from games.ai.fiveup_sim import (
    CARRIES,
    HIGH,
    INDEX,
    LOW,
    TILES,
    Deal,
    Layout,
    Table,
    fives,
    index_of,
    pip_count,
    replay,
    this_hand,
    unseen_tiles,
)
from games.ai.inference import hand_of
from games.ai.policy import View
from games.ai.rand import shuffle
from games.ai.scored import Scored, pick
from games.ai.search import my_side
from games.core.actions import Action
from games.core.protocol import Rules

#: Five-Up's fast path, as the search reaches it: Protocol classes, no import of the family.
#: The playouts score the end of a hand with the engine's own `score_hand` (a test holds the
#: rest of their rules to the engine's), reached through the rules object, never by importing
#: `games.fiveup` (the AI imports no game family): its `configure`, `NOBODY`, `fives_points`
#: and `score_hand` (`games/fiveup/rules.py`), the `FiveUpConfig` it resolves and the
#: `HandScore` it returns, each by the names read here.


@runtime_checkable
class FiveUpConfig(Protocol):
    """A match's fixed facts (`games.fiveup.options.FiveUpConfig`), the ones the search reads."""

    @property
    def players(self) -> int: ...
    @property
    def side(self) -> tuple[int, ...]: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def target(self) -> int: ...
    @property
    def muggins(self) -> bool: ...


@runtime_checkable
class HandScore(Protocol):
    """A scored hand (`games.fiveup.scoring.HandScore`): the winning side (or `NOBODY`) and the
    points each side scores."""

    @property
    def winner(self) -> int: ...
    @property
    def points(self) -> tuple[int, ...]: ...


@runtime_checkable
class FiveUpFastPath(Protocol):
    """What the Five-Up rules object offers a search beside the engine protocol."""

    NOBODY: int

    def configure(self, players: object, options: Mapping[str, object] | None) -> FiveUpConfig:
        """The match configuration a view's players and options resolve to."""
        ...

    def fives_points(self, count: int) -> int:
        """What an open-end count scores (count / 5 for a positive multiple of five)."""
        ...

    def score_hand(self, config: FiveUpConfig, pips: tuple[int, ...], out: int) -> HandScore:
        """The engine's scoring of a hand that ended with `out` dominoing (or `NOBODY`:
        blocked), from the pips each seat still holds."""
        ...


_FAST_PATHS: set[type] = set()


def _has_fast_path(rules: object) -> TypeGuard[FiveUpFastPath]:
    if type(rules) in _FAST_PATHS:
        return True
    if isinstance(rules, FiveUpFastPath):
        _FAST_PATHS.add(type(rules))
        return True
    return False


def fiveup_fast_path(rules: Rules[object]) -> FiveUpFastPath:
    """`rules` as Five-Up's fast path; `TypeError` for rules of another game."""
    if not _has_fast_path(rules):
        raise TypeError(f"{rules.name!r} has no Five-Up fast path")
    return rules


#: Playouts per decision heads-up and with more seats (work, never time).
BUDGET_TWO = 240
BUDGET_MORE = 160
#: Medium's best this many plays are searched.
CANDIDATES = 6
#: Playout policy: a random move this often; otherwise points scored (times `GREED`) plus
#: pips, a double counting `DOUBLE_BONUS` more.
NOISE = 0.125
GREED = 5.0
DOUBLE_BONUS = 4.5
#: Outcome of a playout in which the searching side reaches the target (taken away when
#: another side does).
MATCH_BONUS = 20.0
#: Medium's score added to each searched value, times this.
PRIOR_WEIGHT = 1.0


def budget_for(view: View) -> int:
    return BUDGET_TWO if len(view.get("hand_sizes") or ()) <= 2 else BUDGET_MORE


def table_of(rules: Rules[object], view: View) -> Table:
    """The match's facts from the view's options, resolved and scored by the engine."""
    engine = fiveup_fast_path(rules)
    config = engine.configure(len(view.get("hand_sizes") or ()), view.get("options") or {})
    score_hand = engine.score_hand
    nobody = engine.NOBODY

    def score(hands: Sequence[int], out: int | None) -> Sequence[int]:
        pips = tuple(pip_count(h) for h in hands)
        return score_hand(config, pips, nobody if out is None else out).points

    return Table(config.players, tuple(config.side), config.target, score)


#: Reading the plays: deals drawn per decision before the playouts' are chosen among them,
#: the sharpness of the model (per point a play scores) and its share of a random player.
READ = 100
BETA = 1.5
RANDOM_SHARE = 0.3
RESTARTS = 12

#: A hidden slot: the numbers its tile cannot carry, and the log index of the draw that
#: brought it (-1: dealt).
Slot = tuple[frozenset[int], int]


@dataclass(slots=True)
class Reading:
    """What the log says of the other hands, for weighing sampled deals by their plays.

    `slots[seat]`: the tiles the seat holds as slots (the voids of `hidden_hands`, with the
    time each slot arrived). `plays`: each play another seat made when it had a choice, as
    (log index, seat, the points it scored, the points each tile would have scored at its
    best end then, -1 where it did not fit).
    """

    slots: dict[int, list[Slot]]
    plays: list[tuple[int, int, int, tuple[int, ...]]]

    @property
    def choices(self) -> list[Choice]:
        """`plays` as the likelihood reads them: e to `BETA` times the points of the play, and
        of each tile's best (0 where the tile did not fit)."""
        return [(at, seat, math.exp(BETA * points),
                 tuple(math.exp(BETA * b) if b >= 0 else 0.0 for b in best))
                for at, seat, points, best in self.plays]


def read_plays(view: View) -> Reading:
    """The slots and the choices of every other seat in the hand under way."""
    me = view.get("seat")
    log = this_hand(view.get("log") or ())
    sizes = [int(n) for n in view.get("hand_sizes") or ()]
    for event in log:
        seat = event.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(sizes):
            if event.get("type") == "play":
                sizes[seat] += 1
            elif event.get("type") == "draw":
                sizes[seat] -= 1
    empty: frozenset[int] = frozenset()
    slots: dict[int, list[Slot]] = {s: [(empty, -1)] * n for s, n in enumerate(sizes) if s != me}
    plays: list[tuple[int, int, int, tuple[int, ...]]] = []
    layout = Layout()
    for at, event in enumerate(log):
        kind = event.get("type")
        seat = event.get("seat")
        held = slots.get(seat) if isinstance(seat, int) else None
        if kind == "play":
            tile = index_of(event["tile"])
            if held is not None:
                assert isinstance(seat, int)
                best = tuple(_best_points(layout, t) for t in range(len(TILES)))
                after = layout.copy()
                after.apply(event)
                plays.append((at, seat, fives(after.count), best))
                _give(held, tile)
            layout.apply(event)
        elif kind in ("draw", "pass") and held is not None:
            if layout.placed:
                banned = frozenset(layout.values)
                held[:] = [(ban | banned, born) for ban, born in held]
            if kind == "draw":
                held.append((empty, at))
    return Reading(slots, plays)


def _best_points(layout: Layout, tile: int) -> int:
    """The most a tile scores on the layout at its best end (-1: it fits no end)."""
    if not layout.placed:
        return fives(LOW[tile] + HIGH[tile])
    best = -1
    for e, v in enumerate(layout.values):
        if CARRIES[v] >> tile & 1:
            best = max(best, fives(layout.count_after(e, tile)))
    return best


def _give(held: list[Slot], tile: int) -> None:
    """Drop the slot that held a played tile: the most constrained that allows it (as
    `HiddenHand.give`)."""
    if not held:
        return
    a, b = LOW[tile], HIGH[tile]
    allowed = [i for i, (ban, _) in enumerate(held) if a not in ban and b not in ban]
    if allowed:
        pick_at = max(allowed, key=lambda i: (len(held[i][0]), i))
    else:
        pick_at = min(range(len(held)), key=lambda i: (len(held[i][0]), i))
    del held[pick_at]


def sample_slots(reading: Reading, pool: Sequence[int], rng: random.Random
                 ) -> tuple[dict[int, list[tuple[int, int]]], list[int]]:
    """The unseen tiles dealt to the slots (most constrained first, as `sampling.sample_deal`
    does): each seat's (tile, arrival) pairs, and the rest as the boneyard in draw order."""
    jobs = [(-len(ban), rng.random(), seat, ban, born)
            for seat, held in reading.slots.items() for ban, born in held]
    jobs.sort(key=lambda job: (job[0], job[1]))
    for attempt in range(RESTARTS + 1):
        left = list(pool)
        shuffle(rng, left)
        out: dict[int, list[tuple[int, int]]] = {seat: [] for seat in reading.slots}
        ok = True
        for _size, _key, seat, ban, born in jobs:
            if not ban:
                index: int | None = 0
            else:
                index = next((i for i, t in enumerate(left)
                              if LOW[t] not in ban and HIGH[t] not in ban), None)
            if index is None:
                if attempt < RESTARTS:
                    ok = False
                    break
                index = 0
            out[seat].append((left.pop(index), born))
        if ok:
            return out, left
    raise AssertionError("unreachable: the last attempt never fails")


#: A choice as the likelihood reads it: (log index, seat, e to `BETA` times the points of the
#: play, the same of each tile's best, 0 where it did not fit).
Choice = tuple[int, int, float, tuple[float, ...]]


def play_weight(choices: Sequence[Choice], dealt: dict[int, list[tuple[int, int]]]) -> float:
    """The log-likelihood of the other seats' plays on a deal: each play against the tiles
    the deal says the seat held then (those it still holds and had before that play), under
    a softmax of `BETA` per point scored mixed with a random player."""
    chance = 1.0
    share = RANDOM_SHARE
    for at, seat, mine, scale in choices:
        norm = mine
        n = 1
        for t, born in dealt.get(seat, ()):
            if born < at and scale[t]:
                norm += scale[t]
                n += 1
        if n > 1:
            chance *= (1.0 - share) * mine / norm + share / n
    return math.log(chance)


class Search:
    """One decision's search: the view read once, sampled deals, playouts."""

    def __init__(self, rules: Rules[object], view: View) -> None:
        self.view = view
        self.table = table_of(rules, view)
        self.layout = replay(this_hand(view.get("log") or ()))
        self.unseen = unseen_tiles(view)
        self.own = hand_of(view)
        self.me = int(view["seat"])
        self.side = my_side(view)
        self.before = [int(s) for s in view.get("scores") or ()]
        self.greed = GREED
        self.noise = NOISE
        self.double_bonus = DOUBLE_BONUS
        self.match_bonus = MATCH_BONUS
        self.reading = read_plays(view)
        self.choices = self.reading.choices if READ else []
        self.pool = [INDEX[t] for t in self.unseen]
        self.mine = sum(1 << INDEX[t] for t in self.own)

    def draw(self, rng: random.Random) -> tuple[Deal, float]:
        """A deal the voids allow, and the log-likelihood of the others' plays on it."""
        dealt, boneyard = sample_slots(self.reading, self.pool, rng)
        masks = [0] * self.table.players
        masks[self.me] = self.mine
        for seat, held in dealt.items():
            masks[seat] = sum(1 << t for t, _ in held)
        weight = play_weight(self.choices, dealt) if READ and self.reading.plays else 0.0
        return Deal(self.table, masks, boneyard, self.layout.copy(), scores=list(self.before),
                    seat=self.me), weight

    def deals(self, rng: random.Random, count: int) -> list[Deal]:
        """`count` deals for the playouts: drawn as the voids allow, or, once the others have
        chosen between plays, resampled from `READ` such deals by how well each explains
        their plays."""
        if not READ or not self.reading.plays:
            return [self.draw(rng)[0] for _ in range(count)]
        drawn = [self.draw(rng) for _ in range(max(READ, count))]
        top = max(w for _, w in drawn)
        weights = [math.exp(w - top) for _, w in drawn]
        step = sum(weights) / count
        point = rng.random() * step
        out: list[Deal] = []
        acc = 0.0
        for (deal, _), w in zip(drawn, weights):
            acc += w
            while point < acc and len(out) < count:
                out.append(deal)  # a deal drawn twice is played out twice: `values` copies it
                point += step
        out.extend(drawn[-1][0] for _ in range(count - len(out)))  # rounding at the very end
        return out

    def first_move(self, action: Action) -> tuple[int, int]:
        tile = index_of(action["tile"])
        end = action.get("end")
        return (tile, -1) if end is None else (tile, self.layout.position(str(end)))

    def outcome(self, after: Sequence[int]) -> float:
        gains = [a - b for a, b in zip(after, self.before)]
        mine = gains[self.side]
        others = [g for i, g in enumerate(gains) if i != self.side]
        value = float(mine) - (sum(others) / len(others) if others else 0.0)
        target = self.table.target
        if after[self.side] >= target:
            value += self.match_bonus
        elif max(after) >= target:
            value -= self.match_bonus
        return value

    def values(self, legal: Sequence[Action], rng: random.Random, budget: int) -> list[float]:
        """Mean outcome of each action over the same sampled deals and random streams."""
        return self.run(legal, self.deals(rng, max(2, budget // len(legal))), rng)

    def run(self, legal: Sequence[Action], deals: Sequence[Deal], rng: random.Random) -> list[float]:
        """Mean outcome of each action played out on each of `deals`, all actions of a deal
        from the same random stream."""
        firsts = [self.first_move(a) for a in legal]
        totals = [0.0] * len(legal)
        for deal in deals:
            stream = rng.getrandbits(64)
            for i, move in enumerate(firsts):
                d = deal.copy()
                if not d.step(move):
                    d.play_out(random.Random(stream), noise=self.noise, greed=self.greed,
                               double_bonus=self.double_bonus)
                totals[i] += self.outcome(d.scores)
        return [t / len(deals) for t in totals]


def evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
             budget: int, candidates: int | None = None) -> Scored:
    """Search Medium's best `candidates` plays; pick by mean outcome plus Medium's score."""
    most = CANDIDATES if candidates is None else candidates
    if len(legal) > most:
        ranked = sorted(range(len(legal)), key=lambda i: (-prior[i], i))[:most]
        keep = sorted(ranked)
        legal = [legal[i] for i in keep]
        prior = [prior[i] for i in keep]
    plays = [i for i, a in enumerate(legal) if a["type"] == "play"]
    if len(plays) < len(legal):  # a draw or a pass: never beside a play, so nothing to search
        return pick(legal, [0.0] * len(legal), prior)
    values = Search(rules, view).values(legal, rng, budget)
    return pick(legal, values, [v + PRIOR_WEIGHT * p for v, p in zip(values, prior)])
