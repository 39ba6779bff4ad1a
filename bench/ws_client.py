"""The load generator's WebSocket client: RFC 6455 framing on a bare asyncio protocol.

The generator plays a thousand seats from one process on the same two cores as the
servers it measures, so every microsecond it spends per frame is taken from them. A
general client pays for a task, a queue and a future per message; this one hands each
whole text message to a callback from `data_received`, stamped with the time its bytes
arrived. It speaks only what the generator needs: text messages both ways, pings
answered, close frames, no extensions.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import time
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
_HEAD_LIMIT = 16_384


class ConnectionClosed(Exception):
    """A send on a socket the server or the client has closed."""


class ProtocolError(Exception):
    """The server broke RFC 6455."""


class HandshakeError(ProtocolError):
    """The server did not switch protocols as RFC 6455 asks."""


MessageHandler = Callable[[bytes, float], None]
CloseHandler = Callable[[int | None], None]


def _masked(opcode: int, payload: bytes) -> bytes:
    """A client frame: FIN set, the payload masked with a fresh key (RFC 6455 §5.3)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    key = os.urandom(4)
    if not size:
        return head + key
    stream = (key * (size // 4 + 1))[:size]
    body = (int.from_bytes(payload, "little") ^ int.from_bytes(stream, "little")).to_bytes(size, "little")
    return head + key + body


class WebSocket(asyncio.Protocol):
    """One client socket: `on_message(payload, arrived)` gets every whole message and
    `on_close(code)` the server's close code (None when the connection just dropped)."""

    def __init__(
        self, host: str, path: str, origin: str, on_message: MessageHandler, on_close: CloseHandler
    ) -> None:
        self.on_message = on_message
        self.on_close = on_close
        self.close_code: int | None = None
        self.closed = asyncio.get_running_loop().create_future()
        self._key = base64.b64encode(os.urandom(16))
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self._key.decode()}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin}\r\n\r\n"
        ).encode()
        self.open = asyncio.get_running_loop().create_future()
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._fragments: list[bytes] = []
        self._upgraded = False
        self._closing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        self._transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        arrived = time.perf_counter()
        self._buffer += data
        if not self._upgraded and not self._handshake():
            return
        self._frames(arrived)

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing = True
        if not self.open.done():
            self.open.set_exception(exc or HandshakeError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(self.close_code)
            if self._upgraded:
                self.on_close(self.close_code)

    def send(self, text: bytes) -> None:
        """Send one text message; raises ConnectionClosed once the socket is closing."""
        if self._closing or self._transport is None or self._transport.is_closing():
            raise ConnectionClosed
        self._transport.write(_masked(_TEXT, text))

    async def close(self, timeout: float = 2.0) -> None:
        """Send a close frame and wait (bounded) for the server to close the connection."""
        if self._transport is None:
            return
        if not self._closing and not self._transport.is_closing():
            self._closing = True
            self._transport.write(_masked(_CLOSE, (1000).to_bytes(2, "big")))
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            self._transport.abort()

    def _handshake(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > _HEAD_LIMIT:
                self._fail(HandshakeError("response head too long"))
            return False
        head = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        del self._buffer[: end + 4]
        pairs = (line.partition(":") for line in head[1:])
        fields = {name.strip().lower(): value.strip() for name, _, value in pairs}
        accept = base64.b64encode(hashlib.sha1(self._key + _GUID).digest()).decode()
        if not head[0].startswith("HTTP/1.1 101") or fields.get("sec-websocket-accept") != accept:
            self._fail(HandshakeError(f"not upgraded: {head[0]!r}"))
            return False
        self._upgraded = True
        self.open.set_result(None)
        return True

    def _frames(self, arrived: float) -> None:
        buffer = self._buffer
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            size, start = second & 0x7F, 2
            if size == 126:
                if len(buffer) < 4:
                    return
                size, start = int.from_bytes(buffer[2:4], "big"), 4
            elif size == 127:
                if len(buffer) < 10:
                    return
                size, start = int.from_bytes(buffer[2:10], "big"), 10
            if second & 0x80:
                self._fail(ProtocolError("a server frame must not be masked"))
                return
            if len(buffer) < start + size:
                return
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            self._frame(first & 0x80, first & 0x0F, payload, arrived)

    def _frame(self, fin: int, opcode: int, payload: bytes, arrived: float) -> None:
        if opcode in (_TEXT, _BINARY, _CONTINUATION):
            if not fin:
                self._fragments.append(payload)
                return
            if self._fragments:
                payload = b"".join([*self._fragments, payload])
                self._fragments.clear()
            self.on_message(payload, arrived)
        elif opcode == _PING and not self._closing and self._transport is not None:
            self._transport.write(_masked(_PONG, payload))
        elif opcode == _CLOSE:
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            if not self._closing and self._transport is not None:
                self._closing = True
                self._transport.write(_masked(_CLOSE, payload[:2]))
            if self._transport is not None:
                self._transport.close()

    def _fail(self, error: Exception) -> None:
        if not self.open.done():
            self.open.set_exception(error)
        if self._transport is not None:
            self._transport.abort()


async def connect(url: str, origin: str, on_message: MessageHandler, on_close: CloseHandler) -> WebSocket:
    """Open `ws://host:port/path` and complete the opening handshake; the handlers are set
    before the first byte arrives, so a message sent with the handshake's answer is kept."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or parts.hostname is None or parts.port is None:
        raise ValueError(f"expected ws://host:port/path, got {url!r}")
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    loop = asyncio.get_running_loop()
    _, socket = await loop.create_connection(
        lambda: WebSocket(parts.netloc, path or "/", origin, on_message, on_close), parts.hostname, parts.port
    )
    await socket.open
    return socket
