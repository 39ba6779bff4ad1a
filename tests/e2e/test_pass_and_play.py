"""Pass-and-play (docs/frontend.md, "Pass-and-play"): two players on one tablet through a
whole hand, each hand shown only to its player on their turn, never on the hand-off screen."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, create_room, my_turn, start, take_turn, view

DOCS = Path(__file__).resolve().parents[2] / "docs"
HANDOFF = "#handoff:not([hidden])"


def shots(page: Page) -> None:
    """The hand-off screen on the tablet and on a phone; into docs/ with DOCS_SCREENSHOTS=1."""
    for width, height in ((820, 1180), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"handoff-{width}x{height}", full_page=False)
        if os.environ.get("DOCS_SCREENSHOTS") == "1":
            page.screenshot(path=str(DOCS / f"handoff-{width}x{height}.png"))
    page.set_viewport_size({"width": 820, "height": 1180})


def test_two_players_share_a_tablet_through_a_whole_hand(browser: Browser, daphne_url: str) -> None:
    context = browser.new_context(viewport={"width": 820, "height": 1180}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = create_room(page, daphne_url, "block", "Ann", players=2)
    # Without a name nothing is asked of the server.
    page.click("#add-local button[type=submit]")
    expect(page.locator("#error")).to_contain_text("name")
    page.fill("#add-local-name", "Di")
    screenshot(page, "pass-and-play-add-390", full_page=True)
    page.click("#add-local button[type=submit]")
    expect(page.locator("#seats li[data-seat='1']")).to_contain_text("Di")
    expect(page.locator("#add-local")).to_be_hidden()  # no free seat left
    screenshot(page, "pass-and-play-lobby-820x1180", full_page=False)
    start(page)

    confirmed: set[str] = set()
    deadline = time.monotonic() + 120
    while not view(page).get("last_hand") and not view(page)["match_over"]:
        assert time.monotonic() < deadline, view(page).get("log")
        page.wait_for_function(
            "() => !document.getElementById('handoff').hidden || !!window.dominoes.view.last_hand"
            " || window.dominoes.view.match_over")
        if view(page).get("last_hand") or view(page)["match_over"]:
            break
        # The hand-off screen: the player's name, and no tile of either hand anywhere.
        name = page.locator("#handoff-title").inner_text().removeprefix("Pass to ")
        assert name in {"Ann", "Di"}
        assert page.locator("#hand .tile-button").count() == 0
        assert page.evaluate("() => document.getElementById('table').inert")
        said = page.locator("#handoff").inner_text()
        assert not re.search(r"\d+-\d+|double \d", said) and page.locator("#handoff svg").count() == 0, said
        if not confirmed:
            shots(page)
        page.click("#handoff-show")
        confirmed.add(name)
        expect(page.locator(HANDOFF)).to_have_count(0)
        seat = page.evaluate("() => window.dominoes.seat")
        assert view(page)["to_move"] == seat
        page.wait_for_function("() => document.querySelectorAll('#hand .tile-button').length > 0")
        assert my_turn(page)
        if len(confirmed) == 1:
            screenshot(page, "pass-and-play-table-820x1180", full_page=False)
        take_turn(page)
        # After the move the hand is hidden again, whoever moves next.
        page.wait_for_function("() => document.querySelectorAll('#hand .tile-button').length === 0"
                               " || !!window.dominoes.view.last_hand")
    assert confirmed == {"Ann", "Di"}
    assert not errors, errors
    context.close()
    assert code
