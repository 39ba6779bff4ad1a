"""Hard's search for Block, Draw and All Fives, run from the line kit's `special` hook.

The same determinized Monte Carlo as `search.py` (every candidate played out on the same
sampled deals with the same random stream), with these changes, each per game in `PLANS`:

- The playouts follow each seat's hand, which the search knows on its own sampled deal
  (the hands it dealt and the boneyard in draw order), so the playout policy need not be
  "heaviest tile": in Block a partner-aware rule of thumb (keep numbers you can answer,
  close numbers the next seat lacks, never your partner's); in the `DRAW_AGAINST_MEDIUM`
  plan every seat plays Medium's own score on the sampled deal.
- That plan also weights the sampled deals by how likely the other seats' plays were under
  a Medium-like model of them (`line_infer.py`), so a deal that explains their choices
  counts for more than one that only respects their voids. It beats Medium more often and
  Easy less often, so Draw does not use it yet (see `PLANS`); Block weighs its deals so.
- The inference is read once per decision, not once per sampled deal, and in Block and Draw
  the sampled state carries a target of one point: the search never looks past the hand, so
  the engine need not deal a next hand at the end of every playout. The time saved buys
  the extra work above.
- Draw keeps the old heaviest-tile playouts and weights: it plays exactly as before. All
  Fives takes the candidates, deals and random stream from here but plays out in its own
  loop, which scores as it plays (`fives_search.py`).
- Off in every plan (`adapt`): each other seat is played out as random as its plays so far
  make it likely to be a random player rather than a Medium-like one (`random_posterior`),
  a legitimate reading of the public log meant to serve Easy and Medium opponents alike.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.ai.inference import HiddenHand, line_hidden_hands, tile_of, unseen_tiles
from games.ai.line_infer import Likelihood, Model, Reading, deal_of, random_posterior, read_view, sample
from games.ai.line_weights import Weights
from games.ai.policy import View
from games.ai.sampling import sample_deal
from games.ai.scored import Scored, pick
from games.ai.search import my_side
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile

PLAYOUT_CAP = 2000


@dataclass(frozen=True, slots=True)
class Plan:
    """How Hard spends a line-game decision (the tuned figures are in `PLANS`)."""

    #: Playouts per decision heads-up, and with more seats (work, not time).
    budget_two: int
    budget_more: int
    #: Search at most this many actions, Medium's best.
    candidates: int
    #: Points of outcome a won hand is worth beyond its points, and the weight of the points.
    win_bonus: float
    pip_weight: float
    #: Medium's score added to each searched value, times this.
    prior_weight: float
    #: How often a playout move is uniformly random (so playouts spread).
    noise: float
    #: Whether the playouts play the Medium-like policy (else the heaviest tile).
    smart: bool
    #: The opponent model weighting the sampled deals (`line_infer.py`): its sharpness, 0 for
    #: none, and its share of uniform chance.
    beta: float = 0.0
    #: Whether the playouts play Medium's own score, on the sampled deal (Block and Draw).
    medium: bool = False
    chance: float = 0.1
    random_share: float = 0.5
    #: Whether each other seat's playout moves are random as often as its plays so far make
    #: it likely to be a random player rather than a Medium-like one (`random_posterior`),
    #: judged on this many deals, from this prior share of random players.
    adapt: bool = False
    adapt_deals: int = 12
    adapt_prior: float = 0.5


#: Block partnerships gained from partner-aware playouts and more of them. In Draw, Medium's
#: own score in the playouts with the deals weighted by the plays (`DRAW_AGAINST_MEDIUM`)
#: beat Medium in 58.4% of 997 decided rounds (55.0% before) but Easy in only 68.6% of 999
#: (71.3% on the same rounds before), below the 70% kept as a floor, so Draw keeps the
#: heaviest-tile playouts, which play exactly as before, only faster. All Fives uses its
#: entry's budget and candidates in `fives_search.py`'s own playouts.
#: In Block partnerships against Easy none of these beat the plan below on 600 tuning hands
#: (74.2% of decided hands): 600 playouts with a win worth 40 (73.5%), playing each seat as
#: random as its plays look (`adapt`, 70.6%), and less playout noise, 0.05 (72.6%).
#: Block weighs its deals by the others' plays under the Medium-like model (`beta` 1.0, mixed
#: half and half with a random player): on 10,000 paired partnership hands against Easy it
#: gained +0.94 ± 0.52 points (72.2% of decided hands against 71.2%) for 37% more time.
#: `beta` 2.0 did as well on the first 2,000; `adapt` there lost 0.5 ± 1.25 points, and 1.7
#: from a prior of nine random players in ten: the playouts need opponents who answer ends.
#: `DRAW_AGAINST_MEDIUM` with `adapt` beat Easy in 70.8% of 999 decided Draw rounds (68.6%
#: without, 71.3% for the plan in use, same rounds) and Medium in 58.5% of 994 (58.4%
#: without, same rounds), but at 260 playouts it costs more than the heads-up time aim.
PLANS: dict[str, Plan] = {
    "block": Plan(budget_two=240, budget_more=320, candidates=6, win_bonus=15.0, pip_weight=1.0,
                  prior_weight=1.0, noise=0.125, smart=True, beta=1.0),
    "draw": Plan(budget_two=240, budget_more=160, candidates=6, win_bonus=15.0, pip_weight=1.0,
                 prior_weight=1.0, noise=0.125, smart=False),
    "allfives": Plan(budget_two=240, budget_more=160, candidates=6, win_bonus=15.0, pip_weight=1.0,
                     prior_weight=1.0, noise=0.125, smart=False),
}

DRAW_AGAINST_MEDIUM = Plan(budget_two=260, budget_more=320, candidates=6, win_bonus=30.0, pip_weight=1.0,
                           prior_weight=1.0, noise=0.125, smart=True, beta=2.0, chance=0.1,
                           random_share=0.5, medium=True)


class Board:
    """One sampled deal as the playout policy sees it: hands as bitmasks, ends by name.

    A tile's bit is `7 * low + high` style (`stride * low + high`), its own encoding, so the
    search reads nothing of the engine's state beyond the protocol.
    """

    __slots__ = ("boneyard", "drawn", "ends", "hands", "spinner", "spinner_value", "stride", "unplayed")

    def __init__(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile],
                 ends: Mapping[str, int], *, spinner: bool, spinner_value: int | None, stride: int,
                 unplayed: int) -> None:
        self.stride = stride
        self.unplayed = unplayed
        self.hands = [sum(1 << (t.low * stride + t.high) for t in hand) for hand in hands]
        self.boneyard = [t.low * stride + t.high for t in boneyard]
        self.drawn = 0
        self.ends = dict(ends)
        self.spinner = spinner
        self.spinner_value = spinner_value

    def copy(self) -> Board:
        other = object.__new__(Board)
        other.stride = self.stride
        other.unplayed = self.unplayed
        other.hands = list(self.hands)
        other.boneyard = self.boneyard
        other.drawn = self.drawn
        other.ends = dict(self.ends)
        other.spinner = self.spinner
        other.spinner_value = self.spinner_value
        return other

    def apply(self, seat: int, action: Action) -> None:
        kind = action["type"]
        if kind == "play":
            a, b = action["tile"]
            if a > b:
                a, b = b, a
            bit = 1 << (a * self.stride + b)
            self.hands[seat] &= ~bit
            self.unplayed &= ~bit
            end = action.get("end")
            if end is None or not self.ends:
                self.ends = {"left": a, "right": b}
            else:
                base = self.ends.get(end, self.spinner_value)
                if base is not None:
                    self.ends[end] = b if a == base else a
            if self.spinner and a == b and self.spinner_value is None:
                self.spinner_value = a
        elif kind == "draw" and self.drawn < len(self.boneyard):
            self.hands[seat] |= 1 << self.boneyard[self.drawn]
            self.drawn += 1


@dataclass(frozen=True, slots=True)
class Tables:
    """Masks of a set under the board's encoding: the tiles carrying each number, and pips."""

    stride: int
    carries: tuple[int, ...]
    top: int


_TABLES: dict[int, Tables] = {}


def tables(top: int) -> Tables:
    found = _TABLES.get(top)
    if found is None:
        stride = top + 1
        carries = tuple(
            sum(1 << (min(n, m) * stride + max(n, m)) for m in range(top + 1)) for n in range(top + 1)
        )
        found = _TABLES[top] = Tables(stride, carries, top)
    return found


def smart_move(board: Board, seat: int, legal: list[Action], rng: random.Random, *, noise: float,
               next_seat: int, partner: bool, t: Tables) -> Action:
    """Medium's rules of thumb on the full sampled deal, cheap enough for every playout ply.

    Shed doubles and heavy tiles, keep the numbers you can answer on the ends you leave, and
    leave an end the next seat cannot answer (unless that seat is your partner).
    """
    if rng.random() < noise:
        return rng.choice(legal)
    hand = board.hands[seat]
    nxt = board.hands[next_seat]
    carries = t.carries
    stride = t.stride
    ends = board.ends
    best = legal[0]
    top = -1e9
    for action in legal:
        a, b = action["tile"]
        if a > b:
            a, b = b, a
        rest = hand & ~(1 << (a * stride + b))
        end = action.get("end")
        score = a + b + rng.random()
        if a == b:
            score += 6.0
        shown: tuple[int, ...]
        if end is None:
            shown = (a, b)
        else:
            base = ends.get(end, board.spinner_value)
            new = b if a == base else a
            shown = tuple(new if name == end else v for name, v in ends.items())
            if end not in ends:
                shown = (*shown, new)
        for v in shown:
            mine = rest & carries[v]
            if mine:
                score += 3.0 if mine & (mine - 1) else 2.0
            if not nxt & carries[v]:
                score += -2.0 if partner else 2.0
        if score > top:
            top, best = score, action
    return best


def medium_move(board: Board, seat: int, legal: list[Action], rng: random.Random, *, noise: float,
                w: Weights, t: Tables) -> Action:
    """Medium's score of each play (its pips, doubles, spread, follow and scarce terms), on
    the board: the opponent is modelled as the heuristic that Medium plays."""
    if rng.random() < noise:
        return rng.choice(legal)
    hand = board.hands[seat]
    carries = t.carries
    stride = t.stride
    ends = board.ends
    unseen = board.unplayed & ~hand
    best = legal[0]
    top = -1e9
    for action in legal:
        a, b = action["tile"]
        if a > b:
            a, b = b, a
        bit = 1 << (a * stride + b)
        rest = hand & ~bit
        if not rest:
            return action
        end = action.get("end")
        if end is None:
            values = {a, b}
        else:
            base = ends.get(end, board.spinner_value)
            new = b if a == base else a
            values = {new if name == end else v for name, v in ends.items()}
            values.add(new)
        score = (a + b) * w.pips + (w.double if a == b else 0.0) + rng.random() * 0.01
        score += w.spread * sum(1 for mask in carries if rest & mask)
        for v in values:
            score += w.follow * min(2, (rest & carries[v]).bit_count())
            score -= w.scarce * (unseen & carries[v] & ~bit).bit_count()
        if score > top:
            top, best = score, action
    return best


def heaviest(legal: list[Action], rng: random.Random, noise: float) -> Action:
    """The old playout policy: the heaviest tile, doubles first (kept for comparison)."""
    if rng.random() < noise:
        return rng.choice(legal)
    best = legal[0]
    top = -1.0
    for action in legal:
        a, b = action["tile"]
        weight = a + b + (4.5 if a == b else 0.0) + rng.random()
        if weight > top:
            top, best = weight, action
    return best


class Search:
    """One decision's search: the inference, the sampled deals and the playouts."""

    def __init__(self, rules: Rules[object], view: View, plan: Plan, weights: Weights | None = None) -> None:
        self.rules = rules
        self.plan = plan
        self.view = view
        self.hidden: dict[int, HiddenHand] = line_hidden_hands(view)
        self.unseen: list[Tile] = unseen_tiles(view)
        self.side = my_side(view)
        self.teams = [list(t) for t in view.get("teams") or ()]
        self.side_of = {seat: s for s, seats in enumerate(self.teams) for seat in seats}
        self.players = len(view.get("hand_sizes") or ())
        self.before: list[int] = [int(s) for s in view.get("scores") or ()]
        self.hand = int(view.get("hand_number") or 0)
        options = view.get("options") or {}
        self.top = int(options.get("set", 6))
        self.t = tables(self.top)
        self.spinner = bool(options.get("spinner"))
        self.fives = view.get("game") == "allfives"
        self.base_view = self._base_view(view)
        self.ends, self.spinner_value = self._ends(view)
        self.unplayed = self._unplayed(view)
        self.weights = weights
        self.reading: Reading | None = None
        self.model: Model | None = None
        self.likelihood: Likelihood | None = None
        if plan.beta > 0 and not self.fives and weights is not None:
            self.reading = read_view(view)
            if self.reading.plays:
                self.model = Model(weights, plan.beta, plan.chance, self.top, plan.random_share)
                self.likelihood = Likelihood(self.model, self.reading)
        self.noise_of = [plan.noise] * max(self.players, 1)
        self.posterior: dict[int, float] = {}

    def adapt(self, rng: random.Random) -> None:
        """Set each other seat's playout noise from how random its plays so far look."""
        if not self.plan.adapt or self.fives or self.weights is None:
            return
        reading = self.reading if self.reading is not None else read_view(self.view)
        if not reading.plays:
            self.posterior = {}
        else:
            model = Model(self.weights, 2.0, self.plan.chance, self.top, self.plan.adapt_prior)
            deals = [sample(reading, self.unseen, rng) for _ in range(self.plan.adapt_deals)]
            self.posterior = random_posterior(model, reading, deals)
        me = int(self.view["seat"])
        base = self.plan.noise
        for seat in range(self.players):
            if seat != me:
                q = self.posterior.get(seat, self.plan.adapt_prior)
                self.noise_of[seat] = base + (1.0 - base) * q

    def _base_view(self, view: View) -> View:
        """The view the sampled states are built from: in Block and Draw a target of one point
        ends the match at the end of this hand, so no next hand is dealt in the playouts; a
        started hand's lead no longer needs the last hand."""
        if self.fives:
            return view
        out = dict(view)
        out["options"] = dict(view.get("options") or {}, target=1)
        if any(e.get("type") == "play" for e in view.get("log") or ()):
            out["last_hand"] = None
        return out

    def _unplayed(self, view: View) -> int:
        stride = self.t.stride
        mask = sum(1 << (a * stride + b) for a in range(self.top + 1) for b in range(a, self.top + 1))
        for event in view.get("log") or ():
            if event.get("type") == "play":
                tile = tile_of(event["tile"])
                mask &= ~(1 << (tile.low * stride + tile.high))
        return mask

    def _ends(self, view: View) -> tuple[dict[str, int], int | None]:
        ends = {str(e["id"]): int(e["value"]) for e in view.get("ends") or ()}
        value = None
        if self.spinner:
            for event in view.get("log") or ():
                if event.get("type") == "play":
                    tile = tile_of(event["tile"])
                    if tile.is_double:
                        value = tile.low
                        break
        return ends, value

    def sample_hands(self, rng: random.Random) -> tuple[list[list[Tile]], list[Tile], float]:
        """Sampled hands, a boneyard, and the log-likelihood of the others' plays on them."""
        if self.reading is not None and self.likelihood is not None:
            dealt = sample(self.reading, self.unseen, rng)
            hands, boneyard = deal_of(self.view, dealt, self.unseen, rng)
            return hands, boneyard, self.likelihood(dealt)
        hands, boneyard = sample_deal(self.view, self.hidden, self.unseen, rng)
        return hands, boneyard, 0.0

    def deal(self, rng: random.Random) -> tuple[object, Board, float]:
        """A sampled state, its board, and the log-likelihood of the others' plays on it."""
        hands, boneyard, weight = self.sample_hands(rng)
        state = self.rules.state_from_view(self.base_view, hands, boneyard)
        board = Board(hands, boneyard, self.ends, spinner=self.spinner, spinner_value=self.spinner_value,
                      stride=self.t.stride, unplayed=self.unplayed)
        return state, board, weight

    def playout(self, state: object, board: Board, rng: random.Random) -> object:
        rules = self.rules
        plan = self.plan
        players = self.players
        side_of = self.side_of
        noise_of = self.noise_of
        follow = plan.smart or (plan.medium and self.weights is not None and not self.fives)
        for _ in range(PLAYOUT_CAP):
            seat = rules.to_move(state)
            if seat is None or rules.hand_index(state) != self.hand:
                return state
            legal = rules.legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            elif plan.medium and self.weights is not None and not self.fives:
                action = medium_move(board, seat, legal, rng, noise=noise_of[seat], w=self.weights, t=self.t)
            elif plan.smart:
                nxt = (seat + 1) % players
                action = smart_move(board, seat, legal, rng, noise=noise_of[seat], next_seat=nxt,
                                    partner=side_of.get(nxt) == side_of.get(seat), t=self.t)
            else:
                action = heaviest(legal, rng, noise_of[seat])
            if follow:
                board.apply(seat, action)
            state = rules.advance(state, action)
        return state

    def outcome(self, state: object) -> float:
        return self.scores_outcome(self.rules.scores(state))

    def scores_outcome(self, after: Sequence[int]) -> float:
        """The searching side's outcome from the scores a playout ended with."""
        gains = [a - b for a, b in zip(after, self.before)]
        mine = gains[self.side]
        others = [g for i, g in enumerate(gains) if i != self.side]
        if not others:
            return float(mine)
        best = max(others)
        bonus = self.plan.win_bonus if mine > best else -self.plan.win_bonus if mine < best else 0.0
        return self.plan.pip_weight * (mine - sum(others) / len(others)) + bonus

    def values(self, legal: Sequence[Action], rng: random.Random, budget: int) -> list[float]:
        samples = max(2, budget // len(legal))
        me = int(self.view["seat"])
        self.adapt(rng)
        rows: list[tuple[float, list[float]]] = []
        for _ in range(samples):
            state, board, weight = self.deal(rng)
            stream = rng.getrandbits(64)
            row = []
            for action in legal:
                b = board.copy()
                b.apply(me, action)
                after = self.rules.advance(state, action)
                end = self.playout(after, b, random.Random(stream))
                row.append(self.outcome(end))
            rows.append((weight, row))
        return weighted_means(rows, len(legal))


def weighted_means(rows: Sequence[tuple[float, Sequence[float]]], width: int) -> list[float]:
    """Each column's mean over the rows, each row weighted by e to its log-likelihood."""
    top = max(w for w, _ in rows)
    weights = [math.exp(w - top) for w, _ in rows]
    total = sum(weights)
    return [sum(w * row[i] for w, (_, row) in zip(weights, rows)) / total for i in range(width)]


def evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
             budget: int, plan: Plan, weights: Weights | None = None,
             search: type[Search] | None = None) -> Scored:
    """Search Medium's best `plan.candidates` actions and add its score as a prior; `search`
    is the `Search` that plays them out (All Fives has its own)."""
    if len(legal) > plan.candidates:
        ranked = sorted(range(len(legal)), key=lambda i: (-prior[i], i))[: plan.candidates]
        keep = sorted(ranked)
        legal = [legal[i] for i in keep]
        prior = [prior[i] for i in keep]
    values = (search or Search)(rules, view, plan, weights).values(legal, rng, budget)
    return pick(legal, values, [v + plan.prior_weight * p for v, p in zip(values, prior)])


def plan_for(view: View) -> Plan:
    return PLANS.get(str(view.get("game")), PLANS["draw"])

