"""Every game at its largest table, on phones (with touch), a tablet and a laptop.

One room per game, resized through the sizes with `set_viewport_size`. At each size, on the
player's turn: nothing scrolls sideways (after a 200-character chat message without a space,
with a 30-character name at the table), the status line, the board and the hand are all on
screen, every visible control is at least 44x44 CSS px, axe-core finds nothing serious or
critical, the turn alert is up (tab title, banner), and the last move is outlined on the
board and told in words. A screenshot of what the screen shows is saved for each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import (
    TIMEOUT_MS,
    add_ai,
    create_room,
    join,
    my_turn,
    start,
    take_turn,
    version,
    view,
    wait_for_change,
)

pytestmark = pytest.mark.e2e

PHONES = [(360, 740), (390, 844), (412, 915), (844, 390)]
BIGGER = [(768, 1024), (1366, 768)]
HOST = "Grandmother Josephine Abernath"  # 30 characters
GUEST = "Bartholomew Fitzgerald-Smythes"  # 30 characters
LONG_WORD = "Wonderful" * 22 + "!!"  # 200 characters, no space
assert len(HOST) == len(GUEST) == 30 and len(LONG_WORD) == 200

#: game, players, options, whether a second phone (with a long name) sits at the table
TABLES = [
    ("mexican_train", 10, {}, True),
    ("chicken_foot", 8, {}, False),
    ("texas42", 4, {}, False),
    ("draw", 4, {"partnership": "true"}, False),
    ("allfives", 4, {}, False),
    ("fiveup", 4, {"muggins": "true"}, False),
]

CONTROLS = """() => [...document.querySelectorAll(
    'button, a[href], input, select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])')]
  .filter((el) => el.getClientRects().length && el.checkVisibility({ visibilityProperty: true, opacityProperty: false }))
  .map((el) => [el.id || el.dataset.key || el.dataset.end || el.dataset.tile || el.getAttribute('aria-label')
    || el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([what, r]) => `${what} ${Math.round(r.width)}x${Math.round(r.height)}`)"""

OUTSIDE = """() => ['#status-bar', '#board', '#hand'].map((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    return inside ? null : `${sel} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  }).filter(Boolean)"""

#: The last move by another seat included a tile played, and it is this seat's turn.
LAST_PLAYED_BY_OTHER = """() => {
  const d = window.dominoes;
  if (!d.view || d.view.match_over || d.waiting || d.view.to_move !== d.seat || !d.view.legal.length) return false;
  const log = d.view.log || [];
  let i = log.length - 1;
  while (i >= 0 && (log[i].seat === undefined || log[i].seat === null)) i--;
  if (i < 0 || log[i].seat === d.seat) return false;
  const who = log[i].seat;
  for (let j = i; j >= 0 && (log[j].seat === who || log[j].seat === undefined || log[j].seat === null); j--) {
    if (log[j].type === 'play' && log[j].seat === who) return true;
  }
  return false;
}"""


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[[int, int], Page]]:
    made: list[BrowserContext] = []

    def make(width: int, height: int) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
        context.set_default_timeout(TIMEOUT_MS)
        made.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in made:
        context.close()


def settled(page: Page) -> None:
    """The page has laid out and drawn what it rendered, and no tile is still sliding in."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def until_turn_after_a_play(host: Page, others: list[Page]) -> None:
    """Play on (tapping, as on a phone) until it is the host's turn just after another seat
    played a tile, so the last move has a tile to outline."""
    for _ in range(60):
        if host.evaluate(LAST_PLAYED_BY_OTHER):
            return
        if view(host)["match_over"]:
            pytest.fail("the match ended before the host's turn came after a play")
        seen = version(host)
        moved = take_turn(host, tap=True)
        for other in others:
            moved = take_turn(other) or moved
        if not moved:
            wait_for_change(host, seen, others)
    pytest.fail("the host's turn never came just after another seat's play")


def serious_axe_findings(page: Page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def check_plain_screen(page: Page, name: str) -> None:
    """No sideways scroll, 44 px controls, nothing serious for axe-core: any page of the room."""
    settled(page)
    width = page.viewport_size["width"]  # type: ignore[index]
    screenshot(page, f"{name}-{width}", full_page=False)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
    assert page.evaluate(CONTROLS) == [], name
    assert serious_axe_findings(page) == [], name


def check_screen(page: Page, name: str, width: int, height: int) -> None:
    settled(page)
    screenshot(page, f"{name}-{width}x{height}", full_page=False)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
    assert page.evaluate("() => document.body.scrollWidth") <= width, name
    assert page.evaluate("() => window.scrollY") == 0, name
    assert page.evaluate(OUTSIDE) == [], name
    assert page.evaluate(CONTROLS) == [], name
    # The turn alert: the title and the banner say it is your turn.
    assert page.title().startswith("Your turn!"), page.title()
    expect(page.locator("#turn-flag")).to_be_visible()
    expect(page.locator("#turn-flag")).to_have_text("Your turn")
    assert "mine" in (page.locator("#status-bar").get_attribute("class") or "")
    # The last move: told in one line, and its tile outlined on the board.
    last = page.locator("#last-move").inner_text()
    assert re.search(r"\b(played|led)\b", last), last
    outlined = page.locator("#board svg.tile.last-played")
    expect(outlined.first).to_be_visible()
    key = outlined.first.get_attribute("data-key") or ""
    low, high = key.split("-")
    # Written "6|4" (the higher number first) on screen, "six four" for a screen reader.
    assert f"{max(int(low), int(high))}|{min(int(low), int(high))}" in last, (key, last)
    assert serious_axe_findings(page) == [], name


@pytest.mark.parametrize(("game", "players", "options", "guest"), TABLES, ids=[t[0] for t in TABLES])
def test_largest_table_fits_every_screen_with_touch(
    phones: Callable[[int, int], Page], daphne_url: str, game: str, players: int, options: dict[str, Any], guest: bool
) -> None:
    host = phones(*PHONES[0])
    code = create_room(host, daphne_url, game, HOST, players=players, options=options)
    others = []
    if guest:
        other = phones(390, 844)
        join(other, daphne_url, code, GUEST)
        others.append(other)
    for seat in range(1 + len(others), players):
        add_ai(host, seat, "easy")
    watcher = None
    if guest:
        # The lobby of a full ten-seat room on a phone, as the host and as a seated guest see it.
        for page in (host, others[0]):
            check_plain_screen(page, f"lobby-{game}-{'host' if page is host else 'guest'}")
        watcher = phones(*PHONES[0])
        watcher.goto(f"{daphne_url}/r/{code}")
        watcher.wait_for_selector("#full-room:not([hidden])")
    start(host)
    for other in others:
        other.wait_for_selector("#table:not([hidden])")
    if watcher is not None:
        # Anyone with the link watches the table from a phone: no hand, the same fit.
        watcher.wait_for_selector("#table:not([hidden])")
        check_plain_screen(watcher, f"watch-{game}")
    host.wait_for_function("() => !!window.dominoes.view")
    # A long word in the table talk wraps instead of widening the page.
    (others[0] if others else host).evaluate("t => window.dominoes.socket.send({type: 'chat', text: t})", LONG_WORD)
    host.wait_for_function("t => [...document.querySelectorAll('#chat li')].some((li) => li.textContent.includes(t))",
                           arg=LONG_WORD)
    for width, height in PHONES + BIGGER:
        host.set_viewport_size({"width": width, "height": height})
        until_turn_after_a_play(host, others)
        check_screen(host, f"phone-{game}", width, height)
    assert host.js_errors == []  # type: ignore[attr-defined]
    for other in others:
        assert other.js_errors == []  # type: ignore[attr-defined]


def test_phone_table_extras_chat_fold_moves_zoom_tap_and_motion(phones: Callable[[int, int], Page], daphne_url: str) -> None:
    """The Mexican Train table on a phone: chat folds away with an unread count, the move list
    opens from the table, the board zooms, a tile is played by tapping it and then the
    highlighted end, tiles slide in within 250 ms and not at all with reduced motion."""
    host = phones(390, 844)
    code = create_room(host, daphne_url, "mexican_train", "Ann", players=4)
    bob = phones(390, 844)
    join(bob, daphne_url, code, "Bob")
    for seat in (2, 3):
        add_ai(host, seat, "easy")
    start(host)
    bob.wait_for_selector("#table:not([hidden])")
    # Folded chat on a phone: the count grows, opening it clears it.
    expect(host.locator("#chat-body")).to_be_hidden()
    bob.locator("#open-chat").tap()
    bob.locator("#phrases button[data-phrase=good_luck]").tap()
    expect(host.locator("#chat-unread")).to_have_text("1")
    expect(host.locator("#open-chat")).to_have_attribute("aria-label", "Chat, 1 unread")
    host.locator("#open-chat").tap()
    expect(host.locator("#chat-body")).to_be_visible()
    expect(host.locator("#chat")).to_contain_text("Bob: Good luck!")
    expect(host.locator("#chat-unread")).to_be_hidden()
    host.evaluate("() => window.scrollTo(0, 0)")
    # Zoom: bigger tiles on the rows, back with Fit.
    before = host.evaluate("() => getComputedStyle(document.querySelector('#board')).getPropertyValue('--t')")
    host.locator("#zoom button[data-zoom=in]").tap()
    after = host.evaluate("() => getComputedStyle(document.querySelector('#board')).getPropertyValue('--t')")
    assert int(after.strip().removesuffix("px")) > int(before.strip().removesuffix("px"))
    host.locator("#zoom button[data-zoom=fit]").tap()
    # Play until a tile has two trains to go to: tap it, then tap the highlighted end.
    pages = [host, bob]
    for _ in range(240):
        if my_turn(host):
            v = view(host)
            plays = [a for a in v["legal"] if a["type"] == "play"]
            tiles = [tuple(a["tile"]) for a in plays]
            twice = next((t for t in tiles if tiles.count(t) > 1), None)
            if twice is not None:
                break
        seen = version(host)
        moved = False
        for page in pages:
            moved = take_turn(page, tap=page is host) or moved
        if not moved:
            wait_for_change(host, seen, [bob])
    else:
        pytest.skip("no tile with two trains to choose came up")
    host.locator(f"#hand .tile-button[data-tile='{twice[0]}-{twice[1]}']").tap()
    expect(host.locator("#hand .tile-button.chosen")).to_have_count(1)
    target = host.locator("#board .end-target").first
    expect(target).to_be_visible()
    end = target.get_attribute("data-end")
    hand = view(host)["hand_number"]
    target.tap()
    # Wait for the play itself (other messages, a seat's presence, also move the version on),
    # or for the next hand, if that tile was the last of the hand.
    host.wait_for_function(
        """([tile, end, hand]) => window.dominoes.view.hand_number !== hand
            || (window.dominoes.view.log || []).some((e) => e.type === "play" && e.seat === 0
                && e.end === end && e.tile[0] === tile[0] && e.tile[1] === tile[1])""",
        arg=[list(twice), end, hand])
    if view(host)["hand_number"] == hand:
        mine = [e for e in view(host)["log"] if e["type"] == "play" and e["seat"] == 0]
        assert mine and mine[-1]["end"] == end
    # The move list opens from the status bar and names that move.
    host.locator("#open-moves").tap()
    expect(host.locator("#moves-dialog")).to_be_visible()
    expect(host.locator("#log li").last).to_be_visible()
    assert host.locator("#log li").count() == len(view(host)["log"])
    screenshot(host, "phone-moves-390", full_page=False)
    host.locator("#moves-dialog button[type=submit]").tap()
    # The menu: share, the turn alert's preferences, the site's links; the mute button agrees.
    host.locator("#open-menu").tap()
    menu = host.get_by_role("dialog", name="Table menu")
    expect(menu).to_be_visible()
    assert host.evaluate(CONTROLS) == []
    screenshot(host, "phone-menu-390", full_page=False)
    menu.get_by_label("Play a short sound").uncheck()
    menu.get_by_role("button", name="Close").tap()
    expect(host.locator("#mute")).to_have_attribute("aria-pressed", "true")
    assert host.evaluate("() => JSON.parse(localStorage.getItem('dominoes.profile')).prefs.sound") is False
    host.locator("#mute").tap()
    expect(host.locator("#mute")).to_have_attribute("aria-pressed", "false")
    # Tiles slide in within 250 ms; with reduced motion they do not move at all. (A tile is an
    # ordinary tile again once it has arrived, so the rule is read from a probe on the board.)
    probe = """() => { const el = document.createElement('span'); el.className = 'arrive';
      document.querySelector('#board').append(el); const cs = getComputedStyle(el);
      const got = [cs.animationName, parseFloat(cs.animationDuration)]; el.remove(); return got; }"""
    name, duration = host.evaluate(probe)
    assert name == "slide-in" and 0 < duration <= 0.25
    host.emulate_media(reduced_motion="reduce")
    assert host.evaluate(probe)[0] == "none"
    assert host.js_errors == []  # type: ignore[attr-defined]
