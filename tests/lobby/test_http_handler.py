"""HTTP requests run their middleware and view in one hop to a thread, and still answer."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import LazySettings

from config.http_handler import OneHopASGIHandler
from tests.lobby import http_probe

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def probed(settings: LazySettings) -> OneHopASGIHandler:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.lobby.http_probe.ModeProbe"]
    settings.ROOT_URLCONF = "tests.lobby.http_probe"
    http_probe.calls.clear()
    return OneHopASGIHandler()


async def get(app: Any, path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
        "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(5)
    body = b""
    while True:
        part = await communicator.receive_output(5)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    await communicator.wait(5)
    return int(start["status"]), body


async def test_the_middleware_and_a_synchronous_view_run_synchronously_on_one_thread_off_the_loop(
    probed: OneHopASGIHandler,
) -> None:
    assert await get(probed, "/plain") == (200, b"plain")
    assert [(name, mode) for name, mode, _ in http_probe.calls] == [("middleware", "sync"), ("plain", "sync")]
    threads = {thread for _, _, thread in http_probe.calls}
    assert len(threads) == 1 and threading.get_ident() not in threads


async def test_an_asynchronous_view_is_still_run(probed: OneHopASGIHandler) -> None:
    assert await get(probed, "/coroutine") == (200, b"coroutine")
    assert [(name, mode) for name, mode, _ in http_probe.calls] == [("middleware", "sync"), ("coroutine", "async")]


async def test_the_sites_own_routes_answer_through_it() -> None:
    assert await get(OneHopASGIHandler(), "/healthz") == (200, b"ok\n")
    status, _ = await get(OneHopASGIHandler(), "/api/rooms/NOSUCHROOM23/")
    assert status == 404
