"""Medium's train heuristic, once, for views (Medium, Hard's prior) and full states (playouts).

Hard's playouts must play the way the table plays: keep your own train along its planned
chain, shed heavy tiles elsewhere, follow doubles, lift your marker. A heaviest-tile playout
breaks the plan on every move and so misjudges every train decision; these functions let the
playouts use Medium's own rule on the state, cheaply, by keeping each seat's plan while it
stays valid instead of searching it again at every move.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.ai.trains_fast import TrainsState
from games.core.actions import Action
from games.core.tiles import Tile, make_tile

CHAIN_NODES = 4000
#: The playouts search a seat's plan with far fewer nodes: it is replanned often and an
#: almost-longest chain plays the same moves.
PLAYOUT_CHAIN_NODES = 300


def longest_chain(start: int, tiles: Sequence[Tile], limit: int = CHAIN_NODES) -> list[Tile]:
    """The longest train (most tiles, then most pips) `tiles` can build from `start`.

    A depth-first search over at most `limit` nodes, tiles tried in the order given; it keeps
    the running length and pips as one key (`length << 16 | pips`: no train holds 65,536
    pips) and an index by number, as it runs inside every playout.
    """
    pool = list(tiles)
    by_number: dict[int, list[int]] = {}
    for i, tile in enumerate(pool):
        by_number.setdefault(tile.low, []).append(i)
        if tile.high != tile.low:
            by_number.setdefault(tile.high, []).append(i)
    sums = [t.low + t.high for t in pool]
    weight = [_LENGTH + s for s in sums]
    options = by_number.get
    used = [False] * len(pool)
    path: list[int] = []
    best: list[int] = []
    best_key = 0
    budget = limit

    def grow(value: int, key: int) -> None:
        nonlocal best, best_key, budget
        budget -= 1
        if key > best_key:
            best, best_key = path[:], key
        if budget <= 0:
            return
        for i in options(value, ()):
            if used[i]:
                continue
            used[i] = True
            path.append(i)
            grow(sums[i] - value, key + weight[i])
            path.pop()
            used[i] = False

    grow(start, 0)
    return [pool[i] for i in best]


_LENGTH = 1 << 16


@lru_cache(maxsize=8192)
def planned_chain(start: int, hand: tuple[Tile, ...], limit: int) -> tuple[Tile, ...]:
    """`longest_chain`, remembered: a decision's playouts start every candidate from the
    same deal, so the same hands are planned again and again."""
    return tuple(longest_chain(start, hand, limit))


def _tile_of(action: Action) -> Tile | None:
    """The tile a play names, canonical; None for any other action."""
    if action["type"] != "play":
        return None
    raw = action["tile"]
    return make_tile(raw[0], raw[1])


def action_scores(
    me: int,
    hand: Sequence[Tile],
    chain: Sequence[Tile],
    *,
    marked: bool,
    opening: bool,
    legal: Sequence[Action],
    blank: int = 0,
) -> list[float]:
    """Medium's score of each action: shed pips along the planned train, answer doubles.

    A tile weighs what it would cost in hand at the end of the round: its pips, except the
    double-blank, which weighs the room's `double_blank` (a 50-point 0-0 is shed first, not
    kept as the lightest tile)."""
    mine = f"train:{me}"
    planned = set(chain)
    head = chain[0] if chain else None
    tiles = [_tile_of(a) for a in legal]
    on_plan = head is not None and any(
        tile == head and a.get("end") == mine for a, tile in zip(legal, tiles)
    )
    out: list[float] = []
    for action, tile in zip(legal, tiles):
        if tile is None:
            # The opening chain stops where the plan ends.
            out.append((-50.0 if on_plan else 50.0) if action["type"] == "end_turn" else -100.0)
            continue
        end = action.get("end")
        score = float(blank if tile.low == tile.high == 0 else tile.pips)
        if end == mine:
            score += 8.0 if tile == head else 2.0
            if marked:
                score += 4.0
        elif tile in planned:
            score -= 10.0
        left = len(hand) - 1
        if tile.is_double and left:
            score += 10.0 if any(t.has(tile.low) and t != tile for t in hand) else -15.0
        if not left:
            score += 1000.0
        if opening and end != mine:
            score -= 5.0
        out.append(score)
    return out


def _valid(start: int, chain: Sequence[Tile], hand: frozenset[Tile]) -> bool:
    """Whether `chain` still lies in `hand` from `start` (`Tile.has` and `Tile.other` inlined)."""
    value = start
    for tile in chain:
        if tile not in hand:
            return False
        low, high = tile
        if low == value:
            value = high
        elif high == value:
            value = low
        else:
            return False
    return True


class Planner:
    """Each seat's planned chain along one playout, replanned only when the old one broke.

    A seat whose hand and train end are unchanged keeps its plan as is (the search would find
    it again); one whose plan still lies in its hand from its train's end (it drew, or played
    elsewhere, or laid the plan's first tile) keeps what is left of it.
    """

    __slots__ = ("nodes", "plans")

    def __init__(self, nodes: int = PLAYOUT_CHAIN_NODES) -> None:
        self.plans: dict[int, tuple[int, tuple[Tile, ...], tuple[Tile, ...]]] = {}
        self.nodes = nodes

    def chain(self, seat: int, start: int, hand: tuple[Tile, ...]) -> tuple[Tile, ...]:
        old = self.plans.get(seat)
        if old is not None:
            if old[0] == start and old[1] == hand:
                return old[2]
            held = frozenset(hand)
            plan = old[2]
            for kept in (plan, plan[1:]):
                if kept and _valid(start, kept, held):
                    self.plans[seat] = (start, hand, kept)
                    return kept
        fresh = planned_chain(start, hand, self.nodes)
        self.plans[seat] = (start, hand, fresh)
        return fresh


def state_action(state: TrainsState, legal: list[Action], planner: Planner) -> Action:
    """Medium's move from a full Mexican Train state (the playout policy of Hard)."""
    seat = state.turn
    if seat is None:
        raise ValueError("the hand is over: nobody is to move")
    hand = state.hands[seat]
    chain = planner.chain(seat, state.line_ends[seat], hand)
    opening = not state.opened[seat] and not (state.open_doubles and not state.owed)
    scores = action_scores(seat, hand, chain, marked=state.markers[seat], opening=opening, legal=legal,
                           blank=state.double_blank)
    best = 0
    for i in range(1, len(scores)):
        if scores[i] > scores[best]:
            best = i
    return legal[best]
