"""The compose proxy's connection rate per client address (deploy/haproxy.cfg), injected
through a real haproxy in front of a real daphne process: past 30 new sockets in 10 s from
one address the next handshakes are answered 429 by haproxy, while another address still
opens its socket."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from tests.lobby.procs import Daphne, Haproxy, Stores, daphne_group

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed"),
]

#: deploy/haproxy.cfg: `sc_http_req_rate(0) gt 30` over `http_req_rate(10s)`.
SOCKETS_PER_10_S = 30


@pytest.fixture
def proxy() -> Iterator[Haproxy]:
    with daphne_group(1) as (stores, (server,)):
        made = start_proxy(stores, server)
        try:
            yield made
        finally:
            made.stop()


def start_proxy(stores: Stores, server: Daphne) -> Haproxy:
    return Haproxy.start(stores.workdir, {"web1": server.port, "web2": server.port})


async def handshake(proxy: Haproxy, address: str) -> int:
    """The HTTP status of one socket's handshake from `address` (as Caddy would have written
    it): 101 when the socket opened (to a room that does not exist: it is then closed 4404)."""
    try:
        async with websockets.connect(
            f"{proxy.ws_url}/ws/rooms/nosuchroom0000/",
            origin=Origin(proxy.url),
            additional_headers={"X-Forwarded-For": address},
            open_timeout=30,
        ):
            return 101
    except websockets.InvalidStatus as refused:
        return int(refused.response.status_code)


async def served(proxy: Haproxy, within: float = 60.0) -> int:
    """`handshake` from an address of its own, again from the next address while haproxy has
    no process to send it to (503: on a busy machine a health check can miss), for at most
    `within` seconds; each address tries once, so none of them nears the rate."""
    deadline = time.monotonic() + within
    for host in range(8, 250):
        status = await handshake(proxy, f"198.51.100.{host}")
        if status != 503 or time.monotonic() > deadline:
            return status
    return status


async def test_multiprocess_a_burst_of_sockets_from_one_address_is_refused_at_the_proxy(proxy: Any) -> None:
    burst = SOCKETS_PER_10_S + 10
    statuses = await asyncio.gather(*(handshake(proxy, "198.51.100.7") for _ in range(burst)))
    # Refused before a process is chosen: a 503 (no process up for a moment) still counted.
    assert set(statuses) <= {101, 429, 503}, statuses
    assert statuses.count(429) >= burst - SOCKETS_PER_10_S, statuses
    # And the address stays refused while its rate is over...
    assert await handshake(proxy, "198.51.100.7") == 429
    # ...while another address is not held up by the first one's burst.
    assert await served(proxy) == 101
