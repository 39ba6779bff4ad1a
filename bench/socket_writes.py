"""The server's socket writes: Twisted's stock write path against `config.eager_writes`.

A child interpreter runs the asyncio reactor daphne runs, with or without the eager flush,
holds `--sockets` loopback connections and, one room per turn of the loop, writes a 1 KB frame
to each of a room's four sockets, as a broadcast of a new view does. This process reads every
byte. The figure is the child's CPU per frame (user and system, so the `epoll_ctl` calls
count), and the two builds alternate within one run so the machine's drift hits both alike.

    python -m bench.socket_writes [--sockets 400] [--broadcasts 20000] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FRAME = b"\x81\x7e\x04\x00" + b"v" * 1024
ROOM = 4


def serve(eager: bool, sockets: int, broadcasts: int) -> None:
    """The child: accept, broadcast back to back, report CPU per frame on stdout."""
    import asyncio

    from twisted.internet import asyncioreactor

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import protocol
    from twisted.internet import reactor as installed

    reactor: Any = installed

    from config import eager_writes

    if eager and not eager_writes.install():
        raise SystemExit("the eager flush did not install")
    transports: list[Any] = []
    sent = 0

    def broadcast() -> None:
        nonlocal sent
        room = (sent % (sockets // ROOM)) * ROOM
        for transport in transports[room:room + ROOM]:
            transport.write(FRAME)
        sent += 1
        if sent < broadcasts:
            loop.call_soon(broadcast)
        else:
            loop.call_later(0.3, finish)

    def finish() -> None:
        spent = os.times()
        cpu = spent.user + spent.system - started[0]
        print(json.dumps({"cpu_us_per_frame": cpu / (broadcasts * ROOM) * 1e6}), flush=True)
        reactor.stop()

    class Sink(protocol.Protocol):
        def connectionMade(self) -> None:  # noqa: N802 (Twisted's name)
            transports.append(self.transport)
            if len(transports) == sockets:
                spent = os.times()
                started.append(spent.user + spent.system)
                loop.call_soon(broadcast)

    started: list[float] = []
    port = reactor.listenTCP(0, protocol.Factory.forProtocol(Sink), interface="127.0.0.1")
    print(port.getHost().port, flush=True)
    reactor.run()


def measure(eager: bool, sockets: int, broadcasts: int) -> float:
    """Start a child, read all it sends, and return its CPU µs per frame."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.socket_writes", "--serve", "eager" if eager else "stock",
         "--sockets", str(sockets), "--broadcasts", str(broadcasts)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    port = int(child.stdout.readline())
    selector = selectors.DefaultSelector()
    conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(sockets)]
    for conn in conns:
        conn.setblocking(False)
        selector.register(conn, selectors.EVENT_READ)
    open_conns = [len(conns)]
    received = [0]

    def drain() -> None:
        while open_conns[0]:
            for key, _ in selector.select(0.5):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(1 << 16)
                except BlockingIOError:
                    continue
                received[0] += len(data)
                if not data:
                    selector.unregister(sock)
                    open_conns[0] -= 1

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    report = json.loads(child.stdout.readline())
    child.wait(30)
    reader.join(5)
    if received[0] != broadcasts * ROOM * len(FRAME):
        raise SystemExit(f"received {received[0]} bytes of {broadcasts * ROOM * len(FRAME)}")
    for conn in conns:
        conn.close()
    return float(report["cpu_us_per_frame"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--broadcasts", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", choices=["eager", "stock"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve == "eager", args.sockets, args.broadcasts)
        return
    runs: dict[str, list[float]] = {"stock": [], "eager": []}
    for _ in range(args.rounds):
        for name in ("stock", "eager"):
            runs[name].append(measure(name == "eager", args.sockets, args.broadcasts))
    ratios = [e / s for s, e in zip(runs["stock"], runs["eager"])]
    if args.json:
        print(json.dumps({"runs": runs, "eager_over_stock": ratios}))
        return
    for name, values in runs.items():
        print(f"{name:6} CPU per frame µs: " + ", ".join(f"{v:.2f}" for v in values)
              + f"  (median {statistics.median(values):.2f})")
    print("eager / stock, pair by pair: " + ", ".join(f"{r:.2f}" for r in ratios))


if __name__ == "__main__":
    main()
