"""What keeps sockets without a seat from slowing the seated players down, each injected:
an address whose socket was closed for flooding is refused for its penalty before any
database or Redis work; a spectator's `sync` is answered from the room hub without a
database query while a read of the room is recent; and spectators' database calls wait
on the event loop, never ahead of a seated player's action."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.backends.signals import connection_created

from lobby import consumers, selectors, socket_caps
from lobby.hub import RoomHub
from lobby.runtime import runtime, runtime_replace
from tests.lobby.helpers import Table, db_async, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queries() -> Iterator[list[str]]:
    """Every SQL statement run from now on by a connection opened from now on, on any
    thread: the process's runtime starts afresh, so each connection of its database
    threads counts."""
    runtime_replace()
    seen: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    def created(sender: Any, connection: Any, **kwargs: Any) -> None:
        connection.execute_wrappers.append(count)

    connection_created.connect(created)
    yield seen
    connection_created.disconnect(created)
    runtime_replace()


@pytest.fixture
def penalties() -> Iterator[None]:
    runtime().penalties.forget()
    yield
    runtime().penalties.forget()


def from_address(table: Table, address: str) -> Table:
    table.ws.scope["client"] = (address, 40000)
    return table


async def close_code(table: Table) -> int | None:
    """The code the server closed `table` with; the frames before it are kept."""
    while True:
        output = await table.ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            code: int | None = output.get("code")
            return code
        if output.get("text"):
            table.frames.append(json.loads(output["text"]))


async def started_table() -> tuple[str, list[Table], Table]:
    """A started two-player Draw with both seats' sockets and a spectator's, every one of
    them holding the first state."""
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    seats = [Table(code, token) for token in tokens]
    spectator = Table(code)
    for table in [*seats, spectator]:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    for table in [*seats, spectator]:
        await table.until("state")
    return code, seats, spectator


async def move(seats: list[Table], spectator: Table) -> int:
    """The seat to move plays its first legal action; the version it made, once the
    spectator holds it."""
    state = seats[0].latest_state()
    assert state is not None
    mover = seats[state["view"]["to_move"]]
    mine = mover.latest_state()
    assert mine is not None
    await mover.send({"type": "action", "id": uuid.uuid4().hex[:8], "action": mine["view"]["legal"][0]})
    ack = await mover.until("ack")
    while (spectator.latest_state() or {}).get("version", -1) < ack["version"]:
        await spectator.until("state")
    for table in seats:
        while (table.latest_state() or {}).get("version", -1) < ack["version"]:
            await table.until("state")
    return int(ack["version"])


@db_async
def spectator_view(code: str) -> tuple[int, Any]:
    _room, _match, version, view = selectors.table_snapshot(code, None)
    return version, json.loads(json.dumps(view))


async def test_an_address_closed_for_flooding_is_refused_for_its_penalty_before_any_work(
    settings: Any, queries: list[str], penalties: None
) -> None:
    settings.LOBBY_SPECTATOR_RATE = 0.001
    settings.LOBBY_SPECTATOR_BURST = 1
    settings.LOBBY_FLOOD_RATE = 0.001
    settings.LOBBY_FLOOD_BURST = 2
    settings.LOBBY_FLOOD_PENALTY_SECONDS = 60
    code, _tokens = await room_setup_async("draw", 2, {}, humans=2)
    flooder = from_address(Table(code), "192.0.2.10")
    assert (await flooder.open())[0]
    for _ in range(6):
        await flooder.send({"type": "ping"})
    assert await close_code(flooder) == socket_caps.CLOSE_FLOODING
    await flooder.close()  # its consumer has given its place back when this returns
    address_cap = f"{settings.LOBBY_REDIS_PREFIX}caps:address:192.0.2.10"
    assert runtime().redis().zcard(address_cap) == 0

    # The same address again, within the penalty: told and closed with 4008, with no
    # database query and no place taken under the caps.
    before = len(queries)
    again = from_address(Table(code), "192.0.2.10")
    connected, _ = await again.ws.connect(timeout=10)
    assert connected
    refusal = await again.next()
    assert refusal["type"] == "error" and refusal["code"] == "rate_limited"
    assert "wait" in refusal["message"]
    assert await close_code(again) == socket_caps.CLOSE_FLOODING
    assert queries[before:] == []
    await again.close()
    assert runtime().redis().zcard(address_cap) == 0

    # Another address is admitted meanwhile, and the penalty lapses on its own.
    other = from_address(Table(code), "192.0.2.11")
    assert (await other.open())[0]
    await other.until("room")
    await other.close()
    assert runtime().penalties.penalized("192.0.2.10") is not None
    assert runtime().penalties.penalized("192.0.2.10", now=time.monotonic() + 61) is None
    assert runtime().penalties.penalized("192.0.2.10") is None


async def test_no_penalty_without_a_known_address_or_with_the_penalty_off(settings: Any, penalties: None) -> None:
    runtime().penalties.penalize(socket_caps.UNKNOWN_ADDRESS)
    assert runtime().penalties.penalized(socket_caps.UNKNOWN_ADDRESS) is None
    settings.LOBBY_FLOOD_PENALTY_SECONDS = 0
    runtime().penalties.penalize("192.0.2.12")
    assert runtime().penalties.penalized("192.0.2.12") is None


async def test_a_spectators_sync_is_answered_from_the_hub_without_a_database_query(
    queries: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A read of the room counts as recent for the whole test, however slow the machine.
    monkeypatch.setattr(consumers, "SHARE_SECONDS", 3600.0)
    code, seats, spectator = await started_table()
    for version in (0, 1):
        if version:
            assert await move(seats, spectator) == version
        before = len(queries)
        await spectator.send({"type": "sync"})
        room = await spectator.until("room")
        state = await spectator.until("state")
        assert queries[before:] == [], f"version {version}: the sync read the database"
        assert room["room"]["code"] == code
        assert (state["version"], state["view"]) == await spectator_view(code)
        assert state["version"] == version

    # A second spectator's connect comes from the hub too.
    before = len(queries)
    latecomer = Table(code)
    assert (await latecomer.open())[0]
    await latecomer.until("room")
    assert (await latecomer.until("state"))["version"] == 1
    assert queries[before:] == []

    # Once the read is old, the next sync reads the database again.
    monkeypatch.setattr(consumers, "SHARE_SECONDS", 0.0)
    before = len(queries)
    await spectator.send({"type": "sync"})
    await spectator.until("room")
    assert (await spectator.until("state"))["version"] == 1
    assert queries[before:] != []
    for table in [*seats, spectator, latecomer]:
        await table.close()


async def test_a_seated_players_action_is_not_held_behind_reads_of_other_sockets() -> None:
    code, seats, spectator = await started_table()
    state = seats[0].latest_state()
    assert state is not None
    mover, other = seats[state["view"]["to_move"]], seats[1 - state["view"]["to_move"]]
    gate = runtime().read_gate(consumers.gated_calls())
    # Every place reads may take is taken, as by a crowd of spectators or a slow table's syncs.
    for _ in range(consumers.gated_calls()):
        await gate.acquire()
    try:
        watcher = Table(code)
        opening = asyncio.create_task(watcher.open())
        await other.send({"type": "sync"})  # a seated socket's read waits at the gate too
        mine = mover.latest_state()
        assert mine is not None
        await mover.send({"type": "action", "id": "held-1", "action": mine["view"]["legal"][0]})
        ack = await mover.until("ack")
        assert ack["version"] == 1
        assert (await spectator.until("state"))["version"] == 1
        assert not opening.done()  # the spectator's claim waits at the gate
    finally:
        for _ in range(consumers.gated_calls()):
            gate.release()
    assert (await opening)[0]
    assert (await watcher.until("state"))["version"] == 1
    # The sync is answered once a place is free: the room, then the state it asked for.
    await other.until("room")
    assert (await other.until("state"))["version"] == 1
    for table in [*seats, spectator, watcher]:
        await table.close()


class Member:
    def __init__(self) -> None:
        self.connection = f"conn.{uuid.uuid4().hex}"

    async def hub_event(self, event: dict[str, Any]) -> None:
        pass


async def test_the_hub_keeps_the_newest_spectator_frame_and_room_of_the_rooms_it_holds() -> None:
    hub, code, member = RoomHub(runtime().channel_layer()), f"hub{uuid.uuid4().hex[:8]}", Member()
    await hub.deliver({"type": "lobby.room", "code": code, "room": {"revision": 1}})
    assert hub.latest_of(code) is None  # not held here

    await hub.join(code, member)
    hub.snapshot_noted(code, time.monotonic(), {"revision": 2}, (0, 3), "v3")
    views = {"type": "lobby.views", "code": code, "match": 0, "version": 4, "frames": {"0": "x", "spectators": "v4"}}
    await hub.deliver(views)
    await hub.deliver({**views, "version": 2, "frames": {"spectators": "v2"}})  # late: kept out
    await hub.deliver({"type": "lobby.room", "code": code, "room": {"revision": 1}})  # older
    latest = hub.latest_of(code)
    assert latest is not None
    assert (latest.stamp, latest.frame, latest.room) == ((0, 4), "v4", {"revision": 2})
    assert latest.fresh(1.0) and not latest.fresh(1.0, now=time.monotonic() + 2)
    await hub.deliver({**views, "match": 1, "version": 0, "frames": {"spectators": "rematch"}})
    assert (latest.stamp, latest.frame) == ((1, 0), "rematch")

    await hub.leave(code, member)
    assert hub.latest_of(code) is None
