"""Golden snapshots of the wire frames (docs/protocol.md) of one fixed match per game.

The text of every seat's and a spectator's `state` frame is what a socket sends, byte for
byte (`lobby.protocol` builds the frame, `lobby.realtime.frame_text` writes it); the other
frames a client meets are shown once. A change to any of them shows as a diff of
`__snapshots__/test_frame_snapshots.ambr` to review; after a change that is meant, regenerate
it with `pytest tests/lobby/test_frame_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from games.engine import IllegalAction
from lobby import protocol
from lobby.realtime import frame_text
from tests.engine.matches import fixed_match, games, seats


@pytest.mark.parametrize("game", games())
def test_state_frames_of_a_fixed_match(game: str, snapshot: SnapshotAssertion) -> None:
    rules, positions = fixed_match(game)
    lines = [
        f"# {game} after {position.actions} actions, to "
        + ("a spectator" if seat is None else f"seat {seat}")
        + "\n"
        + frame_text(protocol.state_frame(position.actions, rules.view(position.state, seat)))
        for position in positions
        for seat in seats(game)
    ]
    assert "\n\n".join(lines) + "\n" == snapshot


def test_the_other_frames(snapshot: SnapshotAssertion) -> None:
    code, message = protocol.error_of(IllegalAction("that tile does not fit the left end"))
    frames = {
        "welcome (seated)": protocol.welcome_frame(2, "ABCD23"),
        "welcome (spectator)": protocol.welcome_frame(None, "ABCD23"),
        "ack": protocol.ack_frame("m-17", 18),
        "error": protocol.error_frame(code, message, "m-18"),
        "error (no id)": protocol.error_frame("malformed", "unknown message type 'dance'"),
        "chat": protocol.chat_frame(1, "Ana", "Good game!", "good_game", "2026-01-02T03:04:05Z"),
        "room": protocol.room_frame({"code": "ABCD23", "game": "draw"}),
    }
    assert "\n".join(f"{name}: {frame_text(frame)}" for name, frame in frames.items()) + "\n" == snapshot
