"""The fan-out of each change to the sockets of a room, through the room hubs (`hub.py`).

One event per change goes to the room's group; each process's hub hands every local socket
only what it may see (its own seat's frame). Raw state never enters the channel layer.

The server's side publishes after the commit from the thread that committed, through the
process's publisher (`lobby/publisher.py`), which every hub receives as a `group_send`.
"""

from __future__ import annotations

from typing import Any

import orjson

from lobby import protocol
from lobby.hub import room_group
from lobby.runtime import runtime

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
    runtime().publisher().publish(code, event)


def room_publish(code: str, room: dict[str, Any]) -> None:
    runtime().publisher().publish(code, {"type": "lobby.room", "code": code, "room": room})


def connection_notify(code: str, connection: str, kind: str, **data: Any) -> None:
    """Tell one connection of the room something ("lobby.replaced", "lobby.kicked", or
    "lobby.reseated" with its new `seat`), in the room's own stream of events."""
    runtime().publisher().publish(code, {"type": kind, "code": code, "connection": connection, **data})


async def room_send(code: str, event: dict[str, Any]) -> None:
    """The same, from the event loop (a chat line from a socket)."""
    await runtime().channel_layer().group_send(room_group(code), event)
