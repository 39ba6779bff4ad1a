"""Twisted's TCP sockets under the asyncio reactor, with writes flushed at the end of the turn.

Each scenario runs in a child interpreter, since installing a reactor is once per process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.lobby.procs import ROOT

_SERVER = textwrap.dedent(
    """
    import asyncio, json, socket, sys, threading, time
    from twisted.internet import asyncioreactor
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    asyncioreactor.install(loop)
    from twisted.internet import reactor, protocol
    from config import eager_writes

    installed = eager_writes.install()
    mode, payload_size = sys.argv[1], int(sys.argv[2])
    registered = []
    add_writer = reactor.addWriter
    reactor.addWriter = lambda w: (registered.append(1), add_writer(w))[1]

    class Sender(protocol.Protocol):
        def connectionMade(self):
            for i in range(3):
                self.transport.write(b"frame%d;" % i)
            self.transport.write(b"x" * payload_size)
            if mode == "close":
                self.transport.loseConnection()
            elif mode == "abort":
                self.transport.abortConnection()
            else:
                self.transport.loseWriteConnection()

    factory = protocol.Factory.forProtocol(Sender)
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    got = []

    def read(slow):
        s = socket.create_connection(("127.0.0.1", port.getHost().port))
        if slow:
            time.sleep(0.5)
        chunks = []
        try:
            while data := s.recv(65536):
                chunks.append(data)
        except ConnectionResetError:
            chunks.append(b"<reset>")
        got.append(b"".join(chunks))
        s.close()
        reactor.callFromThread(reactor.stop)

    threading.Thread(target=read, args=(payload_size > 100_000,), daemon=True).start()
    reactor.callLater(20, reactor.stop)
    reactor.run()
    body = got[0] if got else b""
    expected = b"frame0;frame1;frame2;" + b"x" * payload_size
    print(json.dumps({"installed": installed, "read_to_the_end": bool(got),
                      "complete": body == expected,
                      "received": len(body), "registered": len(registered)}))
    """
)


def _serve(mode: str, payload_size: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _SERVER, mode, str(payload_size)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_small_writes_and_a_close_go_out_without_waiting_for_writability() -> None:
    result = _serve("close", 1000)
    assert result == {
        "installed": True, "read_to_the_end": True, "complete": True, "received": 1021, "registered": 0,
    }


def test_a_slow_reader_gets_every_byte_before_the_close() -> None:
    result = _serve("close", 8_000_000)
    assert result["complete"] is True
    assert result["registered"] != 0


def test_a_half_close_after_a_large_write_delivers_everything() -> None:
    result = _serve("half-close", 8_000_000)
    assert result["complete"] is True


def test_an_aborted_connection_ends_without_its_buffer_ever_waiting_to_go_out() -> None:
    result = _serve("abort", 8_000_000)
    assert result["read_to_the_end"] is True
    assert result["complete"] is False
    assert result["registered"] == 0
