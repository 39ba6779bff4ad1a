"""The fan-out of each change to the sockets of a room, through the room hubs (`hub.py`).

One event per change goes to the room's group; each process's hub hands every local socket
only what it may see (its own seat's frame). Raw state never enters the channel layer.

The server's side publishes after the commit from the thread that committed, with a
blocking Redis client, in the form the pub/sub channel layer itself publishes (its group
channel name, its serializer), so every hub receives it as a `group_send`. Handing each
publish to an event loop thread instead cost two thread wake-ups and the loop's
bookkeeping per action, more than the publish itself.
"""

from __future__ import annotations

import threading
from typing import Any

import orjson
import redis
from channels_redis.utils import decode_hosts
from django.conf import settings

from lobby import protocol
from lobby.embedded_redis import ensure_configured
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
    publisher().publish(code, event)


def room_publish(code: str, room: dict[str, Any]) -> None:
    publisher().publish(code, {"type": "lobby.room", "code": code, "room": room})


def connection_notify(code: str, connection: str, kind: str, **data: Any) -> None:
    """Tell one connection of the room something ("lobby.replaced", "lobby.kicked", or
    "lobby.reseated" with its new `seat`), in the room's own stream of events."""
    publisher().publish(code, {"type": kind, "code": code, "connection": connection, **data})


async def room_send(code: str, event: dict[str, Any]) -> None:
    """The same, from the event loop (a chat line from a socket)."""
    await channel_layer().group_send(room_group(code), event)


class Publisher:
    """A room's events published from any thread, as the channel layer's `group_send`."""

    def __init__(self) -> None:
        config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
        self.prefix = str(config.get("prefix", "asgi"))
        self.clients = [self._client(host) for host in decode_hosts(config.get("hosts"))]

    @staticmethod
    def _client(host: dict[str, Any]) -> redis.Redis:
        options = dict(host)
        address = options.pop("address", None)
        if address is None:
            return redis.Redis(**options)
        return redis.Redis(connection_pool=redis.ConnectionPool.from_url(address, **options))

    def publish(self, code: str, event: dict[str, Any]) -> None:
        """Publish on the group's channel as the pub/sub layer's `group_send` names it.

        The layer subscribes a group on one of its hosts, chosen by a hash it keeps private;
        the message is published on every host instead, so it reaches the subscribers once
        whichever host that is (one host, as configured here, is one publish). A public
        `shard_for(name)` or a synchronous `group_send` in channels_redis would let this
        publish once on any number of hosts."""
        channel = f"{self.prefix}__group__{room_group(code)}"
        message = channel_layer().serialize(event)
        for client in self.clients:
            client.publish(channel, message)


_publisher: list[Publisher] = []
_publisher_lock = threading.Lock()


def publisher() -> Publisher:
    if not _publisher:
        with _publisher_lock:
            if not _publisher:
                ensure_configured()
                _publisher.append(Publisher())
    return _publisher[0]
