"""Mexican Train hands on a small mutable copy, for Hard's playouts.

Hard plays thousands of short playouts a decision (80 deals, four candidates, 12 moves each).
Through the engine every move builds a full frozen state of 26 fields, a log line and the
action dicts of every choice; here a playout steps one mutable copy of the sampled deal with
the same rules, restated on tuples of tiles and line indices, and chooses with Medium's own
score (`trains_policy.action_scores`, restated on `(tile, line)` moves). It is the engine's
playout to the move: the same legal moves in the same order, the same hands in the same order
(so the same planned trains), the same end of a blocked hand; a test plays both side by side.

A playout never reaches the end of a round by a seat going out (it stops just before), and a
blocked hand scores what the hands hold, as `close_hand` does, so nothing here deals or scores
a next round. The engine stays the judge of legality: a playout starts from an action the
engine listed and only ever makes moves these rules list.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.ai.trains_fast import TrainsState
from games.ai.trains_policy import Planner
from games.core.actions import Action
from games.core.tiles import Tile, make_tile, pip_total

#: Moves: a play is `(tile, line)`; the others a kind with no tile.
Move = tuple[Tile | None, int]
DRAW: Move = (None, -1)
PASS: Move = (None, -2)
END_TURN: Move = (None, -3)
_KINDS = {"draw": DRAW, "pass": PASS, "end_turn": END_TURN}


class TrainSim:
    """One Mexican Train position, mutable: the fields of the engine's state a hand needs.

    `doubles` is `open_doubles` (lines ending in an uncovered double, oldest first); `taken`
    counts the boneyard's tiles already drawn; `until` is `draw_until` (draw again while the
    tile drawn does not fit).
    """

    __slots__ = ("blank", "boneyard", "doubles", "drawn", "ends", "hands", "markers", "multiple",
                 "opened", "owed", "played", "players", "taken", "turn", "until")

    def __init__(self, state: TrainsState) -> None:
        """The copy of an engine state (`TrainState`, read by its field names)."""
        self.players: int = state.players
        self.multiple: bool = state.multiple
        self.until: bool = state.draw_until
        self.blank: int = state.double_blank
        self.hands: list[tuple[Tile, ...]] = list(state.hands)
        self.boneyard: tuple[Tile, ...] = tuple(state.boneyard)
        self.taken = 0
        self.ends: list[int] = list(state.line_ends)
        self.markers: list[bool] = list(state.markers)
        self.doubles: list[int] = list(state.open_doubles)
        self.opened: list[bool] = list(state.opened)
        self.turn: int | None = state.turn
        self.played: int = state.played
        self.owed: bool = state.owed
        self.drawn: Tile | None = state.drawn

    def copy(self) -> TrainSim:
        other = TrainSim.__new__(TrainSim)
        other.players = self.players
        other.multiple = self.multiple
        other.until = self.until
        other.blank = self.blank
        other.hands = list(self.hands)
        other.boneyard = self.boneyard
        other.taken = self.taken
        other.ends = list(self.ends)
        other.markers = list(self.markers)
        other.doubles = list(self.doubles)
        other.opened = list(self.opened)
        other.turn = self.turn
        other.played = self.played
        other.owed = self.owed
        other.drawn = self.drawn
        return other

    def redealt(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> TrainSim:
        """This position with the hidden tiles placed as given (`penalty_rules.redeal`)."""
        other = self.copy()
        other.hands = [tuple(h) for h in hands]
        other.boneyard = tuple(boneyard)
        other.taken = 0
        turn = self.turn
        other.drawn = other.hands[turn][-1] if turn is not None and self.drawn is not None else None
        return other

    # The rules of `games.mexican_train.trains` and `turns`, on this copy -----------------
    def frozen(self) -> bool:
        return bool(self.doubles) and not self.owed

    def allowed(self, seat: int) -> Sequence[int]:
        """`allowed_lines`: the lines `seat` may add a tile to, in the engine's order."""
        if self.doubles and not self.owed:
            return (self.doubles[0],)
        if not self.opened[seat]:
            return (seat,)
        markers = self.markers
        lines = [i for i in range(self.players) if markers[i] or i == seat]
        lines.append(self.players)
        return lines

    def legal(self) -> list[Move]:
        """`legal_actions` as moves, in the same order (`allowed` and `frozen` inlined)."""
        seat = self.turn
        assert seat is not None
        ends = self.ends
        drawn = self.drawn
        frozen = bool(self.doubles) and not self.owed
        opened = self.opened[seat]
        tiles = (drawn,) if drawn is not None else self.hands[seat]
        if frozen or not opened:
            line = self.doubles[0] if frozen else seat
            v = ends[line]
            plays: list[Move] = [(t, line) for t in tiles if v in t]
        else:
            markers = self.markers
            lines = [i for i in range(self.players) if markers[i] or i == seat]
            lines.append(self.players)
            plays = [(t, i) for i in lines for t in tiles if ends[i] in t]
        if not opened and not frozen and not self.owed:
            if self.played == 0:
                return plays or [PASS]
            plays.append(END_TURN)
            return plays
        if plays:
            return plays
        return [DRAW] if (drawn is None or self.until) and self.taken < len(self.boneyard) else [PASS]

    def _turn_over(self, seat: int) -> None:
        self.opened[seat] = True
        self.turn = (seat + 1) % self.players
        self.played = 0
        self.owed = False
        self.drawn = None

    def apply(self, move: Move) -> bool:
        """Make `move` (one `legal` listed); True when the hand is then blocked."""
        seat = self.turn
        assert seat is not None
        tile, line = move
        if tile is not None:
            hand = self.hands[seat]
            k = hand.index(tile)
            hand = hand[:k] + hand[k + 1:]
            opening = not self.opened[seat] and not (self.doubles and not self.owed)
            double = tile.low == tile.high
            if line in self.doubles:
                self.doubles = [i for i in self.doubles if i != line]
            if double:
                self.doubles.append(line)
            if line == seat and self.markers[seat]:
                self.markers[seat] = False
            end = self.ends[line]
            self.ends[line] = tile.high if tile.low == end else tile.low
            self.hands[seat] = hand
            if hand and not (double or (self.multiple and self.drawn is None and opening)):
                self._turn_over(seat)
            else:
                self.played += 1
                self.owed = double
                self.drawn = None
        elif line == DRAW[1]:
            drawn = self.boneyard[self.taken]
            self.taken += 1
            self.hands[seat] = (*self.hands[seat], drawn)
            self.drawn = drawn
        elif line == PASS[1]:
            self.markers[seat] = True
            self._turn_over(seat)
        else:
            self._turn_over(seat)
        return self.taken >= len(self.boneyard) and self.blocked()

    def blocked(self) -> bool:
        """`trains.is_blocked` with the boneyard empty: nobody will ever lay a tile."""
        seat = self.turn
        if seat is not None and self.owed:
            ends = {self.ends[i] for i in self.allowed(seat)}
            if any(t.low in ends or t.high in ends for t in self.hands[seat]):
                return False
        ends = {self.ends[self.doubles[0]]} if self.doubles else set(self.ends)
        return not any(t.low in ends or t.high in ends for hand in self.hands for t in hand)

    def pips(self) -> list[int]:
        return [pip_total(h, self.blank) for h in self.hands]


def move_of(action: Action, players: int) -> Move:
    """The move of an engine action (`"train:<seat>"` is line `seat`, `"mexican"` the last)."""
    kind = action["type"]
    if kind != "play":
        return _KINDS[kind]
    raw = action["tile"]
    end = action["end"]
    line = players if end == "mexican" else int(end.split(":", 1)[1])
    return (make_tile(raw[0], raw[1]), line)


def medium_move(sim: TrainSim, legal: list[Move], planner: Planner) -> Move:
    """`trains_policy.state_action` on the copy: Medium's best move, the first of equals."""
    seat = sim.turn
    assert seat is not None
    hand = sim.hands[seat]
    chain = planner.chain(seat, sim.ends[seat], hand)
    opening = not sim.opened[seat] and not (sim.doubles and not sim.owed)
    marked = sim.markers[seat]
    head = chain[0] if chain else None
    on_plan = head is not None and (head, seat) in legal
    left = len(hand) - 1
    best = legal[0]
    top = 0.0
    for k, move in enumerate(legal):
        tile, line = move
        if tile is None:
            score = (-50.0 if on_plan else 50.0) if line == END_TURN[1] else -100.0
        else:
            score = float(sim.blank if tile.low == tile.high == 0 else tile.low + tile.high)
            if line == seat:
                score += 8.0 if tile == head else 2.0
                if marked:
                    score += 4.0
            elif tile in chain:
                score -= 10.0
            if tile.low == tile.high and left:
                low = tile.low
                score += 10.0 if any(low in t and t != tile for t in hand) else -15.0
            if not left:
                score += 1000.0
            if opening and line != seat:
                score -= 5.0
        if k == 0 or score > top:
            best, top = move, score
    return best


def playout(sim: TrainSim, first: Move, horizon: int) -> list[int]:
    """`trains_search.playout` on the copy (which it changes): the pips each seat holds
    `horizon` moves after `first`, every seat playing Medium's rule."""
    planner = Planner()
    move: Move | None = first
    hands = sim.hands
    for _ in range(horizon):
        seat = sim.turn
        assert seat is not None
        if move is None:
            legal = sim.legal()
            move = legal[0] if len(legal) == 1 else medium_move(sim, legal, planner)
        if move[0] is not None and len(hands[seat]) == 1:
            return [0 if s == seat else pip_total(h, sim.blank) for s, h in enumerate(hands)]
        if sim.apply(move):
            return sim.pips()
        move = None
    return sim.pips()
