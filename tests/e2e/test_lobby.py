"""The lobby on phones: sharing the link, arranging the table, seats taken, left and changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, add_ai, create_room, join, seat_row, start

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


Phone = Callable[[], Page]


@pytest.fixture
def phone(browser: Any) -> Iterator[Phone]:
    """New phone-sized pages, each in a browser context of its own (its own localStorage)."""
    made = []

    def make() -> Page:
        context = browser.new_context(**PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        made.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors
        return page  # type: ignore[no-any-return]

    yield make
    for context in made:
        context.close()


def stored_seat(page: Page, code: str) -> dict[str, object]:
    return page.evaluate("c => JSON.parse(localStorage.getItem('dominoes.room.' + c) || '{}')", code)  # type: ignore[no-any-return]


def test_host_swaps_two_seats_by_tapping_and_every_browser_sees_it(phone: Phone, daphne_url: str) -> None:
    host, bob, visitor = phone(), phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=4, options={"partnership": "true"})
    join(bob, daphne_url, code, "Bob")
    add_ai(host, 2)
    visitor.goto(f"{daphne_url}/r/{code}")
    for page in (host, bob, visitor):
        expect(seat_row(page, 2).locator(".who")).to_have_text("Hard AI")
        # Partners sit opposite: the teams are drawn and named in words.
        expect(page.locator("#seats .team h3")).to_have_text([re.compile("^Team 1"), re.compile("^Team 2")])
        expect(page.locator("#seats .team").nth(0).locator("li")).to_have_count(2)
        expect(page.locator("#seats .team").nth(0).locator("li[data-seat='1']")).to_have_count(0)

    seat_row(host, 1).locator(".seat-pick").tap()
    expect(seat_row(host, 1).locator(".seat-pick")).to_have_attribute("aria-pressed", "true")
    expect(host.locator("#lobby-status")).to_contain_text("Bob is selected")
    screenshot(host, "lobby-host-selected-390")
    seat_row(host, 2).locator(".seat-pick").tap()

    for page in (host, bob, visitor):
        expect(seat_row(page, 2).locator(".who")).to_have_text("Bob")
        expect(seat_row(page, 1).locator(".who")).to_have_text("Hard AI")
        team_1 = page.locator("#seats .team").filter(has=page.locator("h3", has_text="Team 1"))
        expect(team_1.locator("li[data-seat='2'] .who")).to_have_text("Bob")
    expect(host.locator("#seats .seat-pick[aria-pressed=true]")).to_have_count(0)
    # The server's new welcome moved Bob's own seat, and this browser remembers it.
    bob.wait_for_function("() => window.dominoes.seat === 2")
    expect(seat_row(bob, 2).locator(".badge.you")).to_have_count(1)
    assert stored_seat(bob, code)["seat"] == 2
    for page in (host, bob, visitor):
        assert page.js_errors == []  # type: ignore[attr-defined]


def test_host_puts_an_ai_in_an_empty_seat_and_opens_it_again(phone: Phone, daphne_url: str) -> None:
    host, visitor = phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=3)
    visitor.goto(f"{daphne_url}/r/{code}")
    expect(seat_row(visitor, 2).locator("button[data-action=sit]")).to_be_visible()

    seat_row(host, 2).locator("button[data-level=easy]").tap()
    expect(seat_row(host, 2).locator(".badge.ai")).to_have_text("AI (easy)")
    expect(seat_row(host, 2).locator("button[data-level=easy]")).to_have_attribute("aria-pressed", "true")
    expect(seat_row(host, 2).locator("button[data-level=open]")).to_have_attribute("aria-pressed", "false")
    expect(seat_row(visitor, 2).locator(".who")).to_have_text("Easy AI")
    expect(seat_row(visitor, 2).locator("button[data-action=sit]")).to_have_count(0)

    seat_row(host, 2).locator("button[data-level=open]").tap()
    expect(seat_row(host, 2).locator(".who")).to_have_text("Open seat")
    expect(seat_row(host, 2).locator(".badge.ai")).to_have_count(0)
    expect(seat_row(host, 2).locator("button[data-level=open]")).to_have_attribute("aria-pressed", "true")
    expect(seat_row(visitor, 2).locator("button[data-action=sit]")).to_be_visible()


def test_guest_moves_to_a_free_seat_leaves_it_and_sits_in_another(phone: Phone, daphne_url: str) -> None:
    host, bob = phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=4)
    join(bob, daphne_url, code, "Bob")
    assert bob.evaluate("() => window.dominoes.seat") == 1

    seat_row(bob, 3).locator("button[data-action=move]").tap()
    bob.wait_for_function("() => window.dominoes.seat === 3")
    expect(seat_row(host, 3).locator(".who")).to_have_text("Bob")
    expect(seat_row(host, 1).locator(".who")).to_have_text("Open seat")
    assert stored_seat(bob, code)["seat"] == 3

    seat_row(bob, 3).locator("button[data-action=leave]").tap()
    expect(bob.locator("#join")).to_be_visible()
    expect(seat_row(host, 3).locator(".who")).to_have_text("Open seat")
    assert "token" not in stored_seat(bob, code)
    expect(bob.locator("#error")).to_be_hidden()

    bob.fill("#join-name", "Bob")
    seat_row(bob, 2).locator("button[data-action=sit]").tap()
    bob.wait_for_function("() => window.dominoes.seat === 2 && !!window.dominoes.token")
    expect(seat_row(host, 2).locator(".who")).to_have_text("Bob")
    expect(bob.locator("#join")).to_be_hidden()
    assert stored_seat(bob, code)["seat"] == 2
    assert bob.js_errors == []  # type: ignore[attr-defined]


def test_host_removes_a_player_who_is_told_and_can_sit_down_again(phone: Phone, daphne_url: str) -> None:
    host, bob = phone(), phone()
    code = create_room(host, daphne_url, "block", "Ann", players=2)
    join(bob, daphne_url, code, "Bob")

    seat_row(host, 1).locator("button[data-action=remove]").tap()
    expect(seat_row(host, 1).locator(".confirm-text")).to_have_text("Remove Bob from the table?")
    seat_row(host, 1).locator("button[data-action=remove-yes]").tap()

    expect(seat_row(host, 1).locator(".who")).to_have_text("Open seat")
    expect(bob.locator("#error")).to_contain_text("The host freed your seat")
    expect(bob.locator("#join")).to_be_visible()
    assert "token" not in stored_seat(bob, code)


def test_a_visitor_to_a_full_room_is_told_they_can_watch(phone: Phone, daphne_url: str) -> None:
    host, visitor = phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=2)
    add_ai(host, 1, "medium")
    visitor.goto(f"{daphne_url}/r/{code}")
    expect(visitor.locator("#full-room")).to_have_text(
        "Every seat is taken. You can watch the game from here as a spectator."
    )
    expect(visitor.locator("#join")).to_be_hidden()
    expect(visitor.locator("#seats button")).to_have_count(0)
    screenshot(visitor, "lobby-spectator-390")
    start(host)
    visitor.wait_for_selector("#table:not([hidden])")
    expect(visitor.locator("#hand")).to_contain_text("You are watching")


def test_share_dialog_opens_from_the_table_with_the_absolute_link(phone: Phone, daphne_url: str) -> None:
    host = phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=2)
    link = host.locator("#app").get_attribute("data-link") or ""
    assert re.fullmatch(rf"https?://[^/]+/r/{code}", link), link
    expect(host.locator("#lobby #room-link")).to_have_text(link)
    add_ai(host, 1)
    start(host)

    # At the table the link is shared from the table menu.
    host.get_by_role("button", name="Menu").tap()
    host.get_by_role("dialog", name="Table menu").get_by_role("button", name="Share the link").tap()
    dialog = host.get_by_role("dialog", name="Share the link")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#room-link")).to_have_text(link)
    expect(dialog.locator(".qr svg")).to_be_visible()
    expect(dialog.get_by_role("button", name="Copy the link")).to_be_visible()
    screenshot(host, "table-share-dialog-390")
    dialog.get_by_role("button", name="Close").tap()
    expect(dialog).to_be_hidden()
    expect(host.get_by_role("dialog", name="Table menu")).to_be_hidden()
    expect(host.locator("#share-home #share-panel")).to_have_count(1)


def test_room_clocks_from_the_home_form_and_changed_by_the_host(phone: Phone, daphne_url: str) -> None:
    host, bob = phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=2, grace="30", turn="60")
    expect(host.locator("#grace-select")).to_have_value("30")
    expect(host.locator("#turn-select")).to_have_value("60")
    join(bob, daphne_url, code, "Bob")
    expect(bob.locator("#table-settings")).to_be_hidden()
    expect(bob.locator("#options-list")).to_contain_text("30 seconds")

    host.select_option("#grace-select", "300")
    host.select_option("#turn-select", "")
    expect(bob.locator("#options-list")).to_contain_text("5 minutes")
    expect(bob.locator("#options-list dt", has_text="Turn timer").locator("+ dd")).to_have_text("Off")


def test_a_room_that_is_gone_says_so_and_stops(phone: Phone, daphne_url: str) -> None:
    host = phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=2)
    page = phone()
    opened: list[str] = []

    def gone(ws: WebSocketRoute) -> None:
        opened.append(ws.url)
        ws.close(code=4404, reason="no such room")

    page.route_web_socket(re.compile(r"/ws/rooms/"), gone)
    page.goto(f"{daphne_url}/r/{code}")
    expect(page.locator("#error")).to_contain_text("There is no room at this link")
    expect(page.locator("#lobby")).to_be_hidden()
    expect(page.locator("#connection")).to_have_text("No such room")
    page.wait_for_function("() => window.dominoes.gone && window.dominoes.socket.ws === null")
    assert len(opened) == 1


def test_every_lobby_control_is_at_least_44_px_and_nothing_scrolls_sideways(
    phone: Phone, daphne_url: str
) -> None:
    host, bob, visitor = phone(), phone(), phone()
    code = create_room(host, daphne_url, "draw", "Ann", players=4, options={"partnership": "true"})
    join(bob, daphne_url, code, "Bob")
    add_ai(host, 2, "medium")
    visitor.goto(f"{daphne_url}/r/{code}")
    seat_row(host, 2).locator(".seat-pick").tap()
    seat_row(host, 1).locator("button[data-action=remove]").tap()
    expect(seat_row(host, 1).locator("button[data-action=remove-yes]")).to_be_visible()
    expect(visitor.locator("#join")).to_be_visible()
    for name, page in (("host", host), ("guest", bob), ("visitor", visitor)):
        small = page.evaluate(
            """() => [...document.querySelectorAll('#lobby button, #lobby select, #lobby input')]
                .filter((el) => el.getClientRects().length)
                .map((el) => [el.id || el.dataset.key || el.textContent.trim(), el.getBoundingClientRect()])
                .filter(([, r]) => r.width < 44 || r.height < 44)
                .map(([what, r]) => `${what} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
        assert small == [], (name, small)
        assert page.locator("#lobby button:visible").count() > 0, name
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, name
        screenshot(page, f"lobby-{name}-390")
