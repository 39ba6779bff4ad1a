"""Golden snapshots of what every seat and a spectator see in one fixed match per game.

`rules.view(state, seat)` is all a player ever learns of a match, so a change to it, meant or
not, shows here as a diff of `__snapshots__/test_snapshots.ambr` to review. After a change
that is meant, regenerate the file with `pytest tests/engine/test_snapshots.py
--snapshot-update` and commit it with the change.
"""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.engine.matches import field_lines, fixed_match, games, seats


@pytest.mark.parametrize("game", games())
def test_views_of_a_fixed_match(game: str, snapshot: SnapshotAssertion) -> None:
    rules, positions = fixed_match(game)
    seen = [
        f"# {game} after {position.actions} actions, seen by "
        + ("a spectator" if seat is None else f"seat {seat}")
        + "\n"
        + field_lines(rules.view(position.state, seat))
        for position in positions
        for seat in seats(game)
    ]
    assert "\n\n".join(seen) + "\n" == snapshot
