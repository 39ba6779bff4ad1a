"""What a socket may not do: every refusal answers with an error code and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from pytest_django.fixtures import Settings

from lobby import selectors, state_cache
from lobby.models import ActionRecord, Match
from lobby.runtime import runtime
from tests.lobby.helpers import (
    Table,
    db_async,
    match_start_async,
    room_setup_async,
    states_replayed,
    verify_frames,
)

pytestmark = pytest.mark.django_db(transaction=True)


@db_async
def stored(code: str) -> tuple[int, int, list[Any]]:
    match = Match.objects.get(room__code=code)
    records = list(ActionRecord.objects.filter(match=match).values_list("seq", "action"))
    return match.version, len(records), records


async def two_player_table() -> tuple[str, dict[int, Table], Table]:
    """A started two-player Draw between two sockets, and a spectator; nobody moves alone."""
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    seats = {i: Table(code, token) for i, token in enumerate(tokens)}
    spectator = Table(code)
    for table in [*seats.values(), spectator]:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    for table in [*seats.values(), spectator]:
        await table.until("state")
    return code, seats, spectator


def to_move(seats: dict[int, Table]) -> tuple[Table, Table, dict[str, Any]]:
    state = seats[0].latest_state()
    assert state is not None
    mover = state["view"]["to_move"]
    mover_state = seats[mover].latest_state()
    assert mover_state is not None
    return seats[mover], seats[1 - mover], mover_state


async def test_every_kind_of_bad_input_gets_an_error_code_and_changes_nothing() -> None:
    code, seats, spectator = await two_player_table()
    mover, waiter, state = to_move(seats)
    legal = state["view"]["legal"][0]
    waiter_state = waiter.latest_state()
    assert waiter_state is not None
    illegal_tile = next(t for t in waiter_state["view"]["hand"])
    before = await stored(code)
    cases = [
        (mover, "not json", "malformed"),
        (mover, "[1, 2]", "malformed"),
        (mover, {"type": "teleport"}, "malformed"),
        (mover, {"type": "sync", "seat": 1}, "malformed"),
        (mover, {"type": "action", "action": legal}, "malformed"),
        (mover, {"type": "action", "id": "x" * 65, "action": legal}, "malformed"),
        (mover, {"type": "action", "id": "a", "action": {"type": "fly"}}, "malformed"),
        (mover, {"type": "action", "id": "b", "action": {"type": "play", "tile": [9, 9]}}, "illegal_action"),
        (
            mover,
            {"type": "action", "id": "c", "action": {"type": "play", "tile": illegal_tile}},
            "illegal_action",
        ),
        (
            mover,
            {"type": "action", "id": "d", "action": legal, "version": state["version"] + 5},
            "stale_version",
        ),
        (mover, {"type": "action", "id": "e", "action": legal, "version": -1}, "malformed"),
        (mover, json.dumps({"type": "chat", "text": "x" * 5000}), "malformed"),
        (mover, {"type": "chat", "text": "   "}, "malformed"),
        (waiter, {"type": "action", "id": "f", "action": legal}, "not_your_turn"),
        (waiter, {"type": "action", "id": "g", "action": {"type": "draw"}}, "not_your_turn"),
        (spectator, {"type": "action", "id": "h", "action": legal}, "unauthorized"),
        (spectator, {"type": "chat", "phrase": "hello"}, "unauthorized"),
    ]
    for table, frame, expected in cases:
        await table.send(frame)
        answer = await table.until("error")
        assert answer["type"] == "error", (frame, answer)
        assert answer["code"] == expected, (frame, answer)
        assert answer["message"]
    await mover.ws.send_to(bytes_data=b"\x00\x01")
    assert (await mover.until("error"))["code"] == "malformed"
    assert await stored(code) == before
    for table in [*seats.values(), spectator]:
        await table.quiet(0.2)
        assert [f["version"] for f in table.states()] == [state["version"]]


async def test_a_flood_is_rate_limited_without_closing_the_socket(settings: Settings) -> None:
    settings.LOBBY_MESSAGE_BURST = 5
    settings.LOBBY_MESSAGE_RATE = 1
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    table = Table(code, tokens[0])
    assert (await table.open())[0]
    await table.quiet(0.1)
    for _ in range(12):
        await table.send({"type": "ping"})
    answers = [await table.next() for _ in range(12)]
    assert [a["type"] for a in answers[:4]] == ["pong"] * 4
    assert {"type": "error", "code": "rate_limited"}.items() <= answers[-1].items()
    await table.close()


async def test_a_forged_token_cannot_connect_and_a_spectator_sees_no_hand() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    other_code, _other_tokens = await room_setup_async("draw", 2, {}, humans=2)
    await match_start_async(code, tokens[0])
    for forged in (Table(code, "forged-token-0123456789"), Table(other_code, tokens[0])):
        connected, _ = await forged.ws.connect()
        assert connected
        error = await forged.next()
        assert error["type"] == "error" and error["code"] == "unauthorized"
        closed = await forged.ws.receive_output()
        assert closed == {"type": "websocket.close", "code": 4401}
    spectator = Table(code)
    assert (await spectator.open())[0]
    state = await spectator.until("state")
    assert "hand" not in state["view"] and state["view"]["seat"] is None and state["view"]["legal"] == []

async def test_a_socket_to_an_unknown_room_is_accepted_told_and_closed_with_4404() -> None:
    """A handshake refused with HTTP 403 looks to a browser like a network fault, which it
    retries forever; 4404 after the accept is a final answer it can show."""
    missing = Table("nosuchroom2345")
    connected, _ = await missing.ws.connect()
    assert connected
    error = await missing.next()
    assert error["type"] == "error" and error["code"] == "not_found"
    closed = await missing.ws.receive_output()
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_a_room_code_in_capitals_opens_the_same_seat_and_stream() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    upper = Table(code.upper(), tokens[1])
    assert (await upper.open())[0]
    assert upper.seat == 1
    room = await upper.until("room")
    assert room["room"]["code"] == code
    await match_start_async(code, tokens[0])
    state = await upper.until("state")
    assert state["view"]["seat"] == 1 and "hand" in state["view"]
    await upper.ws.disconnect()


async def test_a_resent_action_id_is_acknowledged_again_and_applied_once() -> None:
    code, seats, _spectator = await two_player_table()
    mover, _waiter, state = to_move(seats)
    frame = {
        "type": "action",
        "id": "retry-1",
        "action": state["view"]["legal"][0],
        "version": state["version"],
    }
    await mover.send(frame)
    ack = await mover.until("ack")
    assert ack == {"type": "ack", "id": "retry-1", "version": state["version"] + 1}
    await mover.send(frame)
    assert await mover.until("ack") == ack
    version, count, _ = await stored(code)
    assert (version, count) == (state["version"] + 1, state["version"] + 1)


async def test_sync_answers_the_current_state_and_states_equal_fresh_views() -> None:
    code, seats, spectator = await two_player_table()
    for _ in range(6):
        mover, _waiter, state = to_move(seats)
        await mover.send(
            {"type": "action", "id": f"m{state['version']}", "action": state["view"]["legal"][-1]}
        )
        await mover.until("ack")
        for table in [*seats.values(), spectator]:
            await table.quiet(0.05)
    for table in [*seats.values(), spectator]:
        await table.send({"type": "sync"})
        assert (await table.until("room"))["room"]["code"] == code
        synced = await table.until("state")
        version, view = await database_sync_to_async(selectors.seat_view_get)(code, table.seat)
        assert synced == {"type": "state", "version": version, "view": view}
    rules, states = await database_sync_to_async(states_replayed)(code)
    for table in [*seats.values(), spectator]:
        verify_frames(table.frames, table.seat, rules, states)


async def test_the_state_rebuilds_from_the_log_when_the_cache_is_flushed_mid_match() -> None:
    code, seats, spectator = await two_player_table()
    for round_ in range(8):
        if round_ in (3, 6):
            runtime().states.forget(code, 0)
        if round_ == 5:
            # A stale entry (wrong version) is never used.
            runtime().redis().hset(state_cache.key(code, 0), mapping={"v": 999, "s": "{}"})
            runtime().states.forget_local()
        mover, _waiter, state = to_move(seats)
        await mover.send({"type": "action", "id": f"m{round_}", "action": state["view"]["legal"][0]})
        assert (await mover.until("ack"))["version"] == state["version"] + 1
        for table in [*seats.values(), spectator]:
            await table.quiet(0.05)
    rules, states = await database_sync_to_async(states_replayed)(code)
    for table in [*seats.values(), spectator]:
        verify_frames(table.frames, table.seat, rules, states)
        latest = table.latest_state()
        assert latest is not None
        assert latest["version"] == max(states)


async def test_a_newer_connection_of_a_seat_takes_over_from_the_older_one() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    first = Table(code, tokens[1])
    assert (await first.open())[0]
    second = Table(code, tokens[1])
    assert (await second.open())[0]
    assert second.seat == 1
    assert (await first.until("replaced"))["type"] == "replaced"
    assert (await first.ws.receive_output())["code"] == 4000
    room = (await second.until("room"))["room"]
    assert room["seats"][1]["connected"] is True


async def test_chat_reaches_the_whole_room_with_name_and_capped_text() -> None:
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    ann, bob, watcher = Table(code, tokens[0]), Table(code, tokens[1]), Table(code)
    for table in (ann, bob, watcher):
        assert (await table.open())[0]
    await ann.send({"type": "chat", "text": "  hello\tthere \x07 "})
    await bob.send({"type": "chat", "phrase": "good_luck"})
    for table in (ann, bob, watcher):
        said = [await table.until("chat"), await table.until("chat")]
        by_seat = {c["seat"]: c for c in said}
        assert by_seat[0]["text"] == "hello there" and by_seat[0]["name"] == "P0"
        assert by_seat[1]["text"] == "Good luck!" and by_seat[1]["phrase"] == "good_luck"


async def test_a_socket_from_a_foreign_origin_is_refused() -> None:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    code, _tokens = await room_setup_async("draw", 2, {}, humans=1)
    foreign = WebsocketCommunicator(
        application, f"/ws/rooms/{code}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await foreign.connect()
    assert not connected


async def test_a_kicked_player_is_told_and_closed_and_their_token_no_longer_opens_the_seat() -> None:
    from django.test import Client

    from tests.lobby.helpers import api

    code, tokens = await room_setup_async("draw", 3, {}, humans=2)
    bob = Table(code, tokens[1])
    assert (await bob.open())[0]
    kicked = await database_sync_to_async(api)(
        Client(), "delete", f"/api/rooms/{code}/seats/1/", None, tokens[0]
    )
    assert kicked.status_code == 204
    assert (await bob.until("kicked"))["type"] == "kicked"
    assert (await bob.ws.receive_output())["code"] == 4003
    again = Table(code, tokens[1])
    await again.ws.connect()
    assert (await again.next())["code"] == "unauthorized"


async def test_a_socket_forwards_only_its_own_seats_frame_from_the_channel_layer() -> None:
    from lobby import realtime

    code, seats, spectator = await two_player_table()
    state = seats[0].latest_state()
    assert state is not None
    number = (await database_sync_to_async(lambda: Match.objects.get(room__code=code).number)())
    later = state["version"] + 5
    seat_1_state = seats[1].latest_state()
    assert seat_1_state is not None
    other = json.dumps({"type": "state", "version": later, "view": seat_1_state["view"]})
    for table in [*seats.values(), spectator]:
        await table.quiet()

    def views(frames: object) -> dict[str, object]:
        return {"type": "lobby.views", "code": code, "match": number, "version": later, "frames": frames}

    # Only another seat's frame, a raw view in place of a frame, no frames at all: seat 0
    # and the spectator get nothing; seat 1 gets its own frame.
    await realtime.room_send(code, views({"1": other}))
    assert await seats[0].quiet() == []
    assert await spectator.quiet() == []
    assert await seats[1].quiet() == [json.loads(other)]
    for event in (views({"0": state["view"]}), views(None), {**views({}), "view": state["view"]}):
        await realtime.room_send(code, event)
    assert await seats[0].quiet() == []
    own = json.dumps({"type": "state", "version": later, "view": state["view"]})
    await realtime.room_send(code, views({"0": own, "1": other}))
    assert await seats[0].quiet() == [json.loads(own)]
