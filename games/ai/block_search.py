"""Hard's Block search on a two-ended line: bitmask playouts and exact endgames.

Block deals every tile it will ever use, so each sampled deal is a perfect-information game.
The playouts step a bitmask copy of it (as the Draw and All Fives searches do) with the line
search's partner-aware rule of thumb, about three times faster than through the engine's
states, and once few enough tiles are left in hand a playout ends with the exact result of
`line_endgame.Endgame` (every seat playing its best for its side) instead of a guess.

With `solve` off its values are the engine-driven search's (`line_search.Search` with the
Block plan) to the last bit: the same deals, random streams, moves in the engine's order and
scoring (a test holds them equal). A spinner keeps the engine-driven search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import line_search
from games.ai.fives_search import LEFT_END, RIGHT_END, FivesSearch, Move, first_move, placed
from games.ai.line_endgame import SOLVED_POINTS, Endgame
from games.ai.line_search import PLAYOUT_CAP, Plan
from games.ai.line_weights import Weights
from games.ai.policy import View
from games.ai.scored import Scored
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile

#: Whether a playout with few tiles left in hand ends with the endgame's exact result.
SOLVE_IN_PLAYOUTS = True

#: The most tiles left in all hands for a playout to solve its endgame.
SOLVE_MAX_TILES = 10

#: Positions one playout may search to finish its hand exactly, before it plays on instead.
PLAYOUT_SOLVE_BUDGET = 400

class BlockSearch(FivesSearch):
    """The line search for Block on a two-ended line, stepping its own copy of each deal."""

    def __init__(self, rules: Rules[object], view: View, plan: Plan, weights: Weights | None = None, *,
                 solve: bool | None = None) -> None:
        super().__init__(rules, view, plan, weights, points_weight=0.0, match_bonus=0.0)
        self.solve = SOLVE_IN_PLAYOUTS if solve is None else solve
        #: A solved win: the win bonus and the pips a played-out win would be expected to score.
        self.solved_worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
        self.me = int(view["seat"])
        self.endgame: Endgame | None = None

    def begin(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        super().begin(hands, boneyard)
        assert self.config is not None
        self.endgame = Endgame(self.rules, self.config, self.me, PLAYOUT_SOLVE_BUDGET)

    def playout_value(self, hands: list[int], boneyard: list[int], first: Action,
                      rng: random.Random) -> float:
        """Play `first`, then the rest of the hand; the outcome for the searching side.

        A seat with no tile that fits passes (no choice, so no random draw); the hand ends
        when a hand is empty or no seat can play.
        """
        config = self.config
        layout = self.layout
        assert config is not None
        assert layout is not None
        tiles = config.tiles
        low, high, suit, grid = tiles.low, tiles.high, tiles.suit, tiles.grid
        players = config.players
        side = config.side
        noise_of = self.noise_of
        scores = list(self.scores)
        hands = list(hands)
        seat = self.to_move
        left, right = layout.ends[0], layout.ends[1]
        endgame = self.endgame if self.solve else None
        held = sum(h.bit_count() for h in hands)
        move = first_move(grid, first)
        for _ in range(PLAYOUT_CAP):
            index, end = move
            left, right = placed(left, right, low[index], high[index], end)
            hand = hands[seat] & ~(1 << index)
            hands[seat] = hand
            held -= 1
            if not hand:
                return self.scores_outcome(self._end_hand(hands, scores, seat))
            fit = suit[left] | suit[right]
            for step in range(1, players + 1):
                if hands[(seat + step) % players] & fit:
                    seat = (seat + step) % players
                    break
            else:
                return self.scores_outcome(self._end_hand(hands, scores, self.nobody))
            if endgame is not None and held <= SOLVE_MAX_TILES:
                solved = endgame.outcome(hands, left, right, seat, self.solved_worth)
                if solved is not None:
                    return solved
                endgame = None
            playable = hands[seat] & fit
            legal: list[Move] = []
            while playable:
                bit = playable & -playable
                playable ^= bit
                i = bit.bit_length() - 1
                if left in (low[i], high[i]):
                    legal.append((i, LEFT_END))
                if right in (low[i], high[i]):
                    legal.append((i, RIGHT_END))
            if len(legal) == 1:
                move = legal[0]
            elif rng.random() < noise_of[seat]:
                move = rng.choice(legal)
            else:
                nxt = (seat + 1) % players
                move = self._rule_of_thumb(legal, hands[seat], hands[nxt], left, right,
                                           partner=side[nxt] == side[seat], rng=rng)
        return self.scores_outcome(scores)

    def _rule_of_thumb(self, legal: list[Move], hand: int, following: int, left: int, right: int, *,
                       partner: bool, rng: random.Random) -> Move:
        """`line_search.smart_move` on the engine's masks: shed doubles and heavy tiles, keep
        numbers you can answer on the ends you leave, and leave an end the next seat cannot
        answer (unless that seat is your partner)."""
        assert self.config is not None
        tiles = self.config.tiles
        low, high, suit = tiles.low, tiles.high, tiles.suit
        closed = -2.0 if partner else 2.0
        best = legal[0]
        top = -1e9
        for option in legal:
            i, end = option
            a, b = low[i], high[i]
            rest = hand & ~(1 << i)
            score = a + b + rng.random()
            if a == b:
                score += 6.0
            if end == LEFT_END:
                shown = (b if a == left else a, right)
            else:
                shown = (left, b if a == right else a)
            for v in shown:
                mine = rest & suit[v]
                if mine:
                    score += 3.0 if mine & (mine - 1) else 2.0
                if not following & suit[v]:
                    score += closed
            if score > top:
                top, best = score, option
        return best


def two_ended(view: View) -> bool:
    """Block without a spinner: the game `BlockSearch` plays out on its own."""
    return view.get("game") == "block" and not (view.get("options") or {}).get("spinner")


def evaluate(rules: Rules[object], view: View, legal: list[Action], prior: list[float], rng: random.Random, *,
             budget: int, plan: Plan, weights: Weights | None = None) -> Scored:
    """`line_search.evaluate`, with `BlockSearch` where the line has two ends."""
    search = BlockSearch if two_ended(view) else None
    return line_search.evaluate(rules, view, legal, prior, rng, budget=budget, plan=plan, weights=weights,
                              search=search)
