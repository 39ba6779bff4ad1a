"""daphne's message sends: autobahn's `sendMessage` walk against `config.frame_sends`.

One daphne WebSocket protocol, open, on Twisted's in-memory transport, sends a state frame
of `--size` characters back to back; the figure is the CPU per message of `serverSend`, the
call daphne makes for each `websocket.send`. The two builds alternate within one run, so
the machine's drift hits both alike, and the bytes each writes are compared first.

    python -m bench.frame_sends [--size 1100] [--messages 100000] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne.ws_protocol import WebSocketFactory
from twisted.internet.testing import StringTransport

from config import frame_sends

Send = Callable[[Any, "str | bytes", bool], None]
STOCK: Send = frame_sends._stock_send
ONE_STEP: Send = frame_sends.server_send
#: Settings autobahn reads from the factory's attributes rather than its protocol options.
FACTORY_ATTRIBUTES = frozenset({"logFrames", "logOctets"})


def open_protocol(**options: Any) -> tuple[Any, StringTransport]:
    """A daphne WebSocket protocol past its handshake, writing to memory, with daphne's
    protocol options (and `options` on top of them)."""
    factory = WebSocketFactory(None, server="daphne")
    for name in FACTORY_ATTRIBUTES & options.keys():
        setattr(factory, name, options.pop(name))
    factory.setProtocolOptions(
        autoPingTimeout=20, allowNullOrigin=True, openHandshakeTimeout=0, **options
    )
    protocol: Any = factory.buildProtocol(None)
    transport = StringTransport()  # type: ignore[no-untyped-call]
    protocol.makeConnection(transport)
    protocol.state = AutobahnProtocol.STATE_OPEN
    protocol.client_addr = ["127.0.0.1", 1]
    return protocol, transport


def written(send: Send, content: str | bytes, binary: bool, **options: Any) -> tuple[bytes, dict[str, Any]]:
    """The bytes one message puts on the wire, and autobahn's traffic counters after it."""
    protocol, transport = open_protocol(**options)
    send(protocol, content, binary)
    return transport.value(), dict(vars(protocol.trafficStats))  # type: ignore[no-untyped-call]


def cpu_per_message(send: Send, text: str, messages: int) -> float:
    protocol, transport = open_protocol()
    started = time.process_time()
    for done in range(messages):
        send(protocol, text, False)
        if done % 1000 == 999:
            transport.clear()  # type: ignore[no-untyped-call]
    return (time.process_time() - started) / messages * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1100)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    text = '{"type":"state","version":7,"view":' + "x" * max(0, args.size - 38) + "}"
    if written(STOCK, text, False) != written(ONE_STEP, text, False):
        raise SystemExit("the two paths wrote different bytes")
    runs: dict[str, list[float]] = {"autobahn": [], "one step": []}
    for round_ in range(args.rounds):
        order = [("autobahn", STOCK), ("one step", ONE_STEP)]
        for name, send in order if round_ % 2 == 0 else reversed(order):
            runs[name].append(cpu_per_message(send, text, args.messages))
    result = {name: round(statistics.median(values), 2) for name, values in runs.items()}
    if args.json:
        print(json.dumps({"cpu_us_per_message": result, "runs": runs}))
        return
    for name, value in result.items():
        print(f"{name:>9}: {value:6.2f} µs of CPU per message (median of {args.rounds})")
    print(f"   saving: {result['autobahn'] - result['one step']:6.2f} µs per message")


if __name__ == "__main__":
    main()
