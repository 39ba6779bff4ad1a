"""Security headers on every page, and every page passing its Content-Security-Policy in a
real browser (Debian's Chromium) served by a real daphne: no violation is reported while
the page loads, runs its scripts and opens its socket."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator

import pytest
from django.test import Client

from frontend.rules_data import SHEETS
from tests.lobby.faults import call, room_started, servers
from tests.lobby.helpers import room_setup
from tests.lobby.procs import Daphne

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def pages(code: str) -> list[str]:
    return [
        "/",
        f"/r/{code}",
        f"/r/{code.upper()}",
        "/r/nosuchroom2345",
        "/no/such/page",
        "/sheets/",
        *(f"/sheets/{kind}/" for kind in SHEETS),
    ]


def assert_secured(headers: dict[str, str]) -> None:
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (name, headers)
    policy = headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.mark.django_db(transaction=True)
def test_every_page_and_api_answer_carries_the_security_headers() -> None:
    code, _ = room_setup("draw", 2, {}, humans=1)
    client = Client()
    for path in [*pages(code), "/api/games/", f"/api/rooms/{code}/", "/api/rooms/nosuchroom2345/"]:
        answer = client.get(path)
        assert answer.status_code in {200, 404}, path
        assert_secured(dict(answer.headers))


@pytest.fixture(scope="module")
def server() -> Iterator[Daphne]:
    with servers(1, {"THROTTLE_ROOM_CREATE": "100000/minute", "THROTTLE_SEAT_JOIN": "100000/minute"}) as made:
        yield made[1][0]


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
async def test_multiprocess_every_page_passes_its_policy_in_a_real_browser(server: Daphne) -> None:
    from playwright.async_api import async_playwright

    code, tokens = await asyncio.to_thread(room_started, server.url)
    for path in pages(code):
        _status, _body, headers = await asyncio.to_thread(call, server.url, "GET", path)
        assert_secured(headers)
    violations: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            context = await browser.new_context()
            page = await context.new_page()
            page.on(
                "console",
                lambda message: violations.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text
                else None,
            )
            # A seated player's table too: the page keeps the token by room code.
            await page.goto(f"{server.url}/")
            await page.evaluate(
                "([code, token]) => localStorage.setItem(`dominoes.room.${code}`,"
                " JSON.stringify({token, seat: 0, host: true}))",
                [code, tokens[0]],
            )
            for path in pages(code):
                await page.goto(server.url + path, wait_until="networkidle")
                # Anything the page reports about its policy after its scripts ran.
                await page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
                # An inline event handler breaks the policy only when it runs: run each
                # (Print on a score sheet) and let the browser report it.
                for button in await page.locator("[onclick]").all():
                    await button.dispatch_event("click")
                await page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
        finally:
            await browser.close()
    assert violations == []
