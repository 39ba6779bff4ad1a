"""The room hub: one subscription per room per process, whatever the number of sockets, and
each event handed to the sockets of its room only (or to its one target connection)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from lobby import realtime
from lobby.hub import RoomHub
from lobby.runtime import runtime
from tests.waiting import until


class Member:
    def __init__(self) -> None:
        self.connection = f"conn.{uuid.uuid4().hex}"
        self.events: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    async def hub_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.arrived.set()


def subscriptions(code: str) -> int:
    """How many Redis connections are subscribed to the room's group (`PUBSUB NUMSUB`)."""
    publisher = runtime().publisher()
    channel = publisher.channel(code)
    return sum(int(count) for client in publisher.clients for _name, count in client.pubsub_numsub(channel))


async def arrived(member: Member) -> dict[str, Any]:
    await asyncio.wait_for(member.arrived.wait(), 5)
    member.arrived.clear()
    return member.events[-1]


async def test_a_room_is_subscribed_once_and_events_reach_only_its_sockets() -> None:
    hub = RoomHub(runtime().channel_layer())
    here, there = f"hub{uuid.uuid4().hex[:8]}", f"hub{uuid.uuid4().hex[:8]}"
    members = [Member(), Member(), Member()]
    other = Member()
    await asyncio.gather(*(hub.join(here, m) for m in members), hub.join(there, other))
    # Three sockets, one subscription in Redis: the hub's.
    await until(lambda: subscriptions(here) == 1, "the room's group to be subscribed once")
    await realtime.room_send(here, {"type": "lobby.chat", "code": here, "chat": {"text": "hi"}})
    for member in members:
        assert (await arrived(member))["chat"] == {"text": "hi"}
    await realtime.room_send(there, {"type": "lobby.kicked", "code": there, "connection": other.connection})
    assert (await arrived(other))["type"] == "lobby.kicked"
    assert all(len(m.events) == 1 for m in members)

    await asyncio.gather(*(hub.leave(here, m) for m in members))
    await until(lambda: subscriptions(here) == 0, "the room's group to be unsubscribed")
    assert here not in hub.rooms
    assert hub._locks == {}
    await hub.leave(there, other)
    assert hub.rooms == {}
    assert hub.members == {}
