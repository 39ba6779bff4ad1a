"""A match nobody is connected to pauses, and resumes when a player comes back; over a real
socket, database and Redis, with the pause shortened by the settings."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async

from lobby import bots, services
from lobby.background import background
from lobby.models import Match
from tests.lobby.helpers import Table, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE = 1.0


@database_sync_to_async
def version_of(code: str) -> int:
    return int(Match.objects.get(room__code=code).version)


async def idle(timeout: float) -> bool:
    """Every timer and job of the background has run (waited for off the event loop)."""
    return await asyncio.to_thread(background().wait_idle, timeout)


@database_sync_to_async
def idle_after_checks(code: str) -> int:
    """Every trigger a lost one is found again by (a check of the room, the sweep) has run
    and finished; returns how many rooms the sweep found a move could be due in."""
    bots.room_check(code)
    checked = bots.sweep()
    assert background().wait_idle(20)
    return checked


async def room_where(table: Table, done: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
    while True:
        room: dict[str, Any] = (await table.until("room", timeout))["room"]
        if done(room):
            return room


async def test_a_match_every_player_left_pauses_and_resumes_when_one_comes_back(settings):
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


async def test_the_turn_clock_starts_again_when_a_paused_match_resumes(settings):
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
