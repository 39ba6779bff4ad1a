"""Shared helpers of the 42 tests: tiles in short notation, chosen deals, scripted play."""

from __future__ import annotations

from typing import Any

from games.core.tiles import Tile, full_set, make_tile
from games.texas42.rules import Texas42Rules

RULES = Texas42Rules()

# Seat 1 holds every six, seat 2 four of the five count tiles; seats 0 and 3 the rest.
SIXES_DEAL = (
    "0-1 0-2 0-3 0-4 1-2 1-3 1-5",
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "5-5 5-0 4-1 3-2 0-0 1-1 2-2",
    "2-4 2-5 3-3 3-4 3-5 4-4 4-5",
)


def tile(text: str) -> Tile:
    a, b = text.split("-")
    return make_tile(int(a), int(b))


def tiles(text: str) -> list[Tile]:
    return [tile(t) for t in text.split()]


def table(hands: tuple[str, ...], options: dict[str, Any] | None = None, hand_number: int = 0) -> Any:
    """A match whose current hand deals `hands` (seat order), built through `state_from_view`."""
    state = RULES.new_match(players=4, options=options or {}, seed=b"scenario")
    view = {**RULES.view(state, None), "hand_number": hand_number}
    dealt = [tiles(h) for h in hands]
    assert sorted(t for h in dealt for t in h) == list(full_set(6)), "a deal holds every tile once"
    return RULES.state_from_view(view, dealt, [])


def action(text: str) -> dict[str, Any]:
    """`pass`, `bid 30`, `trump 6`, `trump nello` or a tile `6-4` to play."""
    words = text.split()
    if words[0] == "pass":
        return {"type": "pass"}
    if words[0] == "bid":
        return {"type": "bid", "value": int(words[1])}
    if words[0] == "trump":
        suit: int | str = int(words[1]) if words[1].isdigit() else words[1]
        return {"type": "trump", "suit": suit}
    return {"type": "play", "tile": list(tile(words[0]))}


def run(state: Any, script: str) -> Any:
    """Apply each comma-separated action in turn, checked as the server would."""
    for step in script.split(","):
        state = RULES.apply(state, action(step.strip()))
    return state


def hand_events(view: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in view["log"] if e["type"] == kind]
