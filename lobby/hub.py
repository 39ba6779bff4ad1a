"""The room hub: one channel-layer subscriber per process for every room it holds sockets of.

Each change of a room is published once, as one event for the room's group (every seat's
frame of a new version travels together in it). Every process holding sockets of that
room receives the event once, here, and hands each of its sockets what that socket may
see: its own seat's frame, the room info, a chat line. So an action costs one publish,
and one receive per process, however many sockets watch it; and a socket holds no
channel-layer subscription of its own, which is memory per idle player.

The hub also keeps, for each room it holds, the newest room info and spectator frame it
has seen (`Latest`): from the room's events, and from each snapshot a socket of the room
read from the database. A spectator's `sync`, or a spectator's connect, is answered from
it while its last database read is recent (`consumers.py`): many sockets without a seat
asking for the table cost the database one read per room a second at most, not one each.

The hub belongs to the event loop that serves the sockets (one per daphne process; one per
test's loop), and is created on the first connection, by the process's runtime
(`Runtime.hub`, `lobby/runtime.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

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


#: The key of the spectators' frame in a views event (`realtime.frame_key(None)`).
SPECTATORS = "spectators"


@dataclass(slots=True)
class Latest:
    """The newest room info and spectator `state` frame (its text, and its match number and
    version) this process has seen of one room, and when a database read last confirmed them
    (`time.monotonic()`, taken before that read began)."""

    room: dict[str, Any] | None = None
    stamp: tuple[int, int] = (-1, -1)
    frame: str | None = None
    read_at: float = float("-inf")

    def fresh(self, seconds: float, now: float | None = None) -> bool:
        """Read from the database within `seconds`, and holding the room info."""
        return self.room is not None and (time.monotonic() if now is None else now) - self.read_at < seconds

    def note_room(self, room: dict[str, Any]) -> None:
        if self.room is None or int(room.get("revision", 0)) >= int(self.room.get("revision", 0)):
            self.room = room

    def note_frame(self, stamp: tuple[int, int], frame: str) -> None:
        if stamp >= self.stamp:
            self.stamp, self.frame = stamp, frame


class RoomHub:
    """The subscriber of one event loop, on the process's channel layer `layer`."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.rooms: dict[str, set[Member]] = {}
        self.latest: dict[str, Latest] = {}
        self.members: dict[str, Member] = {}
        self._lock = asyncio.Lock()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._task: asyncio.Task[None] | None = None

    async def join(self, code: str, member: Member) -> None:
        """Deliver the room's events to `member` from now on (subscribed when this returns)."""
        channel = await self._channel()
        async with self._room_locked(code):
            local = self.rooms.setdefault(code, set())
            if not local:
                await self.layer.group_add(room_group(code), channel)
            local.add(member)
            self.members[member.connection] = member

    async def leave(self, code: str, member: Member) -> None:
        if self.members.get(member.connection) is member:
            del self.members[member.connection]
        async with self._room_locked(code):
            local = self.rooms.get(code)
            if local is None or member not in local:
                return
            local.discard(member)
            if not local and self.channel is not None:
                del self.rooms[code]
                self.latest.pop(code, None)
                await self.layer.group_discard(room_group(code), self.channel)

    @contextlib.asynccontextmanager
    async def _room_locked(self, code: str) -> AsyncIterator[None]:
        """Joins and leaves of one room in turn; per room, so one slow subscription never
        holds up the sockets of other rooms. The lock goes when nobody holds or awaits it."""
        lock, users = self._locks.get(code, (asyncio.Lock(), 0))
        self._locks[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[code]
            if users == 1:
                del self._locks[code]
            else:
                self._locks[code] = (lock, users - 1)

    async def _channel(self) -> str:
        async with self._lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel("hub.")
            if self._task is None or self._task.done():
                self._task = asyncio.get_running_loop().create_task(self._receive_forever(self.channel))
            return self.channel

    async def _receive_forever(self, channel: str) -> None:
        layer = self.layer
        while True:
            try:
                event = await layer.receive(channel)
                await self.deliver(event)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the room hub could not take an event")

    def snapshot_noted(
        self, code: str, read_at: float, room: dict[str, Any],
        stamp: tuple[int, int] | None, frame: str | None,
    ) -> None:
        """A snapshot of a room this hub holds, read from the database from `read_at` on: its
        room info, and its spectator frame with its (match, version) when a match exists."""
        if code not in self.rooms:
            return
        latest = self.latest.setdefault(code, Latest())
        latest.note_room(room)
        if stamp is not None and frame is not None:
            latest.note_frame(stamp, frame)
        latest.read_at = max(latest.read_at, read_at)

    def latest_of(self, code: str) -> Latest | None:
        return self.latest.get(code)

    def _note(self, code: str, event: dict[str, Any]) -> None:
        """Keep what a spectator may see of `event`, for a room this hub holds."""
        kind = event.get("type")
        if kind == "lobby.views":
            frames = event.get("frames")
            frame = frames.get(SPECTATORS) if isinstance(frames, dict) else None
            if isinstance(frame, str):
                latest = self.latest.setdefault(code, Latest())
                latest.note_frame((int(event["match"]), int(event["version"])), frame)
        elif kind == "lobby.room" and isinstance(event.get("room"), dict):
            self.latest.setdefault(code, Latest()).note_room(event["room"])

    async def deliver(self, event: dict[str, Any]) -> None:
        """Hand `event` to its one target connection, or to every local socket of its room."""
        target = event.get("connection")
        if target is not None:
            one = self.members.get(str(target))
            members = [] if one is None else [one]
        else:
            code = str(event.get("code"))
            members = list(self.rooms.get(code, ()))
            if members:
                try:
                    self._note(code, event)
                except (KeyError, TypeError, ValueError) as error:
                    logger.warning("could not keep a %r of room %s: %r", event.get("type"), code, error)
        for member in members:
            try:
                await member.hub_event(event)
            except Exception as error:  # most often a socket closing as the event came
                kind = event.get("type")
                logger.warning("a socket of room %s missed a %r: %r", event.get("code"), kind, error)
