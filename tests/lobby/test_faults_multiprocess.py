"""Hostile input injected into two real daphne processes over the real database and Redis:
a reused action id on either process, a frame with a lone surrogate, spectators and sockets
past their caps, a flood of `sync`, and a client rotating its X-Forwarded-For.

The processes cap each address at ADDRESS_CAP sockets and each room at SPECTATOR_CAP
spectators, so the caps are reached with a handful of sockets; every cap counts the
sockets of both processes together.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.lobby.faults import Socket, call, room_started, servers
from tests.lobby.procs import Daphne, Stores, daphne_group

pytestmark = pytest.mark.multiprocess

ADDRESS_CAP = 10
SPECTATOR_CAP = 3
GROUP_ENV = {
    "THROTTLE_ROOM_CREATE": "100000/minute",
    "THROTTLE_SEAT_JOIN": "100000/minute",
    "LOBBY_ADDRESS_CONNECTIONS": str(ADDRESS_CAP),
    "LOBBY_ROOM_SPECTATORS": str(SPECTATOR_CAP),
    "AI_MOVE_DELAY": "0",
}


@pytest.fixture(scope="module")
def group() -> Iterator[tuple[Stores, list[Daphne]]]:
    with servers(2, GROUP_ENV) as made:
        yield made


async def seated(servers_: list[Daphne], code: str, tokens: list[str]) -> list[Socket]:
    """Seat k on process k % 2, each with the match's first state."""
    sockets = [await Socket.open(servers_[k % 2], code, token) for k, token in enumerate(tokens)]
    for sock in sockets:
        await sock.until(lambda sock=sock: sock.latest("state"))
    return sockets


def to_move(sockets: list[Socket]) -> tuple[Socket, dict[str, Any]]:
    """The socket whose seat moves now, and its newest state."""
    newest = max((s.latest("state") for s in sockets), key=lambda f: f["version"] if f else -1)
    assert newest is not None
    mover = sockets[newest["view"]["to_move"]]
    state = mover.latest("state")
    assert state is not None
    return mover, state


async def act(sock: Socket, msg_id: str, action: dict[str, Any]) -> dict[str, Any]:
    await sock.send({"type": "action", "id": msg_id, "action": action})
    reply: dict[str, Any] = await sock.until(lambda: sock.reply(msg_id))
    return reply


async def reached(sockets: list[Socket], version: int) -> None:
    for sock in sockets:
        await sock.until(lambda sock=sock: (sock.latest("state") or {"version": -1})["version"] >= version)


async def test_multiprocess_an_action_id_is_bound_to_its_action_on_either_process(group: tuple[Stores, list[Daphne]]) -> None:
    _, procs = group
    code, tokens = await asyncio.to_thread(room_started, procs[0].url)
    sockets = await seated(procs, code, tokens)
    try:
        mover, state = to_move(sockets)
        legal = state["view"]["legal"]
        ack = await act(mover, "first", legal[0])
        assert ack == {"type": "ack", "id": "first", "version": state["version"] + 1}
        await reached(sockets, ack["version"])
        seat = sockets.index(mover)
        # The same seat on the other process: the same id and action is a retry; the same id
        # with another action is refused, whichever checks come after it.
        other = await Socket.open(procs[1 - seat % 2], code, tokens[seat])
        await other.until(lambda: other.latest("state"))
        assert await act(other, "first", legal[0]) == ack
        other.frames.clear()
        another = legal[1] if len(legal) > 1 else {"type": "draw"}
        refused = await act(other, "first", another)
        assert (refused["type"], refused["code"]) == ("error", "id_reused"), refused
        # On the seat's next turn, a legal action under the old id is refused too, by the
        # process that made the last change (its fast path) and by the other one.
        sockets[seat] = other
        while True:
            mover, state = to_move(sockets)
            if sockets.index(mover) == seat:
                break
            done = await act(mover, f"v{state['version']}", state["view"]["legal"][0])
            assert done["type"] == "ack", done
            await reached(sockets, done["version"])
        version = state["version"]
        other.frames.clear()
        refused = await act(other, "first", state["view"]["legal"][0])
        assert (refused["type"], refused["code"]) == ("error", "id_reused"), refused
        back = await Socket.open(procs[seat % 2], code, tokens[seat])
        sockets[seat] = back
        await back.until(lambda: back.latest("state"))
        refused = await act(back, "first", state["view"]["legal"][0])
        assert (refused["type"], refused["code"]) == ("error", "id_reused"), refused
        status, room, _ = await asyncio.to_thread(call, procs[0].url, "GET", f"/api/rooms/{code}/")
        assert status == 200 and room["match"]["version"] == version
    finally:
        for sock in sockets:
            await sock.close()


async def test_multiprocess_a_lone_surrogate_frame_is_refused_and_closing_lets_the_seat_go(group: tuple[Stores, list[Daphne]]) -> None:
    _, procs = group
    code, tokens = await asyncio.to_thread(room_started, procs[1].url)
    sockets = await seated(procs, code, tokens)
    try:
        for sock in sockets:
            await sock.send('{"type": "action", "id": "\\ud800", "action": {"type": "draw"}}')
            await sock.send('{"type": "ping", "id": "\\udfff"}')
            await sock.send('{"type": "chat", "text": "hi \\ud83d"}')
            await sock.send({"type": "ping"})
            await sock.until(lambda sock=sock: sock.latest("pong"))
            errors = [f for f in sock.frames if f["type"] == "error"]
            assert [e["code"] for e in errors] == ["malformed"] * 3, errors
            assert all("id" not in e for e in errors)
            assert sock.close_code is None
        status, room, _ = await asyncio.to_thread(call, procs[0].url, "GET", f"/api/rooms/{code}/")
        assert status == 200 and [s["connected"] for s in room["seats"]] == [True, True]
        await sockets[0].close()

        async def seat_let_go() -> None:
            while True:
                _, room, _ = await asyncio.to_thread(call, procs[1].url, "GET", f"/api/rooms/{code}/")
                if room["seats"][0]["connected"] is False:
                    return
                await asyncio.sleep(0.05)

        await asyncio.wait_for(seat_let_go(), 10)
    finally:
        for sock in sockets:
            await sock.close()


async def admitted(server: Daphne, code: str, token: str | None = None) -> Socket:
    """A socket the caps admit: places given back by sockets just closed (here or by an
    earlier test) return when the server has seen the close, so a refusal is tried again
    until then."""
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        sock = await Socket.open(server, code, token)
        await sock.until(lambda sock=sock: sock.latest("room") or sock.close_code)
        if sock.close_code is None:
            return sock
        assert sock.close_code in {4409, 4429}, sock.close_code
        assert asyncio.get_running_loop().time() < deadline, "the caps never gave a place back"
        await asyncio.sleep(0.05)


async def test_multiprocess_spectators_and_sockets_past_their_caps_are_closed_with_their_codes(group: tuple[Stores, list[Daphne]]) -> None:
    _, procs = group
    code, tokens = await asyncio.to_thread(room_started, procs[0].url)
    others = [(await asyncio.to_thread(room_started, procs[1].url))[0] for _ in range(3)]
    opened: list[Socket] = []
    try:
        # Spectators of one room, alternating processes: the cap counts both.
        for n in range(SPECTATOR_CAP):
            opened.append(await admitted(procs[n % 2], code))
        extra = await Socket.open(procs[SPECTATOR_CAP % 2], code)
        assert await extra.closed() == 4409
        error = extra.latest("error")
        assert error is not None
        assert error["code"] == "conflict"
        assert "spectators" in error["message"]
        # A player still opens a seat, and a spectator gone frees a place.
        opened.append(await admitted(procs[1], code, tokens[0]))
        await opened.pop(0).close()
        opened.append(await admitted(procs[0], code))
        # Sockets of one address, over both processes and any room: the next is refused.
        while len(opened) < ADDRESS_CAP:
            opened.append(await admitted(procs[len(opened) % 2], others[len(opened) % 3]))
        rotated = await Socket.open(procs[1], others[0], additional_headers={"X-Forwarded-For": "203.0.113.9"})
        assert await rotated.closed() == 4429
        error = rotated.latest("error")
        assert error is not None
        assert error["code"] == "rate_limited"
        await opened.pop().close()
        opened.append(await admitted(procs[0], others[0]))
    finally:
        for sock in opened:
            await sock.close()


async def test_multiprocess_a_sync_flood_is_refused_then_closed_while_the_players_play_on(group: tuple[Stores, list[Daphne]]) -> None:
    _, procs = group
    code, tokens = await asyncio.to_thread(room_started, procs[0].url)
    sockets = await seated(procs, code, tokens)
    flooder = await Socket.open(procs[0], code)
    try:
        await flooder.until(lambda: flooder.latest("state"))
        for n in range(200):
            await flooder.send({"type": "sync"} if n % 2 else {"type": "action", "id": f"f{n}", "action": {}})
        assert await flooder.closed() == 4008
        refused = [f for f in flooder.frames if f["type"] == "error"]
        assert {f["code"] for f in refused} <= {"rate_limited", "unauthorized"}
        assert any(f["code"] == "rate_limited" and f.get("id", "").startswith("f") for f in refused)
        for _ in range(4):
            mover, state = to_move(sockets)
            done = await act(mover, f"m{state['version']}", state["view"]["legal"][0])
            assert done["type"] == "ack", done
            await reached(sockets, done["version"])
    finally:
        await flooder.close()
        for sock in sockets:
            await sock.close()


def creates(base: str, forwarded: list[str]) -> list[int]:
    """Create a room once per X-Forwarded-For value; the statuses."""
    return [
        call(base, "POST", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"},
             headers={"X-Forwarded-For": value})[0]
        for value in forwarded
    ]


@pytest.mark.parametrize("proxies", [0, 1])
async def test_multiprocess_a_rotated_x_forwarded_for_never_escapes_the_throttle(group: tuple[Stores, list[Daphne]], proxies: int) -> None:
    """No proxy trusted (`tasks.py serve`): the header is the client's own writing and the
    peer is counted. One proxy trusted (compose: haproxy writes the last entry): only that
    entry is counted, whatever the client wrote before it."""
    stores, _ = group
    env = {**GROUP_ENV, "THROTTLE_ROOM_CREATE": "3/minute", "NUM_PROXIES": str(proxies)}
    with daphne_group(1, stores=stores, extra_env=env, needs_migrate=False) as (_, (server,)):
        await asyncio.to_thread(stores.flush_redis)
        if proxies == 0:
            statuses = await asyncio.to_thread(creates, server.url, [f"198.51.100.{n}" for n in range(8)])
            assert statuses[:3] == [201] * 3 and statuses[3:] == [429] * 5
        else:
            forged = [f"198.51.100.{n}, 192.0.2.7" for n in range(6)]
            statuses = await asyncio.to_thread(creates, server.url, forged)
            assert statuses[:3] == [201] * 3 and statuses[3:] == [429] * 3
            # Another client behind the same proxy has its own count.
            assert await asyncio.to_thread(creates, server.url, ["192.0.2.8"]) == [201]
        status, body, _ = await asyncio.to_thread(
            call, server.url, "POST", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"}
        )
        assert status == (429 if proxies == 0 else 201), body
        if status == 429:
            assert body["code"] == "rate_limited"
