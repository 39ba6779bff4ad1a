"""A match nobody is connected to pauses, and resumes when a player comes back; a room
nobody uses is deleted by the periodic sweep. Over real sockets, database and Redis, with
the times shortened by the settings."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.utils import timezone
from pytest_django.fixtures import Settings

from lobby import bots, services, state_cache
from lobby.models import ActionRecord, Match, Room, Seat
from lobby.runtime import runtime
from lobby.services.expiry import rooms_idle
from tests.lobby.helpers import Table, db_async, match_start_async, room_setup_async
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE = 1.0


@db_async
def version_of(code: str) -> int:
    return int(Match.objects.get(room__code=code).version)


async def idle(timeout: float) -> bool:
    """Every timer and job of the background has run (waited for off the event loop)."""
    return await asyncio.to_thread(runtime().background().wait_idle, timeout)


@db_async
def idle_after_checks(code: str) -> int:
    """Every trigger a lost one is found again by (a check of the room, the sweep) has run
    and finished; returns how many rooms the sweep found a move could be due in."""
    bots.room_check(code)
    checked = bots.sweep()
    assert runtime().background().wait_idle(20)
    return checked


async def room_where(table: Table, done: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
    while True:
        room: dict[str, Any] = (await table.until("room", timeout))["room"]
        if done(room):
            return room


async def test_a_match_every_player_left_pauses_and_resumes_when_one_comes_back(settings: Settings) -> None:
    settings.LOBBY_PAUSE_SECONDS = PAUSE
    # A few moves a second: some before the pause, never a whole match.
    settings.AI_MOVE_DELAY = 0.3
    code, tokens = await room_setup_async("draw", 3, {}, humans=1, ai="easy")
    await database_sync_to_async(services.room_update)(code, tokens[0], {"grace_seconds": 0})
    player = Table(code, tokens[0])
    watcher = Table(code)  # a spectator: not a player, so it keeps nothing going
    for table in (player, watcher):
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    await player.until("state")
    await player.close()
    left_at = time.monotonic()
    # The stand-in and the AI seats play on for a while, then the table pauses.
    paused = await room_where(watcher, lambda room: room["paused"])
    waited = time.monotonic() - left_at
    assert PAUSE <= waited < PAUSE + 2, waited
    assert paused["playing"] and paused["seats"][0]["connected"] is False
    assert paused["seats"][0]["standin"] is False
    assert await version_of(code) > 0
    # Paused: neither the triggers that were pending nor the ones that find lost triggers
    # again play anything.
    assert await idle(20)
    version = await version_of(code)
    assert await idle_after_checks(code) == 0
    assert await version_of(code) == version

    # The player comes back: the match resumes and the AI seats play again.
    back = Table(code, tokens[0])
    assert (await back.open())[0]
    await room_where(back, lambda room: not room["paused"] and room["seats"][0]["connected"])
    state = await back.until("state")
    while state["version"] < version:
        state = await back.until("state")
    ai_moved = False
    while not ai_moved:
        assert not state["view"]["match_over"]
        before = state["version"]
        if state["view"]["to_move"] == 0:
            await back.send({"type": "action", "id": f"back{before}", "action": state["view"]["legal"][0]})
            await back.until("ack")
        else:
            ai_moved = True
        state = await back.until("state")
        assert state["version"] == before + 1
    assert await version_of(code) > version
    for table in (back, watcher):
        await table.close()


async def test_the_turn_clock_starts_again_when_a_paused_match_resumes(settings: Settings) -> None:
    settings.LOBBY_PAUSE_SECONDS = 0.5
    turn = 2
    code, tokens = await room_setup_async("draw", 2, {}, humans=1, ai="easy")
    # The stand-in would come after the pause: it never does.
    await database_sync_to_async(services.room_update)(
        code, tokens[0], {"grace_seconds": 1, "turn_seconds": turn}
    )
    player = Table(code, tokens[0])
    assert (await player.open())[0]
    await match_start_async(code, tokens[0])
    state = await player.until("state")
    while state["view"]["to_move"] != 0:
        state = await player.until("state")
    await player.close()
    watcher = Table(code)
    assert (await watcher.open())[0]
    paused = await room_where(watcher, lambda room: room["paused"])
    assert paused["match"]["turn_deadline"] is None
    # Past the turn deadline the match was left with, and the stand-in's: nothing played.
    assert await idle(turn + 5)
    assert await version_of(code) == paused["match"]["version"] == state["version"]

    back = Table(code, tokens[0])
    assert (await back.open())[0]
    returned_at = datetime.now().astimezone()
    room = await room_where(back, lambda room: not room["paused"])
    deadline = datetime.fromisoformat(room["match"]["turn_deadline"])
    # A whole turn to play, not a default move the moment the table wakes.
    assert (deadline - returned_at).total_seconds() > turn - 0.5
    # Left alone again but connected, the timer plays for the seat once its turn runs out.
    moved = await back.until("state", timeout=turn + 5)
    while moved["version"] == state["version"]:
        moved = await back.until("state", timeout=turn + 5)
    assert datetime.now().astimezone() >= deadline
    for table in (back, watcher):
        await table.close()


@db_async
def room_rows(code: str) -> dict[str, int]:
    """How many rows of each kind the room has: itself, its seats, matches and actions."""
    return {
        "rooms": Room.objects.filter(code=code).count(),
        "seats": Seat.objects.filter(room__code=code).count(),
        "matches": Match.objects.filter(room__code=code).count(),
        "actions": ActionRecord.objects.filter(match__room__code=code).count(),
    }


@db_async
def until_idle(code: str, timeout: float = 10) -> None:
    """Wait until the room counts as idle, as the clock runs past its idle time."""
    wait_until(lambda: rooms_idle(timezone.now()).filter(code=code).exists(), f"room {code} to become idle", timeout)


@db_async
def sweep_once() -> None:
    """`manage.py lobby_sweep --once`, in a process with no timer of its own pending, as the
    command's own process (it waits for what its round schedules)."""
    runtime().background().cancel_timers()
    call_command("lobby_sweep", "--once", stdout=io.StringIO())


async def test_rooms_idle_for_the_set_time_are_deleted_with_their_logs_by_the_periodic_sweep(settings: Settings) -> None:
    settings.LOBBY_ROOM_IDLE_DAYS = 2 / 86400  # two seconds
    settings.LOBBY_PAUSE_SECONDS = 0.5
    # Left to its AI seat and a stand-in (no grace period), the match plays on until it
    # pauses (or ends); then nothing touches the room any more.
    played, tokens = await room_setup_async("draw", 2, {}, humans=1, ai="easy")
    await database_sync_to_async(services.room_update)(played, tokens[0], {"grace_seconds": 0})
    await match_start_async(played, tokens[0])
    number = (await database_sync_to_async(Match.objects.get)(room__code=played)).number
    watched, watched_tokens = await room_setup_async("draw", 2, {}, humans=2)
    player = Table(watched, watched_tokens[1])
    assert (await player.open())[0]
    await until_idle(played)
    before = await room_rows(played)
    assert before["matches"] == 1 and before["actions"] > 0
    assert runtime().redis().exists(state_cache.key(played, number))
    fresh, _ = await room_setup_async("draw", 2, {}, humans=1, ai="easy")

    await sweep_once()
    # Idle: gone with its seats, match and action log, and its cached state.
    assert await room_rows(played) == {"rooms": 0, "seats": 0, "matches": 0, "actions": 0}
    assert not runtime().redis().exists(state_cache.key(played, number))
    # A room a player is connected to, and a new room, stay.
    assert (await room_rows(watched))["rooms"] == 1
    assert (await room_rows(fresh))["rooms"] == 1
    # Once its last player has left, the idle time runs from then.
    await player.close()
    await until_idle(watched)
    await sweep_once()
    assert (await room_rows(watched))["rooms"] == 0
    # A socket to a deleted room is told so, as any unknown room.
    late = Table(played)
    connected, _ = await late.ws.connect(timeout=10)
    assert connected
    assert (await late.next())["code"] == "not_found"
    assert await late.ws.receive_output() == {"type": "websocket.close", "code": 4404}
