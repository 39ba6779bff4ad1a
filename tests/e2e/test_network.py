"""A network that goes silent under the table: the page notices, keeps the tap, and applies it
once when the network is back (docs/protocol.md, "Staying connected")."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, add_ai, create_room, start, view
from tests.e2e.relay import relay_to

MY_TURN = "() => { const d = window.dominoes; return !!d.view && !d.waiting && d.view.to_move === d.seat; }"
CAN_PLAY = "() => window.dominoes.view.legal.some((a) => a.type === 'play')"


def my_plays(page: Any) -> list[dict[str, Any]]:
    log = view(page).get("log") or []
    return [e for e in log if e.get("seat") == 0 and e.get("type") == "play"]


def test_a_tap_made_into_a_silent_network_is_kept_and_applied_once_when_it_returns(browser: Browser, daphne_url: str) -> None:
    port = urlsplit(daphne_url).port
    assert port is not None
    with relay_to(port) as relay:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        create_room(page, relay.url, "block", "Ann", players=2)
        add_ai(page, 1, "easy")
        start(page)
        page.wait_for_function(MY_TURN)
        while not page.evaluate(CAN_PLAY):  # a pass first, should Ann have nothing to play
            seen = page.evaluate("() => window.dominoes.version")
            page.evaluate("() => window.dominoes.act(window.dominoes.view.legal[0])")
            page.wait_for_function("v => window.dominoes.version > v", arg=seen)
            page.wait_for_function(MY_TURN)
        played_before = len(my_plays(page))
        held_before = len(view(page)["hand"])

        # The network goes silent; Ann taps a tile (and its end, where it has a choice).
        relay.silent.set()
        silent_at = time.monotonic()
        page.locator("#hand .tile-button.legal").first.tap()
        choice = page.locator("#end-choice:not([hidden]) button[data-end]")
        if choice.count():
            choice.first.tap()
        # The tap is kept and shown as pending, and the page says it is reconnecting within 10 s.
        expect(page.locator("#hand .tile-button.pending")).to_have_count(1)
        expect(page.locator("#connection")).to_contain_text("Reconnecting", timeout=10_000)
        assert time.monotonic() - silent_at <= 10.5
        expect(page.locator("#connection")).to_contain_text("will be sent when the connection is back")
        screenshot(page, "network-silent-pending", full_page=False)

        # The network is back: the page reconnects by itself within 5 s and the move lands once.
        relay.silent.clear()
        expect(page.locator("#connection.ok")).to_have_count(1, timeout=6_000)
        # The server applies the move once, or refuses it with a reason the page shows.
        page.wait_for_function("() => window.dominoes.socket.pendingActions().length === 0")
        expect(page.locator("#hand .tile-button.pending")).to_have_count(0)
        # Let any second copy of the action reach the server before counting.
        seen = page.evaluate("() => window.dominoes.version")
        page.evaluate("() => window.dominoes.socket.send({type: 'sync'})")
        page.wait_for_function("v => window.dominoes.version >= v", arg=seen)
        refused = page.locator("#error").inner_text().strip()
        if refused:
            assert len(my_plays(page)) == played_before, refused
        else:
            page.wait_for_function(
                "n => (window.dominoes.view.log || []).filter((e) => e.seat === 0 && e.type === 'play').length > n",
                arg=played_before)
            assert len(my_plays(page)) == played_before + 1
            assert len(view(page)["hand"]) == held_before - 1
        assert not errors, errors
        context.close()
