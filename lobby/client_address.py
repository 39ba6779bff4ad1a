"""The address a request or a socket comes from, as the per-address limits count it.

`NUM_PROXIES` (settings, from the environment) says how many proxies of our own stand in
front of the server. With none (`tasks.py serve` on a laptop), the peer of the TCP
connection is the client, and any `X-Forwarded-For` is the client's own writing: trusting
it would let one client rotate the header and never be throttled. With N, the N-th address
from the right of `X-Forwarded-For` is the one our outermost proxy wrote, and the peer
otherwise. This is Django REST framework's rule for `NUM_PROXIES` (its throttles use the
same setting), written once more for the sockets, which DRF never sees.
"""

from __future__ import annotations

from collections.abc import Iterable

UNKNOWN = "unknown"


def client_address(peer: str | None, forwarded_for: str | None, proxies: int) -> str:
    """The client's address: the peer's, or with `proxies` trusted proxies, the address the
    outermost of them wrote into `forwarded_for` (a comma-separated chain)."""
    if proxies > 0 and forwarded_for:
        chain = [part.strip() for part in forwarded_for.split(",")]
        chain = [part for part in chain if part]
        if chain:
            return chain[-min(proxies, len(chain))]
    return peer or UNKNOWN


def socket_address(scope: dict[str, object], proxies: int) -> str:
    """The client's address of an ASGI connection (its `client` and `X-Forwarded-For`)."""
    client = scope.get("client")
    peer = str(client[0]) if isinstance(client, (list, tuple)) and client else None
    headers = scope.get("headers")
    found = [
        value.decode("latin-1")
        for name, value in (headers if isinstance(headers, Iterable) else ())
        if bytes(name).lower() == b"x-forwarded-for"
    ]
    return client_address(peer, ",".join(found) or None, proxies)
