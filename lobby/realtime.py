"""Channel-layer groups and the fan-out of each change to the sockets of a room.

Every seat has its own group and receives only its own view; spectators share one group
with the spectator view. Raw state never enters the channel layer, so no consumer bug can
leak a tile. Publishing runs after the commit, on the process's background loop.
"""

from __future__ import annotations

import json
from typing import Any

from channels.layers import get_channel_layer

from lobby import protocol
from lobby.background import background


def room_group(code: str) -> str:
    return f"room.{code}"


def seat_group(code: str, seat: int | None) -> str:
    return f"room.{code}.spectators" if seat is None else f"room.{code}.seat.{seat}"


def views_publish(code: str, match: int, version: int, views: dict[int | None, dict[str, Any]]) -> None:
    """Each seat's view at `version` of match number `match` (a rematch restarts at 0).

    Each seat's `state` frame is encoded here, once, and travels as text: a consumer
    forwards it as it is instead of unpacking a dict and encoding it again per socket. The
    event names its seat, and a consumer forwards only its own seat's frame."""
    events = [
        (
            seat_group(code, seat),
            {
                "type": "lobby.state",
                "match": match,
                "version": version,
                "seat": seat,
                "frame": json.dumps(protocol.state_frame(version, view)),
            },
        )
        for seat, view in views.items()
    ]
    background().run(_send_groups(events))


def room_publish(code: str, room: dict[str, Any]) -> None:
    background().run(_send_groups([(room_group(code), {"type": "lobby.room", "room": room})]))


def channel_notify(channel: str, event: dict[str, Any]) -> None:
    """Tell one connection something (taken over by a newer one, kicked)."""
    background().run(_send_channel(channel, event))


async def _send_groups(events: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    assert layer is not None
    for group, event in events:
        await layer.group_send(group, event)


async def _send_channel(channel: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    assert layer is not None
    await layer.send(channel, event)
