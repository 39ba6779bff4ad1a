"""AI seats, stand-ins for players who dropped, the turn timer, and lost triggers."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from games.engine import get_rules
from lobby import bots, services
from lobby.models import ActionRecord, Match
from lobby.runtime import runtime
from tests.lobby.helpers import Table, db_async, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)


@db_async
def actors(code: str) -> list[tuple[int, str]]:
    return list(ActionRecord.objects.filter(match__room__code=code).values_list("seat", "actor"))


@db_async
def match_of(code: str) -> Match:
    return Match.objects.get(room__code=code)


async def test_a_dropped_player_gets_a_hard_ai_after_the_grace_period_and_the_seat_back_on_return() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    await database_sync_to_async(services.room_update)(code, tokens[0], {"grace_seconds": 1})
    tables = [Table(code, tokens[0]), Table(code, tokens[1])]
    for table in tables:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    state = await tables[0].until("state")
    await tables[1].until("state")
    mover = state["view"]["to_move"]
    stayer = tables[1 - mover]
    await tables[mover].close()
    gone = await stayer.until("room")
    while gone["room"]["seats"][mover]["connected"]:
        gone = await stayer.until("room")
    assert gone["room"]["seats"][mover]["standin_at"] is not None
    assert gone["room"]["seats"][mover]["standin"] is False
    # The stand-in moves for the absent seat once the grace period is over.
    moved = await stayer.until("state", timeout=10)
    assert moved["version"] == state["version"] + 1
    assert (await actors(code))[0] == (mover, "standin")
    # Back again: the seat is theirs, and nobody plays for them any more.
    back = Table(code, tokens[mover])
    assert (await back.open())[0]
    assert back.seat == mover
    # A room frame published before this socket joined may still be on its way.
    room = (await back.until("room"))["room"]
    while not room["seats"][mover]["connected"]:
        room = (await back.until("room"))["room"]
    assert room["seats"][mover]["standin_at"] is None
    while True:
        await back.quiet(0.1)
        await stayer.quiet(0.1)
        latest = back.latest_state()
        assert latest is not None
        if latest["view"]["to_move"] == mover or latest["view"]["match_over"]:
            break
        turn = stayer.latest_state()
        assert turn is not None
        await stayer.send({"type": "action", "id": f"x{turn['version']}", "action": turn["view"]["legal"][0]})
        await stayer.until("ack")
    before = (await match_of(code)).version
    await back.quiet(1.5)
    assert (await match_of(code)).version == before
    for table in (back, stayer):
        await table.close()


async def test_the_turn_timer_plays_a_default_move_for_a_seat_that_waits_too_long() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    await database_sync_to_async(services.room_update)(code, tokens[0], {"turn_seconds": 1})
    tables = [Table(code, tokens[0]), Table(code, tokens[1])]
    for table in tables:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    state = await tables[0].until("state")
    # A room frame from before the start (the other seat joining) may still be on its way.
    room = (await tables[0].until("room"))["room"]
    while room["match"] is None:
        room = (await tables[0].until("room"))["room"]
    assert room["match"]["turn_deadline"] is not None
    # The timer's move, whether it came while the room frames did or comes now.
    moved = state["version"] + 1
    while not any(f["type"] == "state" and f["version"] == moved for f in tables[0].frames):
        await tables[0].next(10)
    assert (await actors(code))[0] == (state["view"]["to_move"], "timer")
    for table in tables:
        await table.close()


async def test_a_lost_ai_trigger_is_recovered_by_the_sweep_and_by_sync(settings: Settings) -> None:
    settings.AI_MOVE_DELAY = 3600
    code, tokens = await room_setup_async("draw", 2, {}, humans=1)
    human = Table(code, tokens[0])
    assert (await human.open())[0]
    await match_start_async(code, tokens[0])
    state = await human.until("state")
    if state["view"]["to_move"] == 0:
        await human.send({"type": "action", "id": "first", "action": state["view"]["legal"][0]})
        await human.until("ack")
        state = await human.until("state")
    assert state["view"]["to_move"] == 1
    # Every trigger of this process is lost, as when a server restarts.
    runtime().background().cancel_timers()
    runtime().scheduled.clear()
    settings.AI_MOVE_DELAY = 0
    assert await database_sync_to_async(bots.sweep)() == 1
    moved: dict[str, Any] | None
    moved = await human.until("state")
    assert moved["version"] == state["version"] + 1
    settings.AI_MOVE_DELAY = 3600
    while True:
        # A move the AI scheduled before the delay went back up (a draw, then its play) may
        # still come: the table is read once the socket is quiet.
        await human.quiet(0.3)
        moved = human.latest_state()
        assert moved is not None
        if moved["view"]["to_move"] != 0 or moved["view"]["match_over"]:
            break
        await human.send(
            {"type": "action", "id": f"m{moved['version']}", "action": moved["view"]["legal"][0]}
        )
        await human.until("ack")
    runtime().background().cancel_timers()
    runtime().scheduled.clear()
    settings.AI_MOVE_DELAY = 0
    await human.send({"type": "sync"})
    synced = await human.until("state")
    recovered = await human.until("state")
    assert recovered["version"] == synced["version"] + 1
    await human.close()


def test_ai_decisions_are_reproducible_from_the_match_seed() -> None:
    rules = get_rules("draw")
    state = rules.new_match(2, {}, seed=bytes(32))
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    seed = bots.bot_seed(bytes(32), 0)
    assert seed == bots.bot_seed(bytes(32), 0) != bots.bot_seed(bytes(32), 1)
    for level in ("easy", "medium", "hard"):
        first = bots.action_choose("draw", level, seed, view)
        assert first == bots.action_choose("draw", level, seed, view)
        assert first in view["legal"] or {**first, "tile": sorted(first["tile"])} in view["legal"]


async def test_a_seat_whose_server_process_died_counts_as_gone_and_gets_its_stand_in() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    await database_sync_to_async(services.room_update)(code, tokens[0], {"grace_seconds": 0})
    live = Table(code, tokens[0])
    assert (await live.open())[0]
    # Seat 1's socket lived in a process that was killed: the seat names its channel, but
    # no process renews that channel's presence.
    await database_sync_to_async(services.connection_open)(code, tokens[1], "dominoes.specific.dead")
    await match_start_async(code, tokens[0])
    await live.until("state")
    assert await database_sync_to_async(bots.sockets_reconcile)() == 1
    room = (await live.until("room"))["room"]
    while room["seats"][1]["connected"]:
        room = (await live.until("room"))["room"]
    assert room["seats"][0]["connected"] is True
    # The stand-in may have moved while the room frames came in.
    played = live.latest_state()
    assert played is not None
    if played["view"]["to_move"] == 0:
        await live.send({"type": "action", "id": "mine", "action": played["view"]["legal"][0]})
        await live.until("ack")
        played = await live.until("state")
    while played["view"]["to_move"] == 1 and not played["view"]["match_over"]:
        played = await live.until("state")
    assert (1, "standin") in await actors(code)
    assert await database_sync_to_async(bots.sockets_reconcile)() == 0
    await live.close()
