"""The room hub: one channel-layer subscriber per process for every room it holds sockets of.

Each change of a room is published once, as one event for the room's group (every seat's
frame of a new version travels together in it). Every process holding sockets of that
room receives the event once, here, and hands each of its sockets what that socket may
see: its own seat's frame, the room info, a chat line. So an action costs one publish,
and one receive per process, however many sockets watch it; and a socket holds no
channel-layer subscription of its own, which is memory per idle player.

The hub belongs to the event loop that serves the sockets (one per daphne process; one per
test's loop), and is created on the first connection.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def room_group(code: str) -> str:
    return f"room.{code}"


class Member(Protocol):
    """A socket at a table, as the hub sees it."""

    #: Unique per connection; a seat records the newest one (takeover, kick, presence).
    connection: str

    async def hub_event(self, event: dict[str, Any]) -> None:
        """Forward what this socket may see of `event`."""
        ...


class RoomHub:
    def __init__(self) -> None:
        self.channel: str | None = None
        self.rooms: dict[str, set[Member]] = {}
        self.members: dict[str, Member] = {}
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def join(self, code: str, member: Member) -> None:
        """Deliver the room's events to `member` from now on (subscribed when this returns)."""
        async with self._lock:
            layer = get_channel_layer()
            assert layer is not None
            if self.channel is None:
                self.channel = await layer.new_channel("hub.")
                self._task = asyncio.get_running_loop().create_task(self._receive_forever())
            local = self.rooms.setdefault(code, set())
            if not local:
                await layer.group_add(room_group(code), self.channel)
            local.add(member)
            self.members[member.connection] = member

    async def leave(self, code: str, member: Member) -> None:
        async with self._lock:
            if self.members.get(member.connection) is member:
                del self.members[member.connection]
            local = self.rooms.get(code)
            if local is None or member not in local:
                return
            local.discard(member)
            if not local and self.channel is not None:
                del self.rooms[code]
                layer = get_channel_layer()
                assert layer is not None
                await layer.group_discard(room_group(code), self.channel)

    async def _receive_forever(self) -> None:
        layer = get_channel_layer()
        assert layer is not None
        assert self.channel is not None
        while True:
            event = await layer.receive(self.channel)
            await self.deliver(event)

    async def deliver(self, event: dict[str, Any]) -> None:
        """Hand `event` to its one target connection, or to every local socket of its room."""
        target = event.get("connection")
        if target is not None:
            one = self.members.get(str(target))
            members = [] if one is None else [one]
        else:
            members = list(self.rooms.get(str(event.get("code")), ()))
        for member in members:
            try:
                await member.hub_event(event)
            except Exception:
                logger.exception("a socket of room %s failed on %r", event.get("code"), event.get("type"))


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RoomHub] = weakref.WeakKeyDictionary()


def hub() -> RoomHub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = RoomHub()
    return found
