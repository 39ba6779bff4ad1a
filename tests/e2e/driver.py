"""Playing a table by clicking, as a person would: the helpers the e2e scenarios share."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

TIMEOUT_MS = 20_000


def create_room(page: Page, base: str, game: str, name: str, players: int | None = None,
                options: dict[str, str] | None = None, tiles: int | None = None,
                grace: str | None = None, turn: str | None = None) -> str:
    """Fill the home page form and create the room; returns the room code. `grace` and `turn`
    are the values of the form's selects (seconds; "" turns the timer off)."""
    page.goto(f"{base}/")
    page.check(f"input[name=game][value={game}]")
    if players is not None:
        page.select_option("#players", str(players))
    if tiles is not None:
        page.select_option("#set", str(tiles))
    if grace is not None:
        page.select_option("#grace", grace)
    if turn is not None:
        page.select_option("#turn", turn)
    page.fill("#name", name)
    for option, value in (options or {}).items():
        field = page.locator(f"#opt-{option}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("#create-button")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("#seats li")
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def seat_row(page: Page, seat: int) -> Locator:
    """Seat `seat` (from 0) of the lobby, wherever its team puts it."""
    return page.locator(f"#seats li[data-seat='{seat}']")


def join(page: Page, base: str, code: str, name: str, seat: int | None = None) -> int:
    """Open the room's link and sit down: in `seat` ("Sit here"), or the first free one."""
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", name)
    if seat is None:
        page.click("#join button[type=submit]")
    else:
        page.click(f"#seats li[data-seat='{seat}'] button[data-action=sit]")
    page.wait_for_function("() => !!window.dominoes.token && window.dominoes.seat !== null", timeout=TIMEOUT_MS)
    page.wait_for_selector("#seats li .badge.you")
    return int(page.evaluate("() => window.dominoes.seat"))


def add_ai(page: Page, seat: int, level: str = "hard") -> None:
    """The host puts an AI of `level` in an open seat of the lobby. When the seat does not
    change, the failure says what the page showed (its error line and connection state)."""
    page.click(f"#seats li[data-seat='{seat}'] button[data-level={level}]")
    try:
        page.wait_for_selector(f"#seats li[data-seat='{seat}'] .badge.ai:has-text('({level})')")
    except PlaywrightError as exc:
        shown = page.evaluate("""() => ({error: document.getElementById('error')?.textContent || '',
            connection: document.getElementById('connection')?.textContent || '',
            revision: window.dominoes.room?.revision, seats: (window.dominoes.room?.seats || []).map((s) => s && s.name)})""")
        raise AssertionError(f"seat {seat} did not become a {level} AI; the page: {shown}") from exc


def start(page: Page) -> None:
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def view(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.dominoes.view")  # type: ignore[no-any-return]


def version(page: Page) -> int:
    return int(page.evaluate("() => window.dominoes.version"))


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(
        "() => { const d = window.dominoes; return !!d.view && !d.view.match_over && !d.waiting"
        " && d.view.to_move === d.seat && d.view.legal.length > 0; }"
    ))


def over(page: Page) -> bool:
    return bool(page.evaluate("() => !!(window.dominoes.view && window.dominoes.view.match_over)"))


def press(locator: Locator, tap: bool) -> None:
    """A finger's tap on a touch screen, else a mouse click."""
    if tap:
        locator.tap()
    else:
        locator.click()


def hittable(locator: Locator) -> bool:
    """Whether a finger on the middle of the element would touch it: scrolled into its box
    and not under the zoom buttons or the sticky status bar."""
    try:
        return bool(locator.evaluate(
            "(el) => { el.scrollIntoView({ block: 'nearest', inline: 'nearest' });"
            " const r = el.getBoundingClientRect(); const x = r.left + r.width / 2;"
            " const y = r.top + r.height / 2; const hit = document.elementFromPoint(x, y);"
            " return r.width > 0 && !!hit && el.contains(hit); }",
            timeout=2_000,
        ))
    except PlaywrightError:  # redrawn meanwhile (a new state came): take the end button
        return False


def take_turn(page: Page, tap: bool = False) -> bool:
    """Make one move by clicking (or with `tap`, tapping) what a player would; False when it is
    not our turn."""
    if not my_turn(page):
        return False
    before = version(page)
    if page.locator(".trumps button").count():
        press(page.locator(".trumps button").first, tap)
    elif page.locator(".bidbox button[data-bid]").count():
        press(page.locator(".bidbox button[data-bid]").first, tap)
    elif page.locator("#hand .tile-button.legal").count():
        press(page.locator("#hand .tile-button.legal").first, tap)
        choice = page.locator("#end-choice:not([hidden]) button[data-end]")
        if choice.count():
            # Alternate between the board's end target and the end button, both are clickable.
            target = page.locator("#board .end-target")
            on_board = target.count() and before % 2 and hittable(target.first)
            press(target.first if on_board else choice.first, tap)
    elif page.locator("#actions button[data-action]").count():
        button = page.locator("#actions button[data-action]").first
        kind = button.get_attribute("data-action") or ""
        # The status line says why: draw, pass (or place a marker), end the opening turn.
        assert kind.split("_")[0] in page.locator("#status").inner_text().lower(), kind
        press(button, tap)
    else:
        raise AssertionError(f"our turn but nothing to click: {view(page)['legal']}")
    page.wait_for_function("v => window.dominoes.version > v || window.dominoes.view.match_over", arg=before,
                           timeout=TIMEOUT_MS)
    return True


def play_until(pages: list[Page], done: Any, limit_s: float = 120.0) -> None:
    """Take turns on every page until `done()` holds."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"still playing after {limit_s} s: {view(pages[0]).get('log')}")
        moved = False
        seen = version(pages[0])
        for page in pages:
            moved = take_turn(page) or moved
        if not moved:
            wait_for_change(pages[0], seen, pages[1:])


def wait_for_change(page: Page, seen: int, others: list[Page] | None = None) -> None:
    """Nobody here could move: an AI is to play, so the table changes next (or the match
    ends); or another page was a state behind and now sees its turn."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        if version(page) != seen or over(page) or any(my_turn(other) for other in [page, *(others or [])]):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the table did not move on from version {seen}")
