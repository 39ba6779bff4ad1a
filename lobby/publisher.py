"""Publishing a room's events from any thread, as the pub/sub channel layer's `group_send`.

The server's side publishes after the commit from the thread that committed, with a
blocking Redis client, in the form the pub/sub channel layer itself publishes (its group
channel name, its serializer), so every hub receives it as a `group_send`. Handing each
publish to an event loop thread instead cost two thread wake-ups and the loop's
bookkeeping per action, more than the publish itself. The process's runtime
(`lobby/runtime.py`) holds one publisher.
"""

from __future__ import annotations

from typing import Any

import redis
from channels_redis.utils import decode_hosts
from django.conf import settings

from lobby.hub import room_group


class Publisher:
    """A room's events published from any thread, serialized by the channel layer `layer`."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
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

    def channel(self, code: str) -> str:
        """The Redis channel the pub/sub layer subscribes the room's group on: the layer's
        prefix, `__group__`, the group's name (channels_redis' naming, stable since 3.3)."""
        return f"{self.prefix}__group__{room_group(code)}"

    def publish(self, code: str, event: dict[str, Any]) -> None:
        """Publish on the group's channel as the pub/sub layer's `group_send` names it.

        The layer subscribes a group on one of its hosts, chosen by a hash it keeps private;
        the message is published on every host instead, so it reaches the subscribers once
        whichever host that is (one host, as configured here, is one publish). A public
        `shard_for(name)` or a synchronous `group_send` in channels_redis would let this
        publish once on any number of hosts."""
        channel = self.channel(code)
        message = self.layer.serialize(event)
        for client in self.clients:
            client.publish(channel, message)

    def close(self) -> None:
        """Close the clients' connections (a runtime shut down)."""
        for client in self.clients:
            client.close()
