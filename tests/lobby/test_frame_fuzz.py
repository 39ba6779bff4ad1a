"""No frame can crash a socket: hypothesis sends arbitrary JSON, arbitrary text (lone
surrogates included) and arbitrary bytes to the real consumer, over the real database and
Redis, and every frame gets an answer while the socket stays open and the match unchanged.
Refusals name the frame's id whenever it had a readable one, a rate-limited frame included.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django.fixtures import Settings

from lobby.models import ActionRecord, Match, Seat
from tests.lobby.helpers import Table, db_async, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)

SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\ud83d"])
texts = st.text(max_size=12) | SURROGATES
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=10,
)
ids = st.text(min_size=1, max_size=70) | SURROGATES | st.integers() | st.none()


def _dumped(value: Any) -> str:
    """JSON text as a client could send it: lone surrogates escaped as `\\ud800`."""
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


frames = st.one_of(
    json_values.map(_dumped),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "sync", "chat", "ping", "bogus"]) | texts},
        optional={
            "id": ids,
            "action": json_values | st.fixed_dictionaries({"type": st.sampled_from(["play", "draw", "pass"])}),
            "version": json_values,
            "text": texts,
            "phrase": texts | st.sampled_from(["hello", "thanks"]),
            "seat": json_values,
        },
    ).map(_dumped),
    # Raw text, lone surrogates not escaped (daphne would refuse them as invalid UTF-8; the
    # consumer must not depend on it), and a frame over the size limit.
    st.text(max_size=80),
    st.builds(lambda t: '{"type": "action", "id": "big", "action": {}, "pad": "' + t * 5000 + '"}', texts),
)
payloads = frames.map(lambda text: ("text", text)) | st.binary(max_size=64).map(lambda raw: ("bytes", raw))


@db_async
def stored(code: str) -> tuple[int, int]:
    match = Match.objects.get(room__code=code)
    return match.version, ActionRecord.objects.filter(match=match).count()


@db_async
def seat_connected(code: str, index: int) -> bool:
    return bool(Seat.objects.get(room__code=code, index=index).channel)


_fences = iter(range(10**9))


async def answer(table: Table, kind: str, payload: Any) -> list[dict[str, Any]]:
    """Send one frame, then a fence (a frame refused with an id of its own): every frame
    that comes before the fence's refusal answers the first one."""
    # As the server hands a frame over, empty ones included (which `send_to` refuses).
    await table.ws.send_input({"type": "websocket.receive", "bytes" if kind == "bytes" else "text": payload})
    fence = f"fence-{next(_fences)}"
    await table.send({"type": "action", "id": fence})
    replies: list[dict[str, Any]] = []
    while True:
        frame = await table.next(timeout=10)
        if frame.get("id") == fence:
            assert frame["code"] == "malformed", frame
            return replies
        replies.append(frame)


def readable_id(kind: str, payload: Any) -> str | None:
    """The id a refusal must carry: a string of 1 to 64 characters UTF-8 can encode."""
    if kind != "text":
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    if not isinstance(found, str) or not 0 < len(found) <= 64:
        return None
    try:
        found.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return found


def test_no_frame_crashes_the_socket_and_every_refusal_names_its_id(settings_fixture: Any) -> None:
    loop = asyncio.new_event_loop()
    code, tokens = loop.run_until_complete(room_setup_async("draw", 2, {}, humans=2))
    seats = [Table(code, token) for token in tokens]
    spectator = Table(code)
    try:
        for table in [*seats, spectator]:
            assert loop.run_until_complete(table.open())[0]
        loop.run_until_complete(match_start_async(code, tokens[0]))
        for table in [*seats, spectator]:
            loop.run_until_complete(table.until("state"))
        before = loop.run_until_complete(stored(code))

        @settings(
            max_examples=150,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
        @given(payload=payloads, who=st.sampled_from([0, 1, 2]))
        def one_frame(payload: tuple[str, Any], who: int) -> None:
            kind, raw = payload
            table = [*seats, spectator][who]
            replies = loop.run_until_complete(answer(table, kind, raw))
            errors = [r for r in replies if r["type"] == "error"]
            for error in errors:
                assert error["code"] in {"malformed", "illegal_action", "not_your_turn", "stale_version",
                                         "unauthorized", "rate_limited", "id_reused"}, error
                assert error["code"] != "internal_error", error
                expected = readable_id(kind, raw)
                if expected is not None:
                    assert error.get("id") == expected, (raw[:200], replies)
            assert not [r for r in replies if r["type"] == "ack"], replies

        one_frame()
        # Nothing was played, every socket is still open, and each seat still connected.
        assert loop.run_until_complete(stored(code)) == before
        for index, table in enumerate(seats):
            pong = loop.run_until_complete(answer(table, "text", '{"type": "ping"}'))
            # Chat lines and room frames of the other seat's fuzzing may come along.
            assert "pong" in [f["type"] for f in pong] and "error" not in [f["type"] for f in pong]
            assert loop.run_until_complete(seat_connected(code, index))
        # Closing runs the disconnect path: the seats are free for the grace period again.
        for index, table in enumerate(seats):
            loop.run_until_complete(table.close())
            assert not loop.run_until_complete(seat_connected(code, index))
    finally:
        for table in [*seats, spectator]:
            with contextlib.suppress(Exception):
                loop.run_until_complete(table.close())
        loop.close()


@pytest.fixture
def settings_fixture(settings: Any) -> Any:
    """Rates that let a hundred frames through in a row: the fuzzing is of content."""
    settings.LOBBY_SYNC_RATE = 1000
    settings.LOBBY_SYNC_BURST = 1000
    settings.LOBBY_SPECTATOR_RATE = 1000
    settings.LOBBY_SPECTATOR_BURST = 1000
    return settings


async def test_a_lone_surrogate_id_is_refused_and_the_seat_is_let_go_when_the_socket_closes() -> None:
    """The fault that was found: an id `"\\ud800"` closed the socket with 1011, its
    disconnect never ran and the seat stayed connected, so no stand-in ever came."""
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    await match_start_async(code, tokens[0])
    table = Table(code, tokens[0])
    assert (await table.open())[0]
    await table.until("state")
    for frame, msg_id in (
        ('{"type": "action", "id": "\\ud800", "action": {"type": "draw"}}', None),
        ('{"type": "chat", "text": "\\udfff"}', None),
        ('{"type": "action", "id": "ok", "action": {"type": "play", "end": "\\ud800", "tile": [0, 0]}}', "ok"),
    ):
        replies = await answer(table, "text", frame)
        assert [r["type"] for r in replies] == ["error"]
        assert replies[0]["code"] == "malformed"
        assert replies[0].get("id") == msg_id
    assert await seat_connected(code, 0)
    await table.close()
    assert not await seat_connected(code, 0)


async def test_a_rate_limited_or_oversized_frame_is_answered_with_its_id(settings: Settings) -> None:
    settings.LOBBY_MESSAGE_RATE = 0.01
    settings.LOBBY_MESSAGE_BURST = 2
    code, tokens = await room_setup_async("draw", 2, {}, humans=2)
    table = Table(code, tokens[0])
    assert (await table.open())[0]
    await table.quiet(0.1)
    for n in range(4):
        await table.send({"type": "action", "id": f"a{n}", "action": {"type": "draw"}})
    replies = [await table.until("error") for _ in range(4)]
    assert [(r["id"], r["code"]) for r in replies[2:]] == [("a2", "rate_limited"), ("a3", "rate_limited")]
    await table.close()
    settings.LOBBY_MESSAGE_RATE = 1000
    settings.LOBBY_MESSAGE_BURST = 30
    table = Table(code, tokens[0])
    assert (await table.open())[0]
    await table.send(json.dumps({"type": "action", "id": "huge", "action": {"pad": "x" * 5000}}))
    error = await table.until("error")
    assert (error["id"], error["code"]) == ("huge", "malformed")
    await table.close()
