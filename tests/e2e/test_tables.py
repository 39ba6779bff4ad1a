"""Whole games in Chromium against a real daphne: rooms by link, AIs, matches played by clicks."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.driver import (
    add_ai,
    create_room,
    my_turn,
    over,
    play_until,
    start,
    take_turn,
    version,
    view,
    wait_for_change,
)

pytestmark = pytest.mark.e2e

#: Opens a page in a new browser context: `make(width=1280, height=900)`.
MakePage = Callable[..., Page]


@pytest.fixture
def context_factory(browser: Browser) -> Iterator[MakePage]:
    made: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 900) -> Page:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        made.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors  # type: ignore[attr-defined]  # Playwright's Page declares no such field
        return page

    yield make
    for ctx in made:
        ctx.close()


def test_partnership_draw_by_link_with_two_hard_ais_played_to_the_end(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    guest = context_factory()
    code = create_room(host, daphne_url, "draw", "Ann", players=4,
                       options={"partnership": "true", "target": "5"})
    assert host.locator("#room-link").inner_text().endswith(f"/r/{code}")
    assert host.locator(".qr svg").count() == 1

    guest.goto(f"{daphne_url}/r/{code}")
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    host.wait_for_selector("#seats li[data-seat='1'] .who:has-text('Bob')")
    add_ai(host, 2)
    add_ai(host, 3)
    screenshot(host, "lobby-partnership-draw")
    start(host)
    guest.wait_for_selector("#table:not([hidden])")
    screenshot(host, "table-draw-start")

    first_hand = view(host)["hand_number"]
    play_until([host, guest], lambda: over(host) and over(guest))
    for page in (host, guest):
        stats = page.evaluate("() => JSON.parse(localStorage.getItem('dominoes.profile')).stats")
        assert stats["played"] == 1

    final = view(guest)
    assert final["match_over"] is True
    assert final["teams"] == [[0, 2], [1, 3]]
    assert max(final["scores"]) >= 5
    for page in (host, guest):
        assert "The match is over" in page.locator("#status").inner_text()
        page.wait_for_selector(".fair.ok")
        badge = page.locator(".fair").inner_text()
        assert "Fair shuffle" in badge and "my hand" in badge
        # The score pad has a row per side and a column per hand this browser saw.
        assert page.locator("#scorepad tbody tr").count() == 2
        columns = page.locator("#scorepad thead th[data-hand]").count()
        assert columns == final["hand_number"] - first_hand + 1
        assert page.js_errors == []  # type: ignore[attr-defined]
    assert host.locator("#rematch").is_visible()
    assert not guest.locator("#rematch").is_visible()
    screenshot(host, "table-draw-over")
    host.emulate_media(media="print")
    assert host.locator("#scorepad table").is_visible()
    assert not host.locator("#felt").is_visible() and not host.locator("#hand").is_visible()
    host.emulate_media(media="screen")
    host.click("#rematch")
    for page in (host, guest):
        page.wait_for_function("() => !window.dominoes.view.match_over && window.dominoes.view.hand_number === 0",
                               timeout=20_000)
        assert view(page)["scores"] == [0, 0]
        assert page.locator("#scorepad thead th[data-hand]").count() == 0


def test_texas42_hand_with_bidding_trumps_and_tricks(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    create_room(host, daphne_url, "texas42", "Ann", options={"target_marks": "1"})
    for seat in (1, 2, 3):
        add_ai(host, seat)
    start(host)
    # The AIs move without a pause, so a poll can miss every trick of a short hand (a set
    # bid ends it early): the page itself records the most tiles it ever drew in the trick.
    host.evaluate(
        "() => { window.mostInTrick = 0; new MutationObserver(() => {"
        " const n = document.querySelectorAll('.trick .slot svg').length;"
        " window.mostInTrick = Math.max(window.mostInTrick, n);"
        " }).observe(document.body, { childList: true, subtree: true }); }")
    saw = {"screenshot": False}

    def done() -> bool:
        if not saw["screenshot"] and len(view(host).get("trick") or []) >= 2:
            saw["screenshot"] = True
            screenshot(host, "table-texas42-trick")
        return over(host)

    play_until([host], done)
    final = view(host)
    last = final["last_hand"]
    # One hand decides a match to one mark, and a bid in marks scores more than one.
    assert final["match_over"] and max(final["scores"]) >= 1
    assert last["bid"] is not None and last["trump"] is not None
    assert any(e["type"] == "trick" for e in last["log"])
    assert host.evaluate("() => window.mostInTrick") >= 2
    host.wait_for_selector(".fair.ok")
    assert host.js_errors == []  # type: ignore[attr-defined]
    screenshot(host, "table-texas42-over")


def test_texas42_bidding_box_offers_only_legal_bids(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    create_room(host, daphne_url, "texas42", "Ann")
    for seat in (1, 2, 3):
        add_ai(host, seat)
    start(host)
    host.wait_for_function("() => window.dominoes.view && window.dominoes.view.to_move === 0", timeout=20_000)
    v = view(host)
    assert v["phase"] == "bidding"
    shown = [int(b) for b in host.locator(".bidbox button[data-bid]").evaluate_all("bs => bs.map(b => b.dataset.bid)")]
    assert shown == [a["value"] for a in v["legal"] if a["type"] == "bid"]
    assert host.locator(".bidbox button[data-action=pass]").count() == 1
    screenshot(host, "table-texas42-bidding")
    # Anyone with the link may watch: the table, no hand, nothing to click.
    watcher = context_factory()
    watcher.goto(host.url)
    watcher.wait_for_selector("#table:not([hidden])")
    assert "watching" in watcher.locator("#hand").inner_text()
    assert watcher.locator("#chat-form").is_hidden()
    assert view(watcher)["seat"] is None and "hand" not in view(watcher)


def test_mexican_train_round_with_a_marker(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    # Double-six keeps the round short and the boneyard small, so markers come quickly.
    create_room(host, daphne_url, "mexican_train", "Ann", players=3, tiles=6, options={"rounds": "4"})
    add_ai(host, 1)
    add_ai(host, 2)
    start(host)
    seen: dict[str, bool] = {"marker": False}

    def done() -> bool:
        if host.locator(".train.marked .marker").count():
            if not seen["marker"]:
                screenshot(host, "table-mexican-train-marker")
            seen["marker"] = True
        v = view(host)
        return v["match_over"] or (seen["marker"] and v["last_hand"] is not None)

    play_until([host], done, limit_s=150)
    v = view(host)
    assert seen["marker"]
    assert v["last_hand"] is not None
    assert host.locator(".train").count() == 4
    assert host.locator(".hub svg").count() == 1
    host.wait_for_selector(".fair.ok")
    assert host.js_errors == []  # type: ignore[attr-defined]


def test_reload_in_the_middle_of_a_hand_resumes_the_same_position(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    create_room(host, daphne_url, "draw", "Ann", players=2)
    add_ai(host, 1)
    start(host)
    play_until([host], lambda: len(view(host)["log"]) >= 4, limit_s=30)
    # Reload while the table waits for us, so nothing moves in between.
    host.wait_for_function("() => { const d = window.dominoes; return d.view.to_move === d.seat && !d.waiting; }",
                           timeout=20_000)
    before = view(host)
    v_before = version(host)
    host.reload()
    host.wait_for_function("() => window.dominoes.view !== null", timeout=20_000)
    after = view(host)
    assert version(host) == v_before
    assert after["hand"] == before["hand"]
    assert after["log"] == before["log"]
    assert after["layout"] == before["layout"]
    assert host.locator("#hand .tile-button").count() == len(before["hand"])
    assert host.locator("#board svg.line-layout svg.tile").count() == sum(
        1 for e in before["log"] if e["type"] == "play")
    # An action the rules refuse is explained in words, and changes nothing.
    host.evaluate("() => window.dominoes.act({type: 'play', tile: [9, 9], end: 'left'})")
    host.wait_for_selector("#error:not([hidden])")
    assert host.locator("#error").inner_text().strip()
    assert version(host) == v_before


@pytest.mark.parametrize(("game", "players"), [("allfives", 2), ("texas42", 4), ("mexican_train", 2)])
def test_phone_layout_fits_375_pixels(daphne_url: str, context_factory: MakePage, game: str, players: int) -> None:
    phone = context_factory(375, 740)
    phone.goto(f"{daphne_url}/")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    screenshot(phone, "phone-home")
    create_room(phone, daphne_url, game, "Ann", players=players)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    for seat in range(1, players):
        add_ai(phone, seat)
    start(phone)
    play_until([phone], lambda: len(view(phone)["log"]) >= 8 or over(phone), limit_s=60)
    # Measure while the table waits for us, so no re-render happens in between.
    phone.wait_for_function("() => { const d = window.dominoes; return d.view.match_over || d.view.to_move === d.seat; }",
                            timeout=20_000)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    tile = phone.locator("#hand .tile-button").first.bounding_box()
    assert tile is not None and tile["width"] >= 44  # a finger-sized target
    screenshot(phone, f"phone-table-{game}")


def test_table_talk_then_a_dropped_socket_reconnects_resyncs_and_says_so(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    guest = context_factory()
    code = create_room(host, daphne_url, "block", "Ann", players=2)
    guest.goto(f"{daphne_url}/r/{code}")
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    start(host)
    guest.wait_for_selector("#table:not([hidden])")
    host.click("#phrases button[data-phrase=good_luck]")
    guest.wait_for_selector("#chat li:has-text('Ann: Good luck!')")
    guest.fill("#chat-text", "<b>thanks</b>")
    guest.click("#chat-form button")
    host.wait_for_selector("#chat li:has-text('Bob: <b>thanks</b>')")
    # Drop the host's socket from under it: the page must come back on its own.
    host.evaluate("() => window.dominoes.socket.ws.close()")
    host.wait_for_selector("#connection:has-text('Reconnected')", timeout=20_000)
    assert version(host) == version(guest)
    # The guest leaves: the host sees the seat away, with the time it has to come back.
    guest_context = guest.context
    guest.close()
    host.wait_for_selector("#table-seats li[data-seat='1'] .badge.away:has-text('back in')", timeout=20_000)
    screenshot(host, "table-block-guest-away")
    back = guest_context.new_page()
    back.goto(f"{daphne_url}/r/{code}")
    back.wait_for_selector("#table:not([hidden])")
    host.wait_for_selector("#table-seats li[data-seat='1'] .badge:has-text('online')", timeout=20_000)
    assert view(back)["hand"] is not None


def test_keyboard_alone_plays_a_tile_on_a_chosen_end(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    create_room(host, daphne_url, "draw", "Ann", players=2)
    add_ai(host, 1)
    start(host)

    def two_ends_choice() -> bool:
        v = view(host)
        if v["match_over"]:
            return True
        plays = [a for a in v["legal"] if a["type"] == "play"]
        tiles = {tuple(a["tile"]) for a in plays}
        if any(sum(1 for a in plays if tuple(a["tile"]) == t) > 1 for t in tiles) and my_turn(host):
            return True
        take_turn(host)
        return False

    play_until([host], two_ends_choice, limit_s=60)
    if over(host):
        pytest.skip("no tile with two ends came up in this match")
    before = version(host)
    hand = view(host)["hand_number"]
    legal = host.locator("#hand .tile-button.legal[aria-label*='playable on']").first
    tile = [int(n) for n in (legal.get_attribute("data-tile") or "").split("-")]
    legal.focus()
    host.keyboard.press("Enter")
    assert host.evaluate("() => document.activeElement.dataset.end") in ("left", "right")
    host.keyboard.press("Enter")
    host.wait_for_function("v => window.dominoes.version > v", arg=before)
    after = view(host)
    log = after["log"] if after["hand_number"] == hand else after["last_hand"]["log"]
    played = [e for e in log if e["type"] == "play" and e["seat"] == 0]
    assert played[-1]["tile"] == tile


def test_chicken_foot_hand_with_arms_and_feet(daphne_url: str, context_factory: MakePage) -> None:
    host = context_factory()
    create_room(host, daphne_url, "chicken_foot", "Ann", players=3, options={"hand_size": "7"})
    add_ai(host, 1)
    add_ai(host, 2)
    start(host)
    seen = {"toe": False}

    def done() -> bool:
        if not seen["toe"] and host.locator(".train.toe").count():
            seen["toe"] = True
            screenshot(host, "table-chicken-foot-toes")
        return view(host)["last_hand"] is not None or over(host)

    play_until([host], done, limit_s=90)
    assert host.locator(".hub svg").count() == 1
    host.wait_for_selector(".fair.ok")
    assert host.js_errors == []  # type: ignore[attr-defined]
    screenshot(host, "table-chicken-foot")


#: Five-Up's board against the view it was drawn from: the count, every open end a button with
#: its number and what it counts, every tile on the table in a row, the branches named by their
#: double, each side's pegs out of the target. A list of what disagrees.
FIVEUP_BOARD = """() => {
  const v = window.dominoes.view;
  const board = document.querySelector('#board');
  const bad = [];
  const count = board.querySelector('.fu-count').textContent;
  const want = v.count > 0 && v.count % 5 === 0 ? `Count ${v.count}: scores ${v.count / 5}` : `Count ${v.count}`;
  if (count !== want) bad.push(`count ${count} != ${want}`);
  for (const e of v.ends) {
    const buttons = board.querySelectorAll(`.fu-end[data-end="${e.id}"]`);
    if (buttons.length !== 1) { bad.push(`end ${e.id}: ${buttons.length} buttons`); continue; }
    const b = buttons[0];
    const r = b.getBoundingClientRect();
    if (b.hidden || r.width < 44 || r.height < 44) bad.push(`end ${e.id} ${r.width}x${r.height}`);
    if (b.querySelector('.fu-num').textContent !== String(e.value)) bad.push(`end ${e.id} shows ${b.textContent}`);
    if (b.querySelector('.fu-counts').textContent !== `counts ${e.counts}`) bad.push(`end ${e.id} counts ${b.textContent}`);
  }
  const shown = board.querySelectorAll('.fu-row svg.tile').length;
  if (shown !== v.layout.length) bad.push(`${shown} tiles drawn, ${v.layout.length} on the table`);
  for (const row of board.querySelectorAll('.fu-row:not(.fu-main) .fu-name')) {
    if (!/^From \\d\\|\\d, (up|down)$/.test(row.textContent)) bad.push(`row named ${row.textContent}`);
  }
  const pegs = [...board.querySelectorAll('.fu-peg .fu-score')].map((p) => p.textContent);
  const wanted = v.scores.map((s) => `${s} / ${v.target}${s} of ${v.target} points`);
  if (JSON.stringify(pegs) !== JSON.stringify(wanted)) bad.push(`pegs ${pegs} != ${wanted}`);
  if (document.documentElement.scrollWidth > innerWidth) bad.push('the page scrolls sideways');
  return bad;
}"""


def test_fiveup_hand_by_tapping_on_a_phone(daphne_url: str, browser: Browser) -> None:
    """A hand of Five-Up against two AIs, tapped as on a phone: a tile, then its highlighted end
    on the board (or the button under the board); the board agrees with the view all along."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    host = context.new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    create_room(host, daphne_url, "fiveup", "Ann", players=3)
    add_ai(host, 1, "easy")
    add_ai(host, 2, "easy")
    start(host)
    host.wait_for_function("() => !!window.dominoes.view")
    chose = False
    deadline = time.monotonic() + 180
    while not over(host) and not (chose and view(host)["last_hand"] is not None):
        assert time.monotonic() < deadline, "the hand did not end"
        if not my_turn(host):
            wait_for_change(host, version(host))
            continue
        assert host.evaluate(FIVEUP_BOARD) == []
        v = view(host)
        plays = [a for a in v["legal"] if a["type"] == "play"]
        ends_of: dict[str, list[str]] = {}
        for a in plays:
            ends_of.setdefault(f"{min(a['tile'])}-{max(a['tile'])}", []).append(a.get("end", ""))
        many = next((k for k, e in ends_of.items() if len(e) > 1), None)
        if chose or many is None:
            take_turn(host, tap=True)
            continue
        # A tile with several places: tapped, it is chosen and its ends light up on the board.
        before = version(host)
        host.locator(f"#hand .tile-button[data-tile='{many}']").tap()
        expect(host.locator("#hand .tile-button.chosen")).to_have_count(1)
        targets = host.locator("#board .fu-end.end-target")
        expect(targets).to_have_count(len(ends_of[many]))
        assert sorted(targets.evaluate_all("bs => bs.map(b => b.dataset.end)")) == sorted(ends_of[many])
        assert host.locator("#end-choice button[data-end]").count() == len(ends_of[many])
        target = targets.first
        end = target.get_attribute("data-end")
        assert target.is_enabled() and end
        target.tap()
        host.wait_for_function("v => window.dominoes.version > v", arg=before)
        v = view(host)
        log = v["log"] if v["log"] else v["last_hand"]["log"]
        mine = [e for e in log if e["type"] == "play" and e["seat"] == 0]
        assert mine[-1]["end"] == end and "claim" not in mine[-1]
        chose = True
    last = view(host)["last_hand"]
    assert last is not None
    summary = host.locator("#summary").inner_text()
    assert re.search(r"went out|Blocked|reached", summary), summary
    host.wait_for_selector(".fair.ok")
    assert host.locator("#scorepad tbody tr").count() == 3
    screenshot(host, "table-fiveup-390", full_page=False)
    assert errors == []
    context.close()


def test_fiveup_claim_toggle_and_muggins(daphne_url: str, browser: Browser) -> None:
    """Muggins on, two people at a table of two: Ann presses "Claim my points" before each play
    (it goes out with the play, then springs back); Bob never claims, so when a play of his
    scores, Ann gets "Muggins! Take N points" and takes them."""
    pages = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        context.set_default_timeout(20_000)
        pages.append(context.new_page())
    ann, bob = pages
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda e: errors.append(str(e)))
    code = create_room(ann, daphne_url, "fiveup", "Ann", players=2, options={"muggins": "true"})
    bob.goto(f"{daphne_url}/r/{code}")
    bob.fill("#join-name", "Bob")
    bob.click("#join button[type=submit]")
    ann.wait_for_selector("#seats li[data-seat='1'] .who:has-text('Bob')")
    start(ann)
    bob.wait_for_selector("#table:not([hidden])")
    claimed = called = False
    deadline = time.monotonic() + 180
    while not (claimed and called):
        assert time.monotonic() < deadline, f"claimed {claimed}, called muggins {called}"
        assert not over(ann), "the match ended first"
        if my_turn(bob):
            # Bob plays, never claiming: no toggle pressed, no claim sent.
            if bob.locator(".fu-claim").count():
                expect(bob.locator(".fu-claim")).to_have_attribute("aria-pressed", "false")
            take_turn(bob, tap=True)
            continue
        if not my_turn(ann):
            wait_for_change(ann, version(ann), [bob])
            continue
        v = view(ann)
        muggins = ann.locator("#actions button[data-action=muggins]")
        if v["unclaimed"] and not called:
            points = v["unclaimed"]["points"]
            expect(muggins).to_have_text(f"Muggins! Take {points} point{'s' if points != 1 else ''}")
            assert "Muggins!" in ann.locator("#status").inner_text()
            expect(ann.locator("#board .fu-unclaimed")).to_have_text(
                f"Bob left {points} point{'s' if points != 1 else ''} unclaimed.")
            box = muggins.bounding_box()
            assert box is not None and box["height"] >= 44
            before, score = version(ann), v["scores"][0]
            muggins.tap()
            ann.wait_for_function("v => window.dominoes.version > v", arg=before)
            after = view(ann)
            assert after["scores"][0] == score + points or after["match_over"]
            assert any(e["type"] == "muggins" and e["seat"] == 0 and e["points"] == points for e in after["log"])
            expect(ann.locator("#last-move")).to_contain_text(f"You called muggins: {points} point")
            bob.wait_for_function("v => window.dominoes.version >= v", arg=version(ann))
            expect(bob.locator("#last-move")).to_contain_text(f"Ann called muggins: {points} point")
            expect(muggins).to_have_count(0)
            called = True
            continue
        plays = [a for a in v["legal"] if a["type"] == "play"]
        if not plays:
            take_turn(ann, tap=True)
            continue
        # The toggle sits under the hand, off by default (forgetting is the point of the rule).
        toggle = ann.locator("#actions .fu-claim")
        expect(toggle).to_have_text("Claim my points")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        box = toggle.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        before = version(ann)
        played = len([e for e in v["log"] if e["type"] == "play" and e["seat"] == 0])
        take_turn(ann, tap=True)
        after = view(ann)
        log = after["log"] if after["hand_number"] == v["hand_number"] else after["last_hand"]["log"]
        mine = [e for e in log if e["type"] == "play" and e["seat"] == 0]
        assert len(mine) == played + 1 and mine[-1].get("claim") is True, mine[-1]
        assert version(ann) > before
        # It sprang back: the next play is not claimed unless pressed again.
        assert ann.evaluate("() => window.dominoes.claimSeat ?? null") is None
        if ann.locator("#actions .fu-claim").count():
            expect(ann.locator("#actions .fu-claim")).to_have_attribute("aria-pressed", "false")
        claimed = True
    assert errors == []
    for page in pages:
        page.context.close()
