"""Hard's heads-up Draw endgame: once nobody may draw, the hand is solved exactly.

In two-player Draw the last `boneyard_reserve` tiles are never drawn. Once the boneyard is
down to them, nothing is left to chance: the opponent holds the unseen tiles less the ones
lying in the boneyard, and there are few ways to choose those (`C(n + 2, 2)` for an
opponent holding `n`). Each such deal that the opponent's voids allow is a perfect-information
game of two hands and two ends, which an alpha-beta search with a transposition table solves
exactly, counting only what the simulations count: a won hand, a tie, a lost hand. Hard takes
the play that wins in most of those deals (loses in fewest), Medium's score breaking ties.

Playouts guess their way through an endgame with a rule of thumb; an exact answer per deal
cannot do worse there, and the endgame is where a heads-up hand is mostly decided. The work
is bounded by a count of searched positions: a position too big to solve in it is left to
the ordinary search, so a decision stays deterministic and its cost bounded.

The rules of a move at the floor follow `games.line.moves` (play on a matching end, pass when
nothing fits, the hand ends when a hand is empty or nothing fits any hand); the hand's score
is the engine's own `score_hand`, reached through the rules object (the AI imports no game
family). A test holds the solver's results equal to exhaustive play through the engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from games.ai import line_search
from games.ai.fives_search import FivesSearch
from games.ai.inference import HiddenHand, fits, hand_of, line_hidden_hands, unseen_tiles
from games.ai.line_infer import Model, SeatReading, deal_of, mix, read_view, sample
from games.ai.line_search import PLAYOUT_CAP, Plan
from games.ai.policy import View
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile

if TYPE_CHECKING:
    from games.ai.line import Weights

#: Positions searched in one decision, over every deal and action, before it gives up.
NODE_BUDGET = 30000

#: Positions one playout may search to finish its hand exactly, before it plays on instead.
PLAYOUT_SOLVE_BUDGET = 400

#: The most tiles left in both hands for a playout to solve its endgame: bigger ones mostly
#: run out of `PLAYOUT_SOLVE_BUDGET` (60% of those with 17 tiles, all with 20), wasting it.
SOLVE_MAX_TILES = 16

#: Whether a playout that reaches the floor ends with the endgame's exact result.
SOLVE_IN_PLAYOUTS = True

#: Whether the playouts' deals are drawn by how well they explain the opponent's plays.
READ_PLAYS = True

#: Void-respecting deals weighed per decision, of which the playouts' deals are drawn.
DEALS_READ = 100

#: The opponent model weighing deals (`line_infer.Model`): sharpness, the chance mixed into
#: each play, and the prior share of a uniformly random player.
PLAY_MODEL = (2.0, 0.1, 0.5)

#: Pips a hand solved inside a playout is taken to be won by (a playout-ended hand counts its
#: real pips), so a solved win weighs about as much as a played-out one.
SOLVED_POINTS = 15.0

#: Whether both seats play Medium's own score in the playouts (else the heaviest tile).
MEDIUM_PLAYOUTS = True

#: A sampled deal: every seat's hand and the boneyard in draw order.
Deal = tuple[list[list[Tile]], list[Tile]]

WIN, TIE, LOSS = 1, 0, -1
_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The endgame is too big for the decision's budget: the ordinary search decides."""


class Endgame:
    """Exact won/tied/lost value of a two-hand Draw position with no drawing left.

    Hands are the engine's tile masks (`config.tiles`); `me` is the seat whose result counts.
    """

    def __init__(self, rules: Rules[Any], config: Any, me: int, budget: int = NODE_BUDGET) -> None:
        line: Any = rules
        self.score_hand = line.score_hand
        self.nobody: int = line.NOBODY
        self.config = config
        self.tiles = config.tiles
        self.suit: tuple[int, ...] = self.tiles.suit
        self.me = me
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.leaves: dict[tuple[int, int, int], int] = {}

    def result(self, hands: Sequence[int], out: int) -> int:
        """WIN, TIE or LOSS for `me` of a hand ending with `hands` (`out` went out, or nobody)."""
        config = self.config
        pips = tuple(self.tiles.pip_count(h, config.double_blank) for h in hands)
        score = self.score_hand(config, pips, out)
        if score.winner == self.nobody:
            return TIE
        return WIN if score.winner == config.side[self.me] else LOSS

    def after(self, hands: list[int], seat: int, bit: int, left: int, right: int) -> tuple[int | None, int]:
        """Play `bit` for `seat`: (the hand's result, or None, and the seat to move next)."""
        hands[seat] &= ~bit
        if not hands[seat]:
            return self.result(hands, seat), seat
        fit = self.suit[left] | self.suit[right]
        other = 1 - seat
        if hands[other] & fit:
            return None, other
        if hands[seat] & fit:
            return None, seat
        return self.result(hands, self.nobody), seat

    def value(self, h0: int, h1: int, left: int, right: int, seat: int, *, alpha: int = LOSS,
              beta: int = WIN) -> int:
        """The position's value for `me`, `seat` to move and holding a playable tile.

        The plays that go out or leave the other seat without a play are tried first: they
        settle most positions, so alpha-beta cuts sooner. This is where a heads-up Draw
        decision spends most of its time.
        """
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        lo, hi = (left, right) if left <= right else (right, left)
        key = (h0, h1, lo, hi, seat)
        table = self.table
        found = table.get(key)
        if found is not None:
            v, kind = found
            if kind == _EXACT or (kind == _LOWER and v >= beta) or (kind == _UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        maximise = seat == self.me
        best = LOSS - 1 if maximise else WIN + 1
        suit = self.suit
        low, high = self.tiles.low, self.tiles.high
        hand, other = (h0, h1) if seat == 0 else (h1, h0)
        playable = hand & (suit[lo] | suit[hi])
        forcing: list[tuple[int, int, int]] = []
        rest_moves: list[tuple[int, int, int]] = []
        while playable:
            bit = playable & -playable
            playable ^= bit
            i = bit.bit_length() - 1
            a, b = low[i], high[i]
            rest = hand & ~bit
            if lo in (a, b):
                new_left = b if a == lo else a
                if not rest or not other & (suit[new_left] | suit[hi]):
                    forcing.append((rest, new_left, hi))
                else:
                    rest_moves.append((rest, new_left, hi))
            if hi != lo and (hi in (a, b)):
                new_right = b if a == hi else a
                if not rest or not other & (suit[lo] | suit[new_right]):
                    forcing.append((rest, lo, new_right))
                else:
                    rest_moves.append((rest, lo, new_right))
        for rest, new_left, new_right in forcing + rest_moves:
            n0, n1 = (rest, other) if seat == 0 else (other, rest)
            if not rest:
                v = self.ended(n0, n1, seat)
            else:
                fit = suit[new_left] | suit[new_right]
                if other & fit:
                    v = self.value(n0, n1, new_left, new_right, 1 - seat, alpha=alpha, beta=beta)
                elif rest & fit:
                    v = self.value(n0, n1, new_left, new_right, seat, alpha=alpha, beta=beta)
                else:
                    v = self.ended(n0, n1, self.nobody)
            # Plain comparisons: max() and min() calls cost a tenth of the search here.
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:  # noqa: PLR1730
                        alpha = v
            elif v < best:
                best = v
                if v < beta:  # noqa: PLR1730
                    beta = v
            if alpha >= beta:
                break
        kind = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        table[key] = (best, kind)
        return best

    def ended(self, h0: int, h1: int, out: int) -> int:
        """`result` of a hand ending with these two hands, remembered: leaves repeat often."""
        key = (h0, h1, out)
        found = self.leaves.get(key)
        if found is None:
            found = self.leaves[key] = self.result((h0, h1), out)
        return found

    def play_value(self, hands: Sequence[int], seat: int, tile: int, end: str,
                   ends: tuple[int, int]) -> int:
        """The exact value of `seat` laying tile index `tile` on `end` ("left" or "right")."""
        a, b = self.tiles.low[tile], self.tiles.high[tile]
        left, right = ends
        if end == "left":
            left = b if a == left else a
        else:
            right = b if a == right else a
        rest = list(hands)
        done, nxt = self.after(rest, seat, 1 << tile, left, right)
        return done if done is not None else self.value(rest[0], rest[1], left, right, nxt)


def applies(view: View) -> bool:
    """A heads-up Draw decision on a two-ended line with the boneyard at the floor."""
    options = view.get("options") or {}
    if view.get("game") != "draw" or len(view.get("hand_sizes") or ()) != 2 or options.get("spinner"):
        return False
    ends = view.get("ends") or ()
    if len(ends) != 2:
        return False
    return int(view.get("boneyard") or 0) <= int(options.get("boneyard_reserve", 2))


def opponent_hands(view: View) -> list[list[Tile]]:
    """Every hand the opponent may hold: the unseen tiles less a boneyard's worth, kept
    where the opponent's voids allow it (all of them if none is allowed)."""
    me = int(view["seat"])
    other = 1 - me
    unseen = unseen_tiles(view)
    hidden = line_hidden_hands(view).get(other, HiddenHand())
    size = int((view.get("hand_sizes") or ())[other])
    every = [list(c) for c in combinations(unseen, size)] if size <= len(unseen) else []
    allowed = [h for h in every if fits(h, hidden)]
    return allowed or every


def endgame_values(rules: Rules[Any], view: View, legal: Sequence[Action],
                   budget: int = NODE_BUDGET) -> list[float] | None:
    """Each action's mean exact result (won 1, tied 0, lost -1) over the opponent's possible
    hands, or None where the endgame does not apply or exceeds the budget."""
    if not applies(view):
        return None
    line: Any = rules
    config = line.configure(view["players"], view["options"])
    me = int(view["seat"])
    tiles = config.tiles
    mine = tiles.mask(hand_of(view))
    ends_list = view.get("ends") or ()
    by_id = {str(e["id"]): int(e["value"]) for e in ends_list}
    if set(by_id) != {"left", "right"}:
        return None
    ends = (by_id["left"], by_id["right"])
    deals = opponent_hands(view)
    if not deals:
        return None
    solver = Endgame(rules, config, me, budget)
    totals = [0.0] * len(legal)
    try:
        for deal in deals:
            hands = [0, 0]
            hands[me] = mine
            hands[1 - me] = tiles.mask(deal)
            solver.table.clear()
            for k, action in enumerate(legal):
                if action["type"] != "play":
                    return None
                a, b = action["tile"]
                totals[k] += solver.play_value(hands, me, tiles.grid[a][b], str(action["end"]), ends)
    except OutOfBudget:
        return None
    return [t / len(deals) for t in totals]


def endgame_decide(rules: Rules[Any], view: View, legal: list[Action], prior: list[float],
                   budget: int = NODE_BUDGET) -> Action | None:
    """The endgame's best action (Medium's score breaking ties), or None to search as usual."""
    values = endgame_values(rules, view, legal, budget)
    if values is None:
        return None
    best = max(range(len(legal)), key=lambda i: (round(values[i], 9), prior[i], -i))
    return legal[best]


#: A playout move: (tile index, end) with end `LEAD_END`, `LEFT_END` or `RIGHT_END`, or a
#: draw or a pass.
Move = tuple[int, int]
LEAD_END, LEFT_END, RIGHT_END = -1, 0, 1
DRAW: Move = (-1, 0)
PASS: Move = (-2, 0)


class DrawSearch(FivesSearch):
    """The line search for heads-up Draw on a two-ended line, stepping its own bitmask copy
    of each sampled deal (as All Fives does) and, where `solve` is set, ending a playout that
    reaches the floor with the endgame's exact result instead of playing it out.

    Both seats play out by Medium's own score (`medium_playouts`): a playout that plays as
    the players at the table do judges a move by what follows it at the table, which the
    heaviest tile did not (Draw punishes heavy-first play). Against Medium this gained about
    two points of decided rounds; against Easy nothing measurable was lost.

    With `solve` and `medium_playouts` off its values are the engine-driven heaviest-tile
    search's to the last bit (a test holds them equal): the moves are listed in the engine's
    order and drawn from the same random stream.
    """

    def __init__(self, rules: Rules[Any], view: View, plan: Plan, weights: Weights | None = None, *,
                 solve: bool | None = None, solve_budget: int | None = None,
                 read_plays: bool | None = None, medium_playouts: bool | None = None) -> None:
        super().__init__(rules, view, plan, weights, points_weight=0.0, match_bonus=0.0)
        medium = MEDIUM_PLAYOUTS if medium_playouts is None else medium_playouts
        self.medium_playouts = medium and weights is not None
        self.solve = SOLVE_IN_PLAYOUTS if solve is None else solve
        self.solve_budget = PLAYOUT_SOLVE_BUDGET if solve_budget is None else solve_budget
        self.read_plays = READ_PLAYS if read_plays is None else read_plays
        self.endgame: Endgame | None = None
        self.me = int(view["seat"])

    def values(self, legal: Sequence[Action], rng: random.Random, budget: int) -> list[float]:
        """Mean outcome of each action over deals drawn in proportion to how well they
        explain the opponent's plays (`weighed_deals`), or over plain sampled deals."""
        samples = max(2, budget // len(legal))
        deals = self.weighed_deals(rng, samples) if self.read_plays else None
        if deals is None:
            return super().values(legal, rng, budget)
        rows = [self.row(hands, boneyard, legal, rng) for hands, boneyard in deals]
        return [sum(row[i] for row in rows) / len(rows) for i in range(len(legal))]

    def weighed_deals(self, rng: random.Random, count: int) -> list[Deal] | None:
        """`count` deals resampled from `DEALS_READ` void-respecting ones, each kept in
        proportion to the chance that the opponent, holding its tiles, made its plays.

        The chance is a mixture (`PLAY_MODEL`): a Medium-like player or a uniformly random
        one, so against a random player the plays soon stop favouring any deal. Importance
        weights on the search's own few deals would leave most of them nearly weightless;
        resampling from many keeps every playout on a likely deal. None when the opponent has
        not yet chosen between plays.
        """
        other = 1 - self.me
        if self.weights is None:
            return None
        reading = read_view(self.view)
        plays = [p for p in reading.plays if p.seat == other]
        if not plays:
            return None
        beta, chance, share = PLAY_MODEL
        model = Model(self.weights, beta, chance, self.top, share)
        seat = SeatReading(model, plays)
        drawn = [sample(reading, self.unseen, rng) for _ in range(DEALS_READ)]
        logs = []
        for dealt in drawn:
            mine, uniform = seat.pair(dealt.get(other, ()))
            logs.append(mix(share, mine, uniform))
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        picked: list[Deal] = []
        start = rng.random() / count
        reached = 0.0
        j = 0
        for k in range(count):
            target = (start + k / count) * total
            while j < len(weights) - 1 and reached + weights[j] < target:
                reached += weights[j]
                j += 1
            picked.append(deal_of(self.view, drawn[j], self.unseen, rng))
        return picked

    def _start(self, hands: Sequence[Sequence[Any]], boneyard: Sequence[Any]) -> None:
        super()._start(hands, boneyard)
        assert self.config is not None
        self.endgame = Endgame(self.rules, self.config, self.me, self.solve_budget)
        tiles = self.config.tiles
        self.unplayed_mask = tiles.mask(self.unseen) | tiles.mask(hand_of(self.view))

    def playout_value(self, hands: list[int], boneyard: list[int], first: Action,
                      rng: random.Random) -> float:
        """Play `first`, then the rest of the hand; the outcome for the searching side."""
        config = self.config
        layout = self.layout
        assert config is not None
        assert layout is not None
        tiles = config.tiles
        low, high, pips, suit, grid = tiles.low, tiles.high, tiles.pips, tiles.suit, tiles.grid
        players = config.players
        floor = config.draw_floor
        noise = self.plan.noise
        scores = list(self.scores)
        hands = list(hands)
        drawn = 0
        stock = len(boneyard)
        seat = self.to_move
        left, right = layout.ends[0], layout.ends[1]
        unplayed = self.unplayed_mask
        medium = self.medium_playouts
        # One try per playout: a position too big for the budget stays too big a move later.
        solve = self.solve and self.endgame is not None
        kind = first["type"]
        move: Move
        if kind == "play":
            a, b = first["tile"]
            end = first.get("end")
            move = (grid[a][b], LEAD_END if end is None else LEFT_END if end == "left" else RIGHT_END)
        else:
            move = DRAW if kind == "draw" else PASS
        for _ in range(PLAYOUT_CAP):
            index, end = move
            if index >= 0:
                a, b = low[index], high[index]
                if end == LEAD_END:
                    left, right = a, b
                elif end == LEFT_END:
                    left = b if a == left else a
                else:
                    right = b if a == right else a
                hand = hands[seat] & ~(1 << index)
                hands[seat] = hand
                unplayed &= ~(1 << index)
                if not hand:
                    return self.scores_outcome(self._end_hand(hands, scores, seat))
                if stock - drawn <= floor:
                    fit = suit[left] | suit[right]
                    if not any(h & fit for h in hands):
                        return self.scores_outcome(self._end_hand(hands, scores, self.nobody))
                seat = (seat + 1) % players
            elif index == DRAW[0]:
                hands[seat] |= 1 << boneyard[drawn]
                drawn += 1
                if stock - drawn <= floor:
                    fit = suit[left] | suit[right]
                    if not any(h & fit for h in hands):
                        return self.scores_outcome(self._end_hand(hands, scores, self.nobody))
            else:
                fit = suit[left] | suit[right]
                seat = (seat + 1) % players
                if not any(h & fit for h in hands):
                    return self.scores_outcome(self._end_hand(hands, scores, self.nobody))
            fit = suit[left] | suit[right]
            playable = hands[seat] & fit
            if not playable:
                move = DRAW if stock - drawn > floor else PASS
                continue
            if (solve and stock - drawn <= floor
                    and (hands[0] | hands[1]).bit_count() <= SOLVE_MAX_TILES):
                solved = self._solved(hands, left, right, seat)
                if solved is not None:
                    return solved
                solve = False
            legal: list[Move] = []
            while playable:
                bit = playable & -playable
                playable ^= bit
                i = bit.bit_length() - 1
                if low[i] == left or high[i] == left:
                    legal.append((i, LEFT_END))
                if low[i] == right or high[i] == right:
                    legal.append((i, RIGHT_END))
            if len(legal) == 1:
                move = legal[0]
            elif rng.random() < noise:
                move = rng.choice(legal)
            elif medium:
                move = self._medium_move(legal, hands[seat], left, right, unplayed)
            else:
                move = legal[0]
                top = -1.0
                for option in legal:
                    i = option[0]
                    weight = pips[i] + (4.5 if low[i] == high[i] else 0.0) + rng.random()
                    if weight > top:
                        top, move = weight, option
        return self.scores_outcome(scores)

    def _medium_move(self, legal: list[Move], hand: int, left: int, right: int, unplayed: int) -> Move:
        """Medium's score of each play (`LineKit.prior` without the voids' term), on bitmasks:
        counts per number are taken once, so each play costs a few additions."""
        w = self.weights
        assert w is not None
        assert self.config is not None
        tiles = self.config.tiles
        low, high, pips, suit = tiles.low, tiles.high, tiles.pips, tiles.suit
        unseen = unplayed & ~hand
        held = [(hand & m).bit_count() for m in suit]
        out = [(unseen & m).bit_count() for m in suit]
        covered = sum(1 for c in held if c)
        best = legal[0]
        top = -1e9
        for option in legal:
            i, end = option
            a, b = low[i], high[i]
            if hand == 1 << i:
                return option
            if end == LEFT_END:
                x, y = (b if a == left else a), right
            else:
                x, y = left, (b if a == right else a)
            lone = (held[a] == 1) + (b != a and held[b] == 1)
            score = pips[i] * w.pips + (w.double if a == b else 0.0) + w.spread * (covered - lone)
            kept = held[x] - (x in (a, b))
            score += w.follow * (kept if kept < 2 else 2) - w.scarce * out[x]
            if y != x:
                kept = held[y] - (y in (a, b))
                score += w.follow * (kept if kept < 2 else 2) - w.scarce * out[y]
            if score > top:
                top, best = score, option
        return best

    def _solved(self, hands: list[int], left: int, right: int, seat: int) -> float | None:
        """The exact result from here, as an outcome (a won hand is worth the win bonus and
        the pips the playouts would expect it to score), or None past the budget."""
        endgame = self.endgame
        assert endgame is not None
        endgame.nodes = 0
        try:
            result = endgame.value(hands[0], hands[1], left, right, seat)
        except OutOfBudget:
            return None
        return result * (self.plan.win_bonus + SOLVED_POINTS * self.plan.pip_weight)


def heads_up_line(view: View) -> bool:
    """Heads-up Draw on a two-ended line: the game `DrawSearch` plays out on its own."""
    options = view.get("options") or {}
    heads_up = len(view.get("hand_sizes") or ()) == 2
    return view.get("game") == "draw" and heads_up and not options.get("spinner")


def decide(rules: Rules[Any], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
           budget: int, plan: Plan, weights: Weights | None = None) -> Action:
    """Draw's decision: the endgame solved where nobody may draw, else `line_search.decide`
    (heads-up with `DrawSearch`'s playouts)."""
    solved = endgame_decide(rules, view, legal, prior)
    if solved is not None:
        return solved
    search = DrawSearch if heads_up_line(view) else None
    return line_search.decide(rules, view, legal, prior, rng, budget=budget, plan=plan, weights=weights,
                              search=search)
