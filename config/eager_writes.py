"""TCP sockets under daphne that send at the end of the loop's turn, without a wait for writability.

Twisted's `FileDescriptor.write` buffers the bytes and registers the socket as a writer; the
next turn of the loop reports it writable, the buffer goes out, and the socket is unregistered.
Under asyncio each registration and removal is an `epoll_ctl` and a selector update: a profile
of a server process at its ceiling put the two at 5-7% of the time it held the interpreter, for
sockets that are nearly always writable. asyncio's own transports try the send first.

Here a write schedules one flush with `call_soon` instead: it runs after everything else the
current turn wrote to that socket, so frames are still coalesced into one `send`, and it goes
through the reactor's own dispatch, so errors and a pending close end the connection exactly as
before. Only bytes the kernel does not take (a slow reader) wait for writability the usual way.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from twisted.internet import abstract, tcp

_register_writer: Callable[[Any], None] = abstract.FileDescriptor.startWriting
_unregister_writer: Callable[[Any], None] = abstract.FileDescriptor.stopWriting


def install() -> bool:
    """Patch Twisted's TCP connections when the running reactor is the asyncio one (daphne's).

    Importing `twisted.internet.reactor` here would install a reactor of its own, so the one
    already installed, if any, is looked up; anything else is left alone.
    """
    reactor = sys.modules.get("twisted.internet.reactor")
    if type(reactor).__name__ != "AsyncioSelectorReactor" or not hasattr(reactor, "_readOrWrite"):
        return False
    connection: Any = tcp.Connection
    connection.startWriting = _start_writing
    connection.stopWriting = _stop_writing
    connection._flush_due = False
    connection._waits_writable = False
    return True


def _start_writing(self: Any) -> None:
    if self._flush_due or self._waits_writable:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        self._waits_writable = True
        _register_writer(self)
        return
    self._flush_due = True
    loop.call_soon(_flush, self)


def _stop_writing(self: Any) -> None:
    self._waits_writable = False
    _unregister_writer(self)


def _flush(conn: Any) -> None:
    """Send what the turn buffered; what is left, or a close not yet done, waits for writability."""
    conn._flush_due = False
    if conn._waits_writable or not conn.connected or conn._aborting:
        return
    conn.reactor._readOrWrite(conn, False)
    if conn.connected and (conn._tempDataLen or conn.offset < len(conn.dataBuffer)):
        conn._waits_writable = True
        _register_writer(conn)
