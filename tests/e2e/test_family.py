"""A family game night from two phones, at the machine's network address (not loopback), as
relatives on the home Wi-Fi open it: the host creates a room, the link the page shows
brings a relative in, the host arranges the table, and both play."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import (
    TIMEOUT_MS,
    create_room,
    my_turn,
    seat_row,
    start,
    take_turn,
    version,
    wait_for_change,
)

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Page, Page]]:
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    pages = []
    for context in contexts:
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.js_errors = errors
        pages.append(page)
    yield pages[0], pages[1]
    for context in contexts:
        context.close()


def wait_for_a_turn(pages: list[Page]) -> Page:
    """The first of `pages` whose turn it is (the AIs play in between)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        seen = version(pages[0])
        for page in pages:
            if my_turn(page):
                return page
        wait_for_change(pages[0], seen, pages[1:])
    raise AssertionError("neither phone's turn came")


def test_a_relative_joins_by_the_link_shown_the_host_arranges_and_both_play(
    phones: tuple[Page, Page], network_url: str
) -> None:
    host, cousin = phones
    network = urlsplit(network_url)
    code = create_room(host, network_url, "draw", "Grandma", players=4, options={"partnership": "true"})

    # The link the page shows names the network address, never loopback.
    shown = host.locator("#room-link").inner_text().strip()
    assert shown == f"{network_url}/r/{code}", shown
    assert not re.search(r"localhost|127\.0\.0\.1", host.content().split("<main", 1)[1].split("</main>")[0])
    screenshot(host, "family-host-lobby-390")

    # The relative opens exactly that link (letter case changed on the way, as phones do).
    link = shown.replace(f"/r/{code}", f"/r/{code.upper()}")
    cousin.goto(link)
    assert urlsplit(cousin.url).netloc == network.netloc
    cousin.fill("#join-name", "Tom")
    cousin.click("#join button[type=submit]")
    cousin.wait_for_function("() => window.dominoes.seat === 1")

    # The host makes Tom Grandma's partner (seat 3 of 4: teams are seats 1+3 and 2+4) ...
    expect(seat_row(host, 1).locator(".who")).to_have_text("Tom")
    seat_row(host, 1).locator(".seat-pick").tap()
    seat_row(host, 2).locator(".seat-pick").tap()
    expect(seat_row(host, 2).locator(".who")).to_have_text("Tom")
    cousin.wait_for_function("() => window.dominoes.seat === 2")
    expect(seat_row(cousin, 2).locator(".badge.you")).to_have_count(1)
    # ... and fills the other two seats with AIs.
    for seat, level in ((1, "medium"), (3, "easy")):
        seat_row(host, seat).locator(f"button[data-level={level}]").tap()
        expect(seat_row(cousin, seat).locator(".badge.ai")).to_contain_text(level)
    screenshot(cousin, "family-cousin-lobby-390")

    start(host)
    cousin.wait_for_selector("#table:not([hidden])")
    # Whoever holds the opening tile plays first; each plays once its turn comes.
    waiting = [host, cousin]
    while waiting:
        first_up = wait_for_a_turn(waiting)
        assert take_turn(first_up)
        waiting.remove(first_up)
    for page in (host, cousin):
        log = page.evaluate("() => window.dominoes.view.log.filter(e => e.seat === 0 || e.seat === 2).length")
        assert log >= 2
        assert page.js_errors == []  # type: ignore[attr-defined]
    screenshot(cousin, "family-cousin-table-390")
