"""The sweep's presence steps in one process: what it closes, and what it binds again.

tests/lobby/test_presence.py injects the faults into real server processes; these check
the two cases a single process decides by itself, over a real socket, database and Redis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from lobby import bots, services
from lobby.models import Seat
from lobby.runtime import runtime
from tests.lobby.helpers import Table, db_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)


@db_async
def seat_channel(code: str, index: int) -> str:
    return str(Seat.objects.get(room__code=code, index=index).channel)


async def room_frame_where(table: Table, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        room: dict[str, Any] = (await table.until("room"))["room"]
        if done(room):
            return room


async def test_a_socket_of_this_process_whose_close_was_never_recorded_is_closed_by_the_sweep() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    watcher = Table(code, tokens[0])
    assert (await watcher.open())[0]
    # Seat 1's socket was this process's, and went without its close reaching the database.
    channel = "conn.lost-socket"
    runtime().presence.add(channel)
    await database_sync_to_async(services.connection_open)(code, tokens[1], channel)
    runtime().presence.remove(channel)
    await room_frame_where(watcher, lambda room: room["seats"][1]["connected"] is True)
    assert await database_sync_to_async(bots.sockets_reconcile)() == 1
    room = await room_frame_where(watcher, lambda room: room["seats"][1]["connected"] is False)
    assert room["seats"][0]["connected"] is True
    # The live socket of seat 0 is this process's own: never taken for dead.
    assert await database_sync_to_async(bots.sockets_reconcile)() == 0
    await watcher.close()


async def test_a_seat_taken_for_away_while_its_socket_lives_here_is_bound_again_by_the_next_sweep() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    watcher = Table(code, tokens[0])
    player = Table(code, tokens[1])
    for table in (watcher, player):
        assert (await table.open())[0]
    channel = await seat_channel(code, 1)
    # Another process's sweep took this one for dead (it stalled past the presence timeout)
    # and freed the seat, while the player's socket stayed open here.
    await database_sync_to_async(services.connection_close)(code, channel)
    await room_frame_where(watcher, lambda room: room["seats"][1]["connected"] is False)
    await database_sync_to_async(bots.sweep_round)()
    room = await room_frame_where(watcher, lambda room: room["seats"][1]["connected"] is True)
    assert room["seats"][1]["standin_at"] is None
    assert await seat_channel(code, 1) == channel
    # Closing it for real frees the seat for good: the next sweep binds nothing.
    await player.close()
    await room_frame_where(watcher, lambda room: room["seats"][1]["connected"] is False)
    await database_sync_to_async(bots.sweep_round)()
    assert await seat_channel(code, 1) == ""
    await watcher.close()
