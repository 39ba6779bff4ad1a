"""The replay page on a phone (390x844, touch): reached from the end-of-hand screen of a
table, it steps through the finished hand with every hand face up, jumps to a move from the
list and the slider, plays on its own and pauses, keeps the position in its URL, checks the
shuffle, and fits the phone (no sideways scroll, 44 px targets, nothing serious for axe)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, add_ai, create_room, play_until, start, view
from tests.e2e.test_phone_tables import CONTROLS, serious_axe_findings, settled

pytestmark = pytest.mark.e2e

READY = "() => !!(window.replay && window.replay.ready)"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    assert errors == []
    context.close()


def fits_the_phone(page: Page, name: str) -> None:
    settled(page)
    screenshot(page, name, full_page=False)
    screenshot(page, f"{name}-whole", full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, name
    assert page.evaluate(CONTROLS) == [], name
    assert serious_axe_findings(page) == [], name


def position(page: Page) -> tuple[int, int]:
    hand, move = page.evaluate("() => [window.replay.hand, window.replay.move]")
    return int(hand), int(move)


def test_a_finished_hand_replays_on_a_phone_from_the_end_of_hand_screen(phone: Page, daphne_url: str) -> None:
    code = create_room(phone, daphne_url, "draw", "Ann", players=2)
    add_ai(phone, 1, "easy")
    start(phone)
    play_until([phone], lambda: view(phone).get("last_hand") is not None)

    # The end-of-hand summary leads to the replay of that hand, from its deal.
    link = phone.locator("#replay-hand")
    expect(link).to_be_visible()
    link.click()
    phone.wait_for_url(re.compile(rf"/r/{code}/replay/0"))
    phone.wait_for_function(READY)
    assert position(phone) == (0, 0)
    expect(phone.locator("#status")).to_contain_text("The deal of hand 1")
    total = int(phone.locator("#scrub").get_attribute("max") or 0)
    assert total > 2
    # Every hand face up: both seats' tiles are drawn, seven each at the deal of Draw for two.
    hands = phone.locator("#hands li")
    expect(hands).to_have_count(2)
    for seat in range(2):
        expect(hands.nth(seat).locator("svg.tile")).to_have_count(7)
    fits_the_phone(phone, "replay-deal-390x844")

    # Step forward and back: the status tells the move, the URL follows.
    phone.locator("#forward").tap()
    assert position(phone) == (0, 1)
    expect(phone.locator("#status")).to_contain_text(f"Move 1 of {total}:")
    assert phone.url.endswith("?hand=1&move=1")
    laid = phone.evaluate("() => window.replay.data.positions[1].events.filter((e) => e.type === 'play').length")
    expect(phone.locator("#board svg.tile")).to_have_count(laid)
    phone.locator("#forward").tap()
    phone.locator("#back").tap()
    assert position(phone) == (0, 1)
    # The arrow keys step too (outside the slider and the hand picker).
    phone.keyboard.press("ArrowRight")
    assert position(phone) == (0, 2)
    phone.keyboard.press("ArrowLeft")
    assert position(phone) == (0, 1)

    # Jump to a move from the list, then with the slider, then to the end.
    phone.locator("#moves button[data-move='3']").tap()
    assert position(phone) == (0, 3)
    expect(phone.locator("#moves button[data-move='3']")).to_have_attribute("aria-current", "step")
    assert phone.url.endswith("?hand=1&move=3")
    phone.locator("#scrub").fill("2")
    assert position(phone) == (0, 2)
    phone.locator("#to-end").tap()
    assert position(phone) == (0, total)
    expect(phone.locator("#hand-end")).to_be_visible()
    expect(phone.locator("#hand-end")).to_contain_text("Match score after this hand")
    expect(phone.locator("#forward")).to_be_disabled()
    fits_the_phone(phone, "replay-end-390x844")

    # The fair-shuffle check of the hand passes in the browser.
    expect(phone.locator("#fair")).to_have_attribute("data-ok", "true")
    expect(phone.locator("#fair .fair-badge")).to_have_text("✓ Fair shuffle")

    # Autoplay moves on by itself from the deal, and pauses.
    phone.locator("#to-start").tap()
    play = phone.locator("#autoplay")
    play.tap()
    expect(play).to_have_attribute("aria-pressed", "true")
    phone.wait_for_function("() => window.replay.move >= 2", timeout=TIMEOUT_MS)
    play.tap()
    expect(play).to_have_attribute("aria-pressed", "false")
    stopped = position(phone)
    phone.wait_for_timeout(1600)
    assert position(phone) == stopped

    # With reduced motion, a step lays its tile without sliding it in.
    phone.emulate_media(reduced_motion="reduce")
    phone.locator("#to-start").tap()
    phone.locator("#forward").tap()
    assert phone.evaluate("() => document.getAnimations().filter((a) => a.playState === 'running').length") == 0
    phone.emulate_media(reduced_motion="no-preference")

    # The link of a position, opened on another phone, shows that position.
    phone.locator("#moves button[data-move='4']").tap()
    shared = phone.locator("#position-link").inner_text()
    assert shared.endswith(f"/r/{code}/replay/0?hand=1&move=4")
    phone.goto(f"{daphne_url}/r/{code}/replay/0?hand=1&move=4")
    phone.wait_for_function(READY)
    assert position(phone) == (0, 4)
    expect(phone.locator("#moves button[data-move='4']")).to_have_attribute("aria-current", "step")
    phone.goto(f"{daphne_url}/r/{code}/replay/0?hand=1&move=999")
    phone.wait_for_function(READY)
    assert position(phone) == (0, total)


def test_a_replay_of_a_match_that_does_not_exist_says_so(phone: Page, daphne_url: str) -> None:
    code = create_room(phone, daphne_url, "draw", "Ann", players=2)
    phone.goto(f"{daphne_url}/r/{code}/replay/3")
    expect(phone.locator("#error")).to_contain_text("no match 4")
    answer = phone.goto(f"{daphne_url}/r/nosuchroom2345/replay/0")
    assert answer is not None and answer.status == 404


@pytest.mark.parametrize(("game", "players"), [("texas42", 4), ("mexican_train", 4), ("chicken_foot", 3)])
def test_each_table_draws_its_replay_on_a_phone(phone: Page, daphne_url: str, game: str, players: int) -> None:
    code = create_room(phone, daphne_url, game, "Ann", players=players)
    for seat in range(1, players):
        add_ai(phone, seat, "easy")
    start(phone)
    play_until([phone], lambda: view(phone).get("last_hand") is not None, limit_s=240)
    phone.goto(f"{daphne_url}/r/{code}/replay")
    phone.wait_for_function(READY)
    total = int(phone.locator("#scrub").get_attribute("max") or 0)
    expect(phone.locator("#hands li")).to_have_count(players)
    phone.locator("#scrub").fill(str(total // 2))
    assert position(phone) == (0, total // 2)
    fits_the_phone(phone, f"replay-{game}-middle-390x844")
    phone.locator("#to-end").tap()
    expect(phone.locator("#hand-end")).to_be_visible()
    expect(phone.locator("#fair")).to_have_attribute("data-ok", "true")
    fits_the_phone(phone, f"replay-{game}-end-390x844")


def test_a_hint_at_the_table_then_hards_review_in_the_replay_on_a_phone(phone: Page, daphne_url: str) -> None:
    """With the room's hints on, the Hint button at Ann's turn outlines Hard's tile and says
    why; once the hand is over the replay marks her moves where Hard would have played
    otherwise, and the page still fits the phone."""
    from tests.e2e.driver import my_turn

    code = create_room(phone, daphne_url, "draw", "Ann", players=2, options={"hints": "true", "target": "1"})
    add_ai(phone, 1, "easy")
    start(phone)
    # A turn with a tile to lay (a turn that can only draw or pass is hinted on its button).
    play_until([phone], lambda: my_turn(phone) and bool(phone.evaluate(
        "() => window.dominoes.view.legal.some((a) => a.tile)")))
    expect(phone.locator("#hint-button")).to_be_visible()
    phone.click("#hint-button")
    expect(phone.locator("#hint-why")).to_contain_text(re.compile(r"\w"))
    expect(phone.locator("#hand .hinted")).to_have_count(1)
    screenshot(phone, "hint-phone", full_page=False)
    play_until([phone], lambda: view(phone).get("match_over") is True)
    phone.goto(f"{daphne_url}/r/{code}/replay/0")
    phone.wait_for_function(READY)
    expect(phone.locator("#review-status")).to_contain_text(re.compile("marked|same way"), timeout=60_000)
    marked = phone.locator("#moves button.reviewed")
    if marked.count():
        marked.first.click()
        expect(phone.locator("#review-note")).to_contain_text("Hard would have played")
    fits_the_phone(phone, "replay-review")
