"""The load generator's WebSocket client against a strict RFC 6455 server (`websockets`).

`websockets` refuses unmasked client frames and fails a connection that misframes, so every
exchange here also proves the client's own framing.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import orjson
import pytest
from websockets.asyncio.server import ServerConnection, serve

from bench.load import Client, Room, Tally
from bench.ws_client import ConnectionClosed, HandshakeError, connect


class Inbox:
    def __init__(self) -> None:
        self.messages: asyncio.Queue[bytes] = asyncio.Queue()
        self.closed: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()

    def message(self, payload: bytes, arrived: float) -> None:
        self.messages.put_nowait(payload)

    def close(self, code: int | None) -> None:
        self.closed.set_result(code)


async def echo_and_more(ws: ServerConnection) -> None:
    """Echoes each message; `big`, `fragments`, `ping` and `close` ask for the other cases."""
    async for text in ws:
        if text == "big":
            await ws.send("x" * 70_000)
            await ws.send("y" * 300)
        elif text == "fragments":
            await ws.send(["one ", "two ", "three"])
        elif text == "ping":
            await asyncio.wait_for(await ws.ping(b"are you there"), 2)
            await ws.send("pong received")
        elif text == "close":
            await ws.close(1011, "going")
        else:
            await ws.send(text)


@pytest.fixture
async def url() -> Any:
    async with serve(echo_and_more, "127.0.0.1", 0, max_size=2**20) as server:
        port = server.sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws/test/?token=t"


async def test_load_client_sends_masked_text_and_receives_every_frame_size(url: str) -> None:
    inbox = Inbox()
    ws = await connect(url, "http://127.0.0.1", inbox.message, inbox.close)
    ws.send("héllo".encode())
    assert await asyncio.wait_for(inbox.messages.get(), 2) == "héllo".encode()
    ws.send(b"a" * 200)
    assert await asyncio.wait_for(inbox.messages.get(), 2) == b"a" * 200
    ws.send(b"big")
    assert await asyncio.wait_for(inbox.messages.get(), 2) == b"x" * 70_000
    assert await asyncio.wait_for(inbox.messages.get(), 2) == b"y" * 300
    ws.send(b"fragments")
    assert await asyncio.wait_for(inbox.messages.get(), 2) == b"one two three"
    await ws.close()
    assert await asyncio.wait_for(inbox.closed, 2) == 1000


async def test_load_client_answers_pings_and_reports_the_servers_close_code(url: str) -> None:
    inbox = Inbox()
    ws = await connect(url, "http://127.0.0.1", inbox.message, inbox.close)
    ws.send(b"ping")
    assert await asyncio.wait_for(inbox.messages.get(), 3) == b"pong received"
    ws.send(b"close")
    assert await asyncio.wait_for(inbox.closed, 2) == 1011
    with pytest.raises(ConnectionClosed):
        ws.send(b"too late")


async def test_load_client_refuses_a_server_that_does_not_upgrade() -> None:
    async def plain_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(plain_http, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    inbox = Inbox()
    async with server:
        with pytest.raises(HandshakeError, match="404"):
            await connect(f"ws://127.0.0.1:{port}/", "http://127.0.0.1", inbox.message, inbox.close)


@pytest.mark.parametrize("encode", [
    orjson.dumps,  # the game server's frames
    lambda frame: json.dumps(frame).encode(),  # the bare consumer's, with spaces
])
def test_generator_reads_versions_from_the_head_and_parses_a_view_only_when_read(encode: Any) -> None:
    room = Room("c", Tally(), random.Random(0))
    client = Client(room, 0)
    room.clients.append(client)
    view = {"to_move": 2, "legal": [{"type": "play", "tile": [1, 2], "end": "left"}]}
    for version in (0, 1, 3):
        client.on_message(encode({"type": "state", "version": version, "view": {**view, "n": version}}), 1.0)
    client.on_message(encode({"type": "state", "version": 2, "view": {"stale": True}}), 1.0)
    client.on_message(encode({"type": "ack", "id": "a3", "version": 3}), 1.0)
    client.on_message(encode({"type": "error", "code": "stale_version", "message": "no"}), 1.0)
    assert client.version == 3
    assert client.states == 4
    assert client.view == {**view, "n": 3}
    assert room.tally.dropped_views == 1
    assert room.acked == {3}
    assert room.tally.errors == {"stale_version": 1}
