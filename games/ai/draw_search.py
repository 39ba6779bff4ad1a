"""Hard's heads-up Draw endgame: once nobody may draw, the hand is solved exactly.

In two-player Draw the last `boneyard_reserve` tiles are never drawn. Once the boneyard is
down to them, nothing is left to chance: the opponent holds the unseen tiles less the ones
lying in the boneyard, and there are few ways to choose those (`C(n + 2, 2)` for an
opponent holding `n`). Each such deal that the opponent's voids allow is a perfect-information
game of two hands and two ends, which `line_endgame.Endgame` solves exactly as a won, tied or
lost hand. Hard takes the play that wins in most of those deals (loses in fewest), Medium's
score breaking ties.

Playouts guess their way through an endgame with a rule of thumb; an exact answer per deal
cannot do worse there, and the endgame is where a heads-up hand is mostly decided. A position
too big for the solver's budget is left to the ordinary search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

from games.ai import line_search
from games.ai.fives_search import DRAW, LEFT_END, PASS, RIGHT_END, FivesSearch, Move, first_move, placed
from games.ai.inference import HiddenHand, fits, hand_of, line_hidden_hands, set_top, unseen_tiles
from games.ai.line_endgame import NODE_BUDGET, SOLVED_POINTS, Endgame, OutOfBudget
from games.ai.line_fast import line_fast_path
from games.ai.line_infer import Model, SeatReading, deal_of, mix, read_view, sample
from games.ai.line_search import PLAYOUT_CAP, Plan
from games.ai.line_weights import Weights
from games.ai.policy import View
from games.ai.scored import Scored
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile

#: Positions one playout may search to finish its hand exactly, before it plays on instead.
PLAYOUT_SOLVE_BUDGET = 400

#: The most tiles left in both hands for a playout to solve its endgame: bigger ones mostly
#: run out of `PLAYOUT_SOLVE_BUDGET` (60% of those with 17 tiles, all with 20), wasting it.
SOLVE_MAX_TILES = 16

#: Whether a playout that reaches the floor ends with the endgame's exact result.
SOLVE_IN_PLAYOUTS = True

#: Whether the playouts' deals are drawn by how well they explain the opponent's plays.
READ_PLAYS = True

#: Whether the endgame weighs each hand the opponent may hold by how well it explains the
#: opponent's plays (else every hand the voids allow counts the same).
READ_ENDGAME = True

#: Void-respecting deals drawn to weigh the opponent's possible hands in the endgame.
ENDGAME_READS = 200

#: Void-respecting deals weighed per decision, of which the playouts' deals are drawn.
DEALS_READ = 100

#: The opponent model weighing deals (`line_infer.Model`): sharpness, the chance mixed into
#: each play, and the prior share of a uniformly random player.
PLAY_MODEL = (2.0, 0.1, 0.5)

#: Whether both seats play Medium's own score in the playouts (else the heaviest tile).
MEDIUM_PLAYOUTS = True

#: A sampled deal: every seat's hand and the boneyard in draw order.
Deal = tuple[list[list[Tile]], list[Tile]]

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


def hand_weights(view: View, hands: Sequence[Sequence[Tile]], weights: Weights, rng: random.Random,
                 reads: int = ENDGAME_READS) -> list[float] | None:
    """How well each of the opponent's possible `hands` explains its plays: the mean chance of
    the plays (`PLAY_MODEL`, as for the playouts' deals) over void-respecting deals giving the
    opponent that hand, the deals differing in when each tile arrived. A hand no deal gave
    takes the mean of all. None when the opponent has not chosen between plays."""
    other = 1 - int(view["seat"])
    reading = read_view(view)
    plays = [p for p in reading.plays if p.seat == other]
    if not plays:
        return None
    beta, chance, share = PLAY_MODEL
    seat = SeatReading(Model(weights, beta, chance, set_top(view), share), plays)
    unseen = unseen_tiles(view)
    logs: list[float] = []
    keys: list[frozenset[Tile]] = []
    for _ in range(reads):
        dealt = sample(reading, unseen, rng).get(other, ())
        logs.append(mix(share, *seat.pair(dealt)))
        keys.append(frozenset(t for t, _ in dealt))
    best = max(logs)
    sums: dict[frozenset[Tile], list[float]] = {}
    for key, x in zip(keys, logs, strict=True):
        total = sums.setdefault(key, [0.0, 0.0])
        total[0] += math.exp(x - best)
        total[1] += 1.0
    mean = sum(t for t, _ in sums.values()) / reads
    out = []
    for hand in hands:
        found = sums.get(frozenset(hand))
        out.append(found[0] / found[1] if found else mean)
    return out


def endgame_values(rules: Rules[object], view: View, legal: Sequence[Action],
                   budget: int = NODE_BUDGET, *, weights: Weights | None = None,
                   rng: random.Random | None = None) -> list[float] | None:
    """Each action's mean exact result (won 1, tied 0, lost -1) over the opponent's possible
    hands, or None where the endgame does not apply or exceeds the budget. Given the
    Medium-like `weights` and a generator, each hand counts by how well it explains the
    opponent's plays (`hand_weights`), else all count the same."""
    if not applies(view):
        return None
    config = line_fast_path(rules).configure(view["players"], view["options"])
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
    shares = [1.0] * len(deals)
    if weights is not None and rng is not None and READ_ENDGAME:
        shares = hand_weights(view, deals, weights, rng) or shares
    solver = Endgame(rules, config, me, budget)
    totals = [0.0] * len(legal)
    try:
        for deal, share in zip(deals, shares, strict=True):
            hands = [0, 0]
            hands[me] = mine
            hands[1 - me] = tiles.mask(deal)
            solver.table.clear()
            for k, action in enumerate(legal):
                if action["type"] != "play":
                    return None
                a, b = action["tile"]
                totals[k] += share * solver.play_value(hands, me, tiles.grid[a][b], str(action["end"]), ends)
    except OutOfBudget:
        return None
    weight = sum(shares)
    return [t / weight for t in totals]


def endgame_evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float],
                     budget: int = NODE_BUDGET, *, weights: Weights | None = None,
                     rng: random.Random | None = None, worth: float = 1.0) -> Scored | None:
    """The endgame's best action (Medium's score breaking ties), or None to search as usual;
    each action's value is its mean exact result times `worth` (a won hand's points)."""
    values = endgame_values(rules, view, legal, budget, weights=weights, rng=rng)
    if values is None:
        return None
    best = max(range(len(legal)), key=lambda i: (round(values[i], 9), prior[i], -i))
    return Scored(tuple(legal), tuple(v * worth for v in values), best)


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

    def __init__(self, rules: Rules[object], view: View, plan: Plan, weights: Weights | None = None, *,
                 solve: bool | None = None, solve_budget: int | None = None,
                 read_plays: bool | None = None, medium_playouts: bool | None = None) -> None:
        super().__init__(rules, view, plan, weights, points_weight=0.0, match_bonus=0.0)
        medium = MEDIUM_PLAYOUTS if medium_playouts is None else medium_playouts
        self.medium_playouts = medium and weights is not None
        self.solve = SOLVE_IN_PLAYOUTS if solve is None else solve
        #: A solved win: the win bonus and the pips a played-out win would be expected to score.
        self.solved_worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
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

    def begin(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        super().begin(hands, boneyard)
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
        endgame = self.endgame if self.solve else None
        move = first_move(grid, first)
        for _ in range(PLAYOUT_CAP):
            index, end = move
            if index >= 0:
                a, b = low[index], high[index]
                left, right = placed(left, right, a, b, end)
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
            if (endgame is not None and stock - drawn <= floor
                    and (hands[0] | hands[1]).bit_count() <= SOLVE_MAX_TILES):
                solved = endgame.outcome(hands, left, right, seat, self.solved_worth)
                if solved is not None:
                    return solved
                endgame = None
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
                move = self.medium_play(legal, hands[seat], left, right, unplayed)
            else:
                move = legal[0]
                top = -1.0
                for option in legal:
                    i = option[0]
                    weight = pips[i] + (4.5 if low[i] == high[i] else 0.0) + rng.random()
                    if weight > top:
                        top, move = weight, option
        return self.scores_outcome(scores)

    def medium_play(self, legal: list[Move], hand: int, left: int, right: int, unplayed: int) -> Move:
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


def heads_up_line(view: View) -> bool:
    """Heads-up Draw on a two-ended line: the game `DrawSearch` plays out on its own."""
    options = view.get("options") or {}
    heads_up = len(view.get("hand_sizes") or ()) == 2
    return view.get("game") == "draw" and heads_up and not options.get("spinner")


def evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
             budget: int, plan: Plan, weights: Weights | None = None) -> Scored:
    """Draw's decision: the endgame solved where nobody may draw (a won hand valued as the
    playouts value a solved one), else `line_search.evaluate` (heads-up with `DrawSearch`'s
    playouts)."""
    worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
    solved = endgame_evaluate(rules, view, legal, prior, weights=weights, rng=rng, worth=worth)
    if solved is not None:
        return solved
    search = DrawSearch if heads_up_line(view) else None
    return line_search.evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan, weights=weights,
                              search=search)
