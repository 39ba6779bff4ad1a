"""The table screen `/r/<code>/tv`, opened on the host's own laptop (the browser that holds
the host's seat token): before the start it shows the room's link, its QR code and the seats
filling in; after the start the board, every seat, whose turn it is and the last move, and it
follows the moves with no click. It never sends the token nor reads the browser's storage,
no frame it receives holds a hand, and it fits a TV: no text under 18 px at 1920x1080, nothing
to scroll at 1280x720, nothing serious for axe-core."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, add_ai, create_room, over, play_until, start
from tests.e2e.pictures import qr_texts
from tests.e2e.test_phone_tables import serious_axe_findings

pytestmark = pytest.mark.e2e
DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Every piece of visible text whose font is under 18 CSS px: "text (size)".
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("svg, script, style, [hidden], .visually-hidden")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || style.display === "none") continue;
    const size = parseFloat(style.fontSize);
    if (size < 18) small.push(`${text.slice(0, 40)} (${size}px)`);
  }
  return small;
}"""

SCROLLS = """() => {
  const d = document.documentElement;
  return { x: d.scrollWidth > innerWidth, y: d.scrollHeight > innerHeight };
}"""

#: Storage reads and writes of the page, recorded before any of its scripts runs.
WATCH_STORAGE = """(() => {
  window.__storage = [];
  for (const name of ["getItem", "setItem", "removeItem", "key", "clear"]) {
    const own = Storage.prototype[name];
    Storage.prototype[name] = function (...args) { window.__storage.push(`${name}(${args[0] ?? ""})`); return own.apply(this, args); };
  }
})();"""


def fits_a_tv(tv: Page, name: str) -> None:
    """At 1920x1080 no text under 18 px; at 1280x720 nothing to scroll; axe finds nothing serious."""
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.wait_for_function("() => document.fonts.status === 'loaded'")
    tv.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    screenshot(tv, f"{name}-1920x1080", full_page=False)
    if name.endswith("-playing") and os.environ.get("DOCS_SCREENSHOTS") == "1":
        tv.screenshot(path=str(DOCS / f"{name.removesuffix('-playing')}-1920x1080.png"))
    assert tv.evaluate(SMALL_TEXT) == [], name
    assert tv.evaluate(SCROLLS) == {"x": False, "y": False}, name
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    screenshot(tv, f"{name}-1280x720", full_page=False)
    assert tv.evaluate(SCROLLS) == {"x": False, "y": False}, name
    # The last move's short highlight fades in; contrast is judged on the settled screen.
    tv.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    assert serious_axe_findings(tv) == [], name


def test_the_table_screen_shows_the_link_then_follows_the_match(browser: Any, daphne_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    host = context.new_page()
    code = create_room(host, daphne_url, "draw", "Ann", players=3)
    token = host.evaluate("() => window.dominoes.token")
    assert token

    # The room page links to the table screen.
    expect(host.locator("#show-tv")).to_have_attribute("href", f"/r/{code}/tv")

    # The table screen on the same laptop: it shares the host's storage, with the token in it.
    tv = context.new_page()
    errors: list[str] = []
    tv.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    tv.on("request", lambda r: requests.append(f"{r.url} {json.dumps(r.headers)}"))
    frames: list[str] = []
    sockets: list[str] = []

    def watch(ws: Any) -> None:
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: frames.append(str(payload)))
        ws.on("framesent", lambda payload: frames.append(str(payload)))

    tv.on("websocket", watch)
    tv.add_init_script(WATCH_STORAGE)
    tv.goto(f"{daphne_url}/r/{code}/tv")

    # Before the start: the absolute link in words, its QR code, the seats as they fill in.
    link = tv.locator("#room-link")
    expect(link).to_have_text(f"{link.inner_text().split('/r/')[0]}/r/{code}")
    assert link.inner_text().startswith("http")
    expect(tv.locator("#qr svg")).to_be_visible()
    # A phone's camera reads the link from the screen: the QR code decoded from a screenshot.
    assert qr_texts(tv.locator("#qr").screenshot()) == [link.inner_text()]
    seats = tv.locator("#lobby-seats li")
    expect(seats).to_have_count(3)
    expect(seats.nth(0)).to_contain_text("Ann")
    expect(seats.nth(1)).to_contain_text("waiting for a player")
    add_ai(host, 1, "easy")
    expect(seats.nth(1)).to_contain_text("Easy AI")
    fits_a_tv(tv, "tv-waiting")
    add_ai(host, 2, "easy")
    expect(seats.nth(2)).to_contain_text("AI")

    # The start shows the board with no click; then three moves followed as they are made.
    start(host)
    expect(tv.locator("#table")).to_be_visible()
    expect(tv.locator("#waiting")).to_be_hidden()
    expect(tv.locator("#players li")).to_have_count(3)
    expect(tv.locator("#players li").nth(0)).to_contain_text("Ann")
    expect(tv.locator("#players li").nth(0)).to_contain_text("tiles")
    expect(tv.locator("#turn")).to_contain_text("to play")
    seen = int(tv.evaluate("() => window.tv.moves"))
    for step in range(3):
        target = seen + step + 1
        play_until(
            [host],
            lambda t=target: (
                int(tv.evaluate("() => window.tv.moves")) >= t
                or bool(tv.evaluate("() => !!window.tv.view?.match_over"))
            ),
        )
        tv.wait_for_function("t => window.tv.moves >= t || window.tv.view?.match_over", arg=target)
    expect(tv.locator("#last-move")).to_contain_text("Last move:")
    expect(tv.locator("#board svg.tile").first).to_be_visible()
    # Whose turn it is matches the server's view.
    to_move = tv.evaluate("() => window.tv.view.to_move")
    if to_move is not None:
        expect(tv.locator("#players li.to-move")).to_have_attribute("data-seat", str(to_move))
    fits_a_tv(tv, "tv-draw-playing")

    # Never the token: not in a request, not on the socket; no storage touched; no hand received.
    assert sockets and all("token" not in url for url in sockets), sockets
    assert all(token not in r for r in requests)
    assert all("authorization" not in r.lower() for r in requests)
    assert all(token not in f for f in frames)
    assert tv.evaluate("() => window.__storage") == []
    received = [json.loads(f) for f in frames if f.startswith("{")]
    states = [f for f in received if f.get("type") == "state"]
    assert states
    assert all(not s["view"].get("hand") for s in states)
    assert tv.evaluate("() => window.tv.seat") is None
    assert errors == []

    # A code that leads nowhere answers the site's friendly 404.
    other = code[:-1] + ("y" if code[-1] != "y" else "z")
    missing = tv.goto(f"{daphne_url}/r/{other}/tv")
    assert missing is not None and missing.status == 404
    context.close()


@pytest.mark.parametrize(("game", "players"), [
    ("texas42", 4), ("mexican_train", 10), ("fiveup", 4),
    # The other games' screens, for their pictures in docs/ (the line games draw as Draw does).
    pytest.param("block", 4, marks=pytest.mark.slow), pytest.param("allfives", 4, marks=pytest.mark.slow),
    pytest.param("chicken_foot", 8, marks=pytest.mark.slow),
])
def test_the_table_screen_fits_texas_42_and_ten_seats_of_mexican_train(
    browser: Any, daphne_url: str, game: str, players: int
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    host = context.new_page()
    code = create_room(host, daphne_url, game, "Ann", players=players)
    tv = context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(f"{daphne_url}/r/{code}/tv")
    expect(tv.locator("#lobby-seats li")).to_have_count(players)
    for seat in range(1, players):
        add_ai(host, seat, "easy")
    expect(tv.locator("#lobby-seats li.free")).to_have_count(0)
    fits_a_tv(tv, f"tv-{game}-waiting")
    start(host)
    expect(tv.locator("#players li")).to_have_count(players)
    seen = int(tv.evaluate("() => window.tv.moves"))
    play_until(
        [host],
        lambda: (
            int(tv.evaluate("() => window.tv.moves")) >= seen + 3
            or bool(tv.evaluate("() => !!window.tv.view?.match_over"))
        ),
    )
    expect(tv.locator("#last-move")).to_contain_text("Last move:")
    unit = "mark" if game == "texas42" else "point"
    expect(tv.locator("#players li").first).to_contain_text(unit)
    fits_a_tv(tv, f"tv-{game}-playing")
    if game == "fiveup":  # its tiles are as large as fit, and no row of them has to be scrolled
        assert tv.evaluate("""() => [...document.querySelectorAll('#board .fu-strip')]
            .filter((s) => s.scrollWidth > s.clientWidth + 1).length""") == 0
    context.close()


def test_the_table_screen_follows_the_final_score_and_a_rematch(browser: Any, daphne_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    host = context.new_page()
    code = create_room(host, daphne_url, "draw", "Ann", players=2, options={"target": "5"})
    add_ai(host, 1, "easy")
    tv = context.new_page()
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.goto(f"{daphne_url}/r/{code}/tv")
    expect(tv.locator("#lobby-seats li.free")).to_have_count(0)
    start(host)
    expect(tv.locator("#table")).to_be_visible()
    play_until([host], lambda: over(host), limit_s=180)
    expect(tv.locator("#result")).to_be_visible()
    expect(tv.locator("#result")).to_contain_text("Final score")
    expect(tv.locator("#turn")).to_have_text("The match is over.")
    screenshot(tv, "tv-over-1280x720", full_page=False)
    assert tv.evaluate(SCROLLS) == {"x": False, "y": False}
    # The host's rematch reaches the TV with no click there.
    host.click("#rematch")
    tv.wait_for_function(
        "() => window.tv.view && !window.tv.view.match_over && window.tv.view.hand_number === 0"
    )
    expect(tv.locator("#result")).to_be_hidden()
    expect(tv.locator("#players li")).to_have_count(2)
    context.close()
