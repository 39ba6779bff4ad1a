"""Five-Up: voids from draws and passes, Medium's heuristic and Hard's search.

Five-Up (docs/rules-fiveup.md) scores every play whose open ends count a multiple of five,
and every double is a spinner, so the count after a play, and after the next seat's reply,
is what a player weighs first. Both are read off `fiveup_sim.Layout`, the layout replayed
from the view's log (the engine's own views hold it to the same count).

- **Muggins** (a house rule): a play may claim its points, and points left unclaimed go to the
  next seat if it calls muggins. Medium and Hard always claim (they keep only the claiming
  form of each play) and always call muggins when it is legal: a call scores and leaves the
  turn as it was.
- **Medium** scores each play: the points it makes; minus the points the next seat may
  make in reply (the best reply of each unseen tile it may hold, weighed by the chance it
  holds one); heavy tiles shed, more as somebody nears the end of the hand; doubles early;
  ends its own hand can answer; ends an opponent is known to lack (a partner's the other way).
- **Hard** (`fiveup_search.py`) samples the hidden hands as the log allows, weighed by how
  well they explain the others' plays, and plays Medium's best few plays out to the end of
  the hand on each sampled deal (`fiveup_sim.Deal`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.ai.fiveup_search import budget_for, evaluate
from games.ai.fiveup_sim import (
    CARRIES,
    DOUBLE,
    INDEX,
    PIPS,
    TILES,
    Layout,
    fives,
    hidden_hands,
    index_of,
    replay,
    this_hand,
    unseen_tiles,
)
from games.ai.inference import HiddenHand, hand_of
from games.ai.policy import View
from games.ai.scored import Scored, only
from games.ai.search import heaviest_tile, my_side
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile


@dataclass(frozen=True, slots=True)
class Weights:
    """How much Medium values each feature of the position a play leaves (points are 1)."""

    #: The expected best reply of the next seat (an opponent), in points.
    threat: float = 0.7
    #: Per pip shed, and per pip more once a seat holds at most `near` tiles.
    pips: float = 0.05
    urgent_pips: float = 0.15
    near: int = 2
    #: A double played.
    double: float = 0.6
    #: Per tile kept that answers a number left open (two at most per number).
    follow: float = 0.3
    #: Per number the tiles kept carry.
    spread: float = 0.15
    #: Per number left open that an opponent is known to lack (a partner's: taken away).
    lock: float = 0.3


WEIGHTS = Weights()


def careful(legal: Sequence[Action]) -> list[Action]:
    """The actions a careful player chooses among: a muggins call whenever it is legal, and
    of the plays only the form that claims its points (where the room plays muggins)."""
    for action in legal:
        if action["type"] == "muggins":
            return [dict(action)]
    if any(a["type"] == "play" and a.get("claim") for a in legal):
        return [dict(a) for a in legal if a["type"] != "play" or a.get("claim")]
    return [dict(a) for a in legal]


def lacks(hidden: HiddenHand | None, number: int) -> bool:
    """Whether every tile the seat holds is known not to carry `number`."""
    return hidden is not None and bool(hidden.slots) and all(number in slot for slot in hidden.slots)


def reply_threat(after: Layout, unseen: Sequence[int], held: int, pool: int,
                 void: frozenset[int] = frozenset()) -> float:
    """The points the next seat is expected to score in reply: each unseen tile's best reply
    (tiles carrying only numbers it lacks left out), the best first, each counted by the
    chance that the seat holds it and none better (`held` tiles of `pool` unseen)."""
    if held <= 0 or pool <= 0:
        return 0.0
    best: list[int] = []
    values = after.values
    for tile in unseen:
        top = 0
        for e, v in enumerate(values):
            if v in void or not CARRIES[v] >> tile & 1:
                continue
            points = fives(after.count_after(e, tile))
            top = max(top, points)
        if top:
            best.append(top)
    if not best:
        return 0.0
    best.sort(reverse=True)
    p = min(1.0, held / pool)
    miss = 1.0
    total = 0.0
    for points in best:
        total += points * p * miss
        miss *= 1.0 - p
    return total


@dataclass(slots=True)
class Position:
    """What Medium reads of a view once per decision."""

    me: int
    hand: list[int]
    layout: Layout
    unseen: list[int]
    hidden: dict[int, HiddenHand]
    sizes: list[int]
    partners: set[int]
    next_seat: int


def position_of(view: View) -> Position:
    me = int(view["seat"])
    sizes = [int(n) for n in view.get("hand_sizes") or ()]
    teams = [list(t) for t in view.get("teams") or ()]
    side = my_side(view)
    return Position(
        me=me,
        hand=[INDEX[t] for t in hand_of(view)],
        layout=replay(this_hand(view.get("log") or ())),
        unseen=[INDEX[t] for t in unseen_tiles(view)],
        hidden=hidden_hands(view),
        sizes=sizes,
        partners=set(teams[side]) if teams else {me},
        next_seat=(me + 1) % max(1, len(sizes)),
    )


def play_score(pos: Position, tile: int, end: str | None, w: Weights = WEIGHTS) -> float:
    """Medium's score of laying `tile` on `end` (None: the lead)."""
    after = pos.layout.copy()
    if end is None:
        after.lead(tile)
    else:
        after.play(after.position(end), tile)
    points = fives(after.count)
    rest = [t for t in pos.hand if t != tile]
    if not rest:
        return 1000.0 + points
    score = float(points)
    nxt = pos.next_seat
    others = [s for s in range(len(pos.sizes)) if s not in pos.partners]
    near = min((pos.sizes[s] for s in others), default=99) <= w.near or len(rest) <= w.near
    score += PIPS[tile] * (w.pips + (w.urgent_pips if near else 0.0))
    if DOUBLE[tile]:
        score += w.double
    values = set(after.values)
    numbers = {n for t in rest for n in (TILES[t].low, TILES[t].high)}
    score += w.spread * len(numbers)
    for v in values:
        score += w.follow * min(2, sum(1 for t in rest if CARRIES[v] >> t & 1))
        for seat, hidden in pos.hidden.items():
            if lacks(hidden, v):
                score += -w.lock if seat in pos.partners else w.lock
    if nxt not in pos.partners:
        known = pos.hidden.get(nxt)
        void = frozenset(v for v in values if lacks(known, v))
        held = pos.sizes[nxt] if nxt < len(pos.sizes) else 0
        score -= w.threat * reply_threat(after, pos.unseen, held, len(pos.unseen), void)
    return score


class FiveUpKit:
    """Knowledge of Five-Up for Medium and Hard."""

    candidates = 6
    win_bonus = 0.0
    prior_weight = 1.0

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.weights = weights

    def budget(self, view: View) -> int:
        return budget_for(view)

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        return hidden_hands(view)

    def unseen(self, view: View) -> list[Tile]:
        return unseen_tiles(view)

    def medium(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> Action:
        options = careful(legal)
        if len(options) == 1:
            return options[0]
        scores = self.prior(rules, view, options, rng)
        return options[max(range(len(options)), key=lambda i: (scores[i], -i))]

    def prior(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        """Medium's score of every action (higher is better; going out beats all)."""
        pos = position_of(view)
        out: list[float] = []
        for action in legal:
            kind = action["type"]
            if kind == "muggins":
                out.append(2000.0)
            elif kind != "play":
                out.append(-1000.0)
            else:
                end = action.get("end")
                score = play_score(pos, index_of(action["tile"]), None if end is None else str(end),
                                   self.weights)
                out.append(score + (0.001 if action.get("claim") else 0.0))
        return out

    def rollout(self, rules: Rules[object], state: object, legal: list[Action], rng: random.Random) -> Action:
        """The generic search's playout move (Hard plays out in `fiveup_search.py` instead)."""
        return heaviest_tile(careful(legal), rng, noise=0.125, double_bonus=3.0)

    def special(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored | None:
        """Hard's whole decision (see `fiveup_search.py`)."""
        options = careful(legal)
        if len(options) == 1:
            return only(options[0])
        prior = self.prior(rules, view, options, rng)
        return evaluate(rules, view, options, prior, rng, budget=budget)


FIVEUP_KIT = FiveUpKit()
