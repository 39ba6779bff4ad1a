"""One fixed match per game, the same on every run: for the golden snapshots of what each
seat and a spectator see (`test_snapshots.py`) and of the frames that carry it
(`tests/lobby/test_frame_snapshots.py`)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import Rules, get_rules, names

#: The master seed of every fixed match.
SEED = bytes(range(32))
#: Players per game: the smallest table for the line games, the usual four for the others.
PLAYERS: dict[str, int] = {
    "block": 2,
    "draw": 2,
    "allfives": 2,
    "texas42": 4,
    "mexican_train": 4,
    "chicken_foot": 4,
    "fiveup": 4,
}
#: The positions snapshotted: after this many actions from the deal.
CHECKPOINTS = (0, 12)


@dataclass(frozen=True)
class Position:
    """A position of a fixed match: the actions played to reach it, and the state."""

    game: str
    actions: int
    state: Any


def fixed_match(game: str) -> tuple[Rules[Any], list[Position]]:
    """The match of `game`: seed `SEED`, the default options, each action drawn from the legal
    ones by a generator seeded with the game's name; the positions at `CHECKPOINTS`."""
    rules = get_rules(game)
    state = rules.new_match(players=PLAYERS[game], options={}, seed=SEED)
    rng = random.Random(game)
    out: list[Position] = []
    for played in range(max(CHECKPOINTS) + 1):
        if played in CHECKPOINTS:
            out.append(Position(game, played, state))
        if rules.to_move(state) is None:
            break
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
    return rules, out


def seats(game: str) -> Iterator[int | None]:
    """Every seat of the match, then None: the spectator."""
    yield from range(PLAYERS[game])
    yield None


def games() -> list[str]:
    """Every game the engine knows; a new game without a fixed match fails here."""
    missing = set(names()) - set(PLAYERS)
    assert not missing, f"no fixed match for {sorted(missing)}: add its players to PLAYERS"
    return names()


def field_lines(data: dict[str, Any]) -> str:
    """One line per top-level field, its value as compact JSON with sorted keys: a change to a
    field shows as that line's diff."""
    return "\n".join(
        f"{key}: {json.dumps(data[key], sort_keys=True, separators=(',', ':'))}" for key in sorted(data)
    )
