"""Exact results of line positions where nobody may draw: Block, and Draw at its floor.

With every hand known and no tile left to draw, a line hand is a perfect-information game:
each seat in turn plays a tile that fits an open end, a seat with none passes (no choice, so
no node), and the hand ends when a hand is empty or no seat can play. An alpha-beta search
with a transposition table solves it exactly, counting only what the simulations count: a
won hand, a tie, a lost hand for the searching seat's side (partners count together). The
hand's score is the engine's own `score_hand`, reached through the rules object (the AI
imports no game family); a test holds the results equal to exhaustive play through the
engine, heads-up and in partnerships.

The work is bounded by a count of searched positions: a position too big for it raises
`OutOfBudget` and the caller falls back on its playouts, so a decision stays deterministic
and its cost bounded.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.ai.line_fast import LineConfig, line_fast_path
from games.core.protocol import Rules

#: Positions searched in one decision, over every deal and action, before it gives up.
NODE_BUDGET = 30000

#: Pips a hand solved inside a playout is taken to be won by (a playout-ended hand counts its
#: real pips), so a solved win weighs about as much as a played-out one.
SOLVED_POINTS = 15.0

WIN, TIE, LOSS = 1, 0, -1
_EXACT, _LOWER, _UPPER = 0, 1, 2

Hands = tuple[int, ...]


class OutOfBudget(Exception):
    """The endgame is too big for the budget: the caller's search decides."""


class Endgame:
    """Won, tied or lost for `me`'s side of a two-ended line position with no drawing left.

    Hands are the engine's tile masks (`config.tiles`), one per seat.
    """

    def __init__(self, rules: Rules[object], config: LineConfig, me: int, budget: int = NODE_BUDGET) -> None:
        line = line_fast_path(rules)
        self.score_hand = line.score_hand
        self.nobody: int = line.NOBODY
        self.config = config
        self.tiles = config.tiles
        self.suit: tuple[int, ...] = self.tiles.suit
        self.me = me
        self.side: tuple[int, ...] = tuple(config.side)
        self.mine = self.side[me]
        players = len(self.side)
        #: The seats after each seat, in turn order, itself last: who may play next.
        self.after_seat = tuple(
            tuple((s + k) % players for k in range(1, players + 1)) for s in range(players)
        )
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.leaves: dict[tuple[Hands, int], int] = {}

    def result(self, hands: Sequence[int], out: int) -> int:
        """WIN, TIE or LOSS for `me`'s side of a hand ending with `hands` (`out` went out, or
        nobody)."""
        config = self.config
        pips = tuple(self.tiles.pip_count(h, config.double_blank) for h in hands)
        score = self.score_hand(config, pips, out)
        if score.winner == self.nobody:
            return TIE
        return WIN if score.winner == self.mine else LOSS

    def ended(self, hands: Hands, out: int) -> int:
        """`result`, remembered: the same finished hands are met again and again."""
        key = (hands, out)
        found = self.leaves.get(key)
        if found is None:
            found = self.leaves[key] = self.result(hands, out)
        return found

    def next_value(self, hands: Hands, seat: int, left: int, right: int, *, alpha: int = LOSS,
                   beta: int = WIN) -> int:
        """The value once `seat` has played and left `hands` and these ends: it went out, the
        next seat able to play moves (the others pass), or nobody can and the hand is blocked."""
        if not hands[seat]:
            return self.ended(hands, seat)
        fit = self.suit[left] | self.suit[right]
        for nxt in self.after_seat[seat]:
            if hands[nxt] & fit:
                return self.value(hands, left, right, nxt, alpha=alpha, beta=beta)
        return self.ended(hands, self.nobody)

    def outcome(self, hands: Sequence[int], left: int, right: int, seat: int,
                worth: float) -> float | None:
        """`value` times `worth` (what a playout's won hand is worth), searched within a fresh
        budget (the table is kept), or None past it: a playout tries once, and plays on by
        itself when the position is too big."""
        self.nodes = 0
        try:
            return self.value(tuple(hands), left, right, seat) * worth
        except OutOfBudget:
            return None

    def value(self, hands: Hands, left: int, right: int, seat: int, *, alpha: int = LOSS,
              beta: int = WIN) -> int:
        """The position's value for `me`'s side, `seat` to move and holding a playable tile.

        The plays that go out or leave the next seat without a play are tried first: they
        settle most positions, so alpha-beta cuts sooner. This is where a decision that
        solves endgames spends most of its time.
        """
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        lo, hi = (left, right) if left <= right else (right, left)
        key = (*hands, lo, hi, seat)
        table = self.table
        found = table.get(key)
        if found is not None:
            v, kind = found
            if kind == _EXACT or (kind == _LOWER and v >= beta) or (kind == _UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        maximise = self.side[seat] == self.mine
        best = LOSS - 1 if maximise else WIN + 1
        suit = self.suit
        low, high = self.tiles.low, self.tiles.high
        hand = hands[seat]
        follower = hands[self.after_seat[seat][0]]
        playable = hand & (suit[lo] | suit[hi])
        forcing: list[tuple[int, int, int]] = []
        others: list[tuple[int, int, int]] = []
        while playable:
            bit = playable & -playable
            playable ^= bit
            i = bit.bit_length() - 1
            a, b = low[i], high[i]
            rest = hand & ~bit
            if lo in (a, b):
                new_left = b if a == lo else a
                if not rest or not follower & (suit[new_left] | suit[hi]):
                    forcing.append((rest, new_left, hi))
                else:
                    others.append((rest, new_left, hi))
            if hi != lo and hi in (a, b):
                new_right = b if a == hi else a
                if not rest or not follower & (suit[lo] | suit[new_right]):
                    forcing.append((rest, lo, new_right))
                else:
                    others.append((rest, lo, new_right))
        after = self.after_seat[seat]
        nobody = self.nobody
        two = len(hands) == 2
        for rest, new_left, new_right in forcing + others:
            child: Hands
            if two:
                child = (rest, hands[1]) if seat == 0 else (hands[0], rest)
            else:
                child = (*hands[:seat], rest, *hands[seat + 1:])
            if not rest:
                v = self.ended(child, seat)
            else:
                fit = suit[new_left] | suit[new_right]
                v = 2
                for nxt in after:
                    if child[nxt] & fit:
                        v = self.value(child, new_left, new_right, nxt, alpha=alpha, beta=beta)
                        break
                if v == 2:
                    v = self.ended(child, nobody)
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

    def play_value(self, hands: Sequence[int], seat: int, tile: int, end: str, ends: tuple[int, int]) -> int:
        """The exact value of `seat` laying tile index `tile` on `end` ("left" or "right")."""
        a, b = self.tiles.low[tile], self.tiles.high[tile]
        left, right = ends
        if end == "left":
            left = b if a == left else a
        else:
            right = b if a == right else a
        rest = tuple(h & ~(1 << tile) if s == seat else h for s, h in enumerate(hands))
        return self.next_value(rest, seat, left, right)
