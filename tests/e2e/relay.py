"""A TCP relay between the browser and the server whose network can go silent.

A phone's network rarely closes a socket when it fails: the screen locks or the Wi-Fi drops
and the bytes simply stop. `Relay` reproduces that: while `silent` it keeps every connection
open, accepts new ones, and throws away whatever either side sends; when it passes again,
bytes flow on every connection (those that lost bytes are broken, as after a real outage).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class Relay:
    """Forwards 127.0.0.1:<port> to `target_port`, one thread per direction per connection."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.silent = threading.Event()
        self.stopped = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = [self.listener]
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="relay-accept", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                if not self.silent.is_set():
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            # One side closed: close the other, as a real connection's end would.
            for s in (src, dst):
                with suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.stopped.set()
        with self.lock:
            for s in self.sockets:
                with suppress(OSError):
                    s.close()


@contextmanager
def relay_to(target_port: int) -> Iterator[Relay]:
    relay = Relay(target_port)
    try:
        yield relay
    finally:
        relay.close()
