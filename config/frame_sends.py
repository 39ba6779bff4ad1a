"""WebSocket messages sent by daphne as one header and one write, for the common frame.

daphne hands every outgoing message to autobahn's `sendMessage`, which checks its arguments
with asserts, looks at compression, fragmentation, masking, frame logging and the send queue
on every call, assembles the header a byte at a time and passes through `sendFrame` and
`sendData` before the bytes reach the transport. A profile of a server process at its
ceiling put that walk at about a twentieth of the time it held the interpreter: a new view
goes to every socket of a room, so it runs four or five times per action.

A connection that uses none of those features (daphne enables none of them) gets the same
bytes written here directly, with autobahn's traffic counters kept. Anything else (a socket
not open yet or closing, compression, fragments, a send queue, logging of frames or octets,
masked server frames, a payload over the size limit) takes autobahn's own path unchanged.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Callable
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne.ws_protocol import WebSocketProtocol

logger = logging.getLogger("daphne.ws_protocol")

_OPEN = AutobahnProtocol.STATE_OPEN
_GROUND = AutobahnProtocol.SEND_STATE_GROUND
_stock_send: Callable[..., None] = WebSocketProtocol.serverSend


def header(payload_length: int, binary: bool) -> bytes:
    """The header of an unmasked, unfragmented, uncompressed frame (RFC 6455, 5.2)."""
    first = 0x82 if binary else 0x81
    if payload_length <= 125:
        return struct.pack("!BB", first, payload_length)
    if payload_length <= 0xFFFF:
        return struct.pack("!BBH", first, 126, payload_length)
    return struct.pack("!BBQ", first, 127, payload_length)


def _plain(protocol: Any, payload_length: int) -> bool:
    """Whether the message can go as one plain frame, exactly as autobahn would send it."""
    return (
        protocol.state == _OPEN
        and protocol.send_state == _GROUND
        and not protocol.send_queue
        and protocol._perMessageCompress is None
        and protocol.trackedTimings is None
        and not protocol.logFrames
        and not protocol.logOctets
        and not protocol.maskServerFrames
        and not 0 < protocol.autoFragmentSize < payload_length
        and not 0 < protocol.maxMessagePayloadSize < payload_length
    )


def server_send(self: Any, content: str | bytes, binary: bool = False) -> None:
    """daphne's `serverSend`, with the plain frame written in one step."""
    payload = content if isinstance(content, bytes) else content.encode("utf8")
    length = len(payload)
    if not _plain(self, length):
        _stock_send(self, content, binary)
        return
    logger.debug("Sent WebSocket packet to client for %s", self.client_addr)
    data = header(length, binary) + payload
    stats = self.trafficStats
    stats.outgoingWebSocketMessages += 1
    stats.outgoingOctetsAppLevel += length
    stats.outgoingOctetsWebSocketLevel += length
    stats.outgoingWebSocketFrames += 1
    self.transport.write(data)
    stats.outgoingOctetsWireLevel += len(data)


def install() -> None:
    """Send daphne's plain WebSocket frames in one step (idempotent)."""
    WebSocketProtocol.serverSend = server_send
