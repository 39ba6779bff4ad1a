"""Bodies the API refuses without a 500: over HTTP_MAX_BODY bytes is 413, JSON nested deeper
than JSON_MAX_DEPTH is 400, and whatever JSON (or not) a client sends to any endpoint gets a
refusal of the documented shape, never an internal error. Through a real daphne the size
limit holds before the application reads the body, whether declared or chunked."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from lobby.parsers import nested_deeper
from tests.lobby.faults import call, servers
from tests.lobby.helpers import api, room_setup
from tests.lobby.procs import Daphne, Haproxy, Stores

SURROGATES = st.sampled_from(["\ud800", "\udfff", "x\udc80"])
texts = st.text(max_size=10) | SURROGATES
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=12,
)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.fixed_dictionaries(
        {},
        optional={
            "game": texts | st.sampled_from(["draw", "texas42"]),
            "players": json_values,
            "name": texts,
            "options": json_values,
            "grace_seconds": json_values,
            "turn_seconds": json_values,
            "seat": json_values,
            "ai": json_values,
            "move_to": json_values,
        },
    ).map(lambda v: json.dumps(v, allow_nan=True)),
    st.integers(30, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(30, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.text(max_size=40),
)


@pytest.mark.django_db(transaction=True)
def test_no_body_gets_a_500_from_any_endpoint() -> None:
    code, tokens = room_setup("draw", 2, {}, humans=1)
    paths = [
        ("post", "/api/rooms/"),
        ("patch", f"/api/rooms/{code}/"),
        ("post", f"/api/rooms/{code}/seats/"),
        ("patch", f"/api/rooms/{code}/seats/1/"),
    ]

    @hypothesis_settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=bodies, where=st.sampled_from(paths), host=st.booleans())
    def one(body: str, where: tuple[str, str], host: bool) -> None:
        method, path = where
        client = Client()
        answer = getattr(client, method)(
            path, body, content_type="application/json",
            **({"HTTP_AUTHORIZATION": f"Bearer {tokens[0]}"} if host else {}),
        )
        assert answer.status_code < 500, (body[:200], answer.content)
        if answer.status_code >= 400:
            assert set(answer.json()) >= {"code", "detail"}

    one()


@pytest.mark.django_db(transaction=True)
def test_a_big_body_is_413_and_a_deep_one_400_in_the_application_itself(client: Client) -> None:
    big = json.dumps({"game": "draw", "players": 2, "name": "x" * settings.HTTP_MAX_BODY})
    answer = client.post("/api/rooms/", big, content_type="application/json")
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"
    depth = settings.JSON_MAX_DEPTH
    deep = json.dumps({"game": "draw", "players": 2, "name": "A", "options": {}})
    deep = deep[:-2] + '"x": ' + "[" * depth + "]" * depth + "}}"
    answer = client.post("/api/rooms/", deep, content_type="application/json")
    assert answer.status_code == 400 and "nested deeper" in answer.json()["detail"]
    fits = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"})
    assert fits.status_code == 201


@given(json_values, st.integers(0, 6))
def test_nested_deeper_counts_levels_as_json_nests_them(value: Any, limit: int) -> None:
    def depth(v: Any) -> int:
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        return 0

    assert nested_deeper(value, limit) == (depth(value) > limit)


@pytest.fixture(scope="module")
def group() -> Iterator[tuple[Stores, list[Daphne]]]:
    with servers(1, {"THROTTLE_ROOM_CREATE": "100000/minute"}) as made:
        yield made


@pytest.fixture
def server(group: tuple[Stores, list[Daphne]]) -> Daphne:
    return group[1][0]


def raw_request(port: int, head: bytes, chunks: list[bytes]) -> bytes:
    """Send a request by hand (a chunked body, a lying length) and read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        for chunk in chunks:
            sock.sendall(chunk)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            got = sock.recv(65536)
            if not got:
                break
            answer += got
    return answer


async def test_multiprocess_oversized_and_deep_bodies_are_refused_by_the_real_server(server: Daphne) -> None:
    limit = 64 * 1024
    big = json.dumps({"game": "draw", "players": 2, "name": "x" * (3 * 1024 * 1024)}).encode()
    status, body, headers = await asyncio.to_thread(call, server.url, "POST", "/api/rooms/", raw=big)
    assert (status, body["code"]) == (413, "too_large"), body
    assert str(limit) in body["detail"]
    assert headers.get("X-Content-Type-Options") == "nosniff"
    chunked = b"".join(b"%x\r\n%s\r\n" % (8192, b"x" * 8192) for _ in range(10)) + b"0\r\n\r\n"
    head = (
        b"POST /api/rooms/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    answer = await asyncio.to_thread(raw_request, server.port, head, [chunked])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    deep = ('{"game": "draw", "players": 2, "name": "A", "options": ' + "[" * 5000 + "]" * 5000 + "}").encode()
    status, body, _ = await asyncio.to_thread(call, server.url, "POST", "/api/rooms/", raw=deep)
    assert (status, body["code"]) == (400, "malformed"), body
    status, body, _ = await asyncio.to_thread(
        call, server.url, "POST", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"}
    )
    assert status == 201, body


def trickle(port: int, seconds: float) -> tuple[float, bytes]:
    """Send a request's headers a byte a second, never ending them; how long until the
    other end answered or closed, and what it answered."""
    started = time.monotonic()
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.settimeout(1.0)
        for byte in head:
            try:
                sock.sendall(bytes([byte]))
                got = sock.recv(4096)
            except TimeoutError:
                got = None
            except OSError:
                return time.monotonic() - started, b""
            if got is not None:
                return time.monotonic() - started, got
            if time.monotonic() - started > seconds:
                break
    return time.monotonic() - started, b"(still open)"


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
async def test_multiprocess_headers_sent_a_byte_at_a_time_are_cut_off_by_the_proxy(group: tuple[Stores, list[Daphne]]) -> None:
    """The compose chain's proxy gives a client 10 s for its headers (deploy/haproxy.cfg);
    without it a client sending a byte now and then held a connection for ever."""
    stores, (one,) = group
    proxy = await asyncio.to_thread(Haproxy.start, stores.workdir, {"web1": one.port, "web2": one.port})
    try:
        took, answer = await asyncio.to_thread(trickle, proxy.port, 30)
    finally:
        proxy.stop()
    assert answer != b"(still open)"
    assert 9 <= took <= 15, took
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:100]
