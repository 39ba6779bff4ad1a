"""The fan-out of each change to the sockets of a room, through the room hubs (`hub.py`).

One event per change goes to the room's group; each process's hub hands every local socket
only what it may see (its own seat's frame). Raw state never enters the channel layer.
Publishing from the server's side runs after the commit, on the process's background loop.
"""

from __future__ import annotations

from typing import Any

import orjson

from lobby import protocol
from lobby.background import background
from lobby.hub import channel_layer, room_group

SPECTATORS = "spectators"


def frame_key(seat: int | None) -> str:
    """The key of a seat's frame in a views event (msgpack maps want text keys)."""
    return SPECTATORS if seat is None else str(seat)


def frame_text(frame: dict[str, Any]) -> str:
    """A frame's JSON text: orjson, six times faster than `json.dumps` on a view, which is
    the largest single cost of publishing an action."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def _keyed(views: dict[int | None, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(frame_key(seat), view) for seat, view in views.items()]


def views_publish(code: str, match: int, version: int, views: dict[int | None, dict[str, Any]]) -> None:
    """Each seat's view at `version` of match number `match` (a rematch restarts at 0).

    Each seat's `state` frame is encoded here, once (`frame_text`), and travels as text: a socket forwards
    its own seat's frame as it is, instead of unpacking a dict and encoding it again."""
    frames = {key: frame_text(protocol.state_frame(version, view)) for key, view in _keyed(views)}
    event = {"type": "lobby.views", "code": code, "match": match, "version": version, "frames": frames}
    background().run(room_send(code, event))


def room_publish(code: str, room: dict[str, Any]) -> None:
    background().run(room_send(code, {"type": "lobby.room", "code": code, "room": room}))


def connection_notify(code: str, connection: str, kind: str) -> None:
    """Tell one connection of the room something ("lobby.replaced", "lobby.kicked")."""
    background().run(room_send(code, {"type": kind, "code": code, "connection": connection}))


async def room_send(code: str, event: dict[str, Any]) -> None:
    await channel_layer().group_send(room_group(code), event)
