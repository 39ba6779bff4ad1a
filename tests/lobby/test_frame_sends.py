"""daphne's WebSocket sends in one step write exactly what autobahn's own path writes."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.frame_sends import ONE_STEP, STOCK, open_protocol, written
from config import frame_sends

SIZES = [0, 1, 125, 126, 127, 1100, 65535, 65536, 70_000]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("binary", [False, True])
def test_plain_frames_match_autobahn_byte_for_byte(size: int, binary: bool) -> None:
    content: str | bytes = b"\x00\xff" * (size // 2) + b"b" * (size % 2) if binary else "é" * (size // 2) + "t" * (size % 2)
    assert written(ONE_STEP, content, binary) == written(STOCK, content, binary)


@given(st.text(max_size=300))
@settings(max_examples=60, deadline=None)
def test_any_text_matches_autobahn(text: str) -> None:
    assert written(ONE_STEP, text, False) == written(STOCK, text, False)


@pytest.mark.parametrize(
    "options",
    [
        {"autoFragmentSize": 100},
        {"maxMessagePayloadSize": 50},
        {"logFrames": True},
        {"logOctets": True},
    ],
)
def test_other_features_take_autobahns_path(options: dict[str, Any]) -> None:
    """Fragments, a size limit, frame and octet logging: what autobahn does, whatever it is."""
    text = "v" * 300
    assert not frame_sends._plain(open_protocol(**options)[0], len(text))
    try:
        expected = written(STOCK, text, False, **options)
    except Exception as error:
        with pytest.raises(type(error)):
            written(ONE_STEP, text, False, **options)
        return
    assert written(ONE_STEP, text, False, **options) == expected


def test_a_socket_not_open_takes_autobahns_path() -> None:
    for state in (AutobahnProtocol.STATE_CLOSING, AutobahnProtocol.STATE_CLOSED):
        protocol, transport = open_protocol()
        protocol.state = state
        assert not frame_sends._plain(protocol, 5)
        with pytest.raises(Exception) as stock:
            STOCK(protocol, "hello", False)
        with pytest.raises(type(stock.value)):
            ONE_STEP(protocol, "hello", False)
        assert transport.value() == b""


def test_a_queued_send_keeps_its_order() -> None:
    """With bytes waiting in autobahn's send queue, a new message queues behind them
    instead of overtaking them on the transport."""
    protocol, transport = open_protocol()
    protocol.send_queue.append((b"earlier", False))
    protocol.triggered = True
    assert not frame_sends._plain(protocol, 5)
    ONE_STEP(protocol, "hello", False)
    assert transport.value() == b""
    assert [data for data, _ in protocol.send_queue] == [b"earlier", frame_sends.header(5, False) + b"hello"]


def test_installed_in_the_server() -> None:
    from daphne.ws_protocol import WebSocketProtocol

    import config.asgi  # noqa: F401

    assert WebSocketProtocol.serverSend is frame_sends.server_send
