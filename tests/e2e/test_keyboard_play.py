"""Whole hands played with the keyboard alone, read only through the accessibility tree.

A player who uses a screen reader and no pointer: the test finds things by role and
accessible name (the hand list, the tile buttons, the end choice group, the bid and trump
groups, the draw/pass buttons) and follows the game through the polite live region's
announcements; it presses keys, never clicks, and never selects into the board by CSS.
Each game is played once in English and once in Spanish (the browser's Accept-Language),
with the Spanish words taken from the repository's catalogs. docs/frontend.md, "Playing by
keyboard and screen reader".
"""

from __future__ import annotations

import functools
import gettext as pygettext
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TURN_LIMIT_S = 240.0


class Words:
    """The page's words in one language, from the same catalog the browser loads."""

    def __init__(self, language: str) -> None:
        self.language = language
        if language == "en":
            self.catalog: pygettext.NullTranslations = pygettext.NullTranslations()
        else:
            folder = "pt_BR" if language == "pt-br" else language
            # The browser code's words first, then the pages' (the header, the menus).
            self.catalog = pygettext.translation("djangojs", localedir=ROOT / "locale", languages=[folder])
            self.catalog.add_fallback(
                pygettext.translation("django", localedir=ROOT / "locale", languages=[folder]))

    def __call__(self, message: str) -> str:
        return self.catalog.gettext(message)

    def p(self, context: str, message: str) -> str:
        return self.catalog.pgettext(context, message)

    def pattern(self, message: str) -> re.Pattern[str]:
        """A translated message with `%(x)s` placeholders as a pattern matching any value."""
        parts = re.split(r"%\(\w+\)s", self(message))
        return re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$")


@pytest.fixture(params=["en", "es"])
def player(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[Page, Words]]:
    locale = {"en": "en-US", "es": "es-ES"}[request.param]
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                                  has_touch=False)
    page = context.new_page()
    yield page, Words(request.param)
    context.close()


def open_room(page: Page, base: str, game: str, players: int, options: dict[str, Any]) -> str:
    """Create the room through the API (the host is seat 0), fill the other seats with AIs,
    start, and open the table in the browser holding the host's token."""
    created = page.request.post(f"{base}/api/rooms/", data={
        "game": game, "players": players, "options": options, "name": "Ann"})
    assert created.status == 201, created.text()
    room = created.json()
    auth = {"Authorization": f"Bearer {room['token']}"}
    for seat in range(1, players):
        added = page.request.post(f"{base}/api/rooms/{room['code']}/seats/",
                                  data={"ai": "medium", "seat": seat}, headers=auth)
        assert added.status == 201, added.text()
    key, token = json.dumps(f"dominoes.room.{room['code']}"), json.dumps(room["token"])
    page.add_init_script(f"localStorage.setItem({key}, JSON.stringify({{token: {token}, seat: 0, host: true}}))")
    started = page.request.post(f"{base}/api/rooms/{room['code']}/start/", headers=auth)
    assert started.status == 201, started.text()
    page.goto(f"{base}/r/{room['code']}")
    return str(room["code"])


def announcements(page: Page, words: Words) -> Locator:
    return page.get_by_role("log", name=words("Game announcements"))


def said(page: Page, words: Words) -> list[str]:
    return [t.strip() for t in announcements(page, words).locator("> *").all_inner_texts()]


def focused(locator: Locator) -> bool:
    return bool(locator.evaluate("node => node === document.activeElement"))


def press_until_focused(page: Page, target: Locator, keys: list[str], limit: int = 40) -> None:
    """Press `keys[0]` once (e.g. Home), then `keys[1]` until `target` has the focus."""
    page.keyboard.press(keys[0])
    for _ in range(limit):
        if focused(target):
            return
        page.keyboard.press(keys[1])
    raise AssertionError(f"could not reach {target} with {keys}")


def wait_until(check: Callable[[], bool], what: str, limit_s: float = TURN_LIMIT_S) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class KeyboardPlayer:
    """Plays one seat with keys only, reading the accessibility tree."""

    def __init__(self, page: Page, words: Words) -> None:
        self.page, self.w = page, words
        self.turn = words("Your turn.")
        self.hand_over = words("The hand is over.")
        self.moves = 0
        #: Every announcement heard during the hand (the log keeps only its last lines).
        self.heard: list[str] = []

    def listen(self) -> list[str]:
        lines = said(self.page, self.w)
        for line in lines:
            if line not in self.heard:
                self.heard.append(line)
        return lines

    def group(self, name: str) -> Locator:
        return self.page.get_by_role("group", name=self.w(name))

    def hand(self) -> Locator:
        return self.page.get_by_role("list", name=self.w("Your hand")).get_by_role("button")

    def my_turn(self) -> bool:
        log = self.listen()
        return bool(log) and log[-1].endswith(self.turn) and self.something_to_do()

    def something_to_do(self) -> bool:
        """On this seat's turn the focus goes to what it can do: a tile, a bid, a trump, or
        the draw / pass / end button."""
        return bool(self.page.evaluate(
            "() => document.activeElement && document.activeElement.tagName === 'BUTTON'"))

    def moved_on(self, seen: list[str]) -> bool:
        """Something was announced since `seen`, or the hand is over."""
        return self.listen() != seen or self.done()

    def done(self) -> bool:
        return any(self.hand_over in line for line in self.listen())

    def play_hand(self) -> None:
        deadline = time.monotonic() + TURN_LIMIT_S * 3
        while not self.done():
            assert time.monotonic() < deadline, "the hand did not end"
            wait_until(lambda: self.done() or self.my_turn(), "my turn or the end of the hand")
            if self.done():
                break
            before = said(self.page, self.w)
            self.take_turn(before)
            self.moves += 1
            # The move is announced (or the hand ends) before the next decision. The log keeps
            # its last 30 lines, so a new one shows as a changed list, not a longer one.
            wait_until(functools.partial(self.moved_on, before), "the move's announcement", 60)

    def choose_in_group(self, group: Locator, pick: Callable[[list[str]], int]) -> None:
        buttons = group.get_by_role("button").all()
        names = [b.get_attribute("aria-label") or b.inner_text() for b in buttons]
        enabled = [i for i, b in enumerate(buttons) if b.is_enabled() and b.get_attribute("aria-disabled") != "true"]
        assert enabled, f"no choice in {names}"
        index = pick([names[i] for i in enabled])
        target = buttons[enabled[index]]
        assert any(focused(b) for b in buttons), "focus is not in the group on my turn"
        press_until_focused(self.page, target, ["Home", "ArrowRight"])
        self.page.keyboard.press("Enter")

    def take_turn(self, before: list[str]) -> None:
        w = self.w
        bid = self.group("Your bid")
        if bid.count():
            # Take the highest bid offered, so that this seat most likely names trumps.
            self.choose_in_group(bid, lambda names: len(names) - 1)
            return
        trumps = self.group("Name trumps")
        if trumps.count():
            self.choose_in_group(trumps, lambda names: 0)
            return
        tiles = self.hand().all()
        playable = [t for t in tiles if t.get_attribute("aria-disabled") != "true"]
        if playable:
            assert any(focused(t) for t in tiles), "focus is not in the hand on my turn"
            target = playable[-1]
            press_until_focused(self.page, target, ["Home", "ArrowRight"])
            self.page.keyboard.press("Enter")
            choice = self.page.get_by_role("group", name=w.pattern("Where to play %(tile)s"))
            # Either the tile had one place and its play is announced, or the ends are offered.
            wait_until(lambda: choice.count() > 0 or self.moved_on(before),
                       "the play or the choice of ends", 60)
            if not choice.count():
                return
            ends = choice.get_by_role("button").all()
            assert any(focused(e) for e in ends), "focus did not move to the end choice"
            self.page.keyboard.press("ArrowRight")
            self.page.keyboard.press("Enter")
            return
        # Nothing plays: the focus is on the draw, pass or end-turn button; its key does it.
        action = self.page.evaluate("() => document.activeElement.getAttribute('aria-label') "
                                    "|| document.activeElement.textContent")
        keys = {w("Draw a tile"): "d", w("End my turn"): "e"}
        key = next((k for name, k in keys.items() if action.startswith(name)), None)
        if key is None:
            assert action.startswith(w("Pass")), f"my turn, and the focus is on {action!r}"
            key = "p"
        self.page.keyboard.press(key)


def spoken_tile(words: Words, name: str) -> bool:
    """A tile button's name opens with its numbers in words ("six four", "double five")."""
    numbers = [words.p("tile half", n) for n in ("blank", "one", "two", "three", "four", "five", "six", "seven",
                                   "eight", "nine", "ten", "eleven", "twelve")]
    head = name.split(",", maxsplit=1)[0].strip()
    pair = "|".join(re.escape(n) for n in numbers)
    double = words.pattern("double %(number)s").pattern.strip("^$").replace("(.+?)", f"(?:{pair})")
    plain = words.pattern("%(high)s %(low)s").pattern.strip("^$").replace("(.+?)", f"(?:{pair})")
    return re.fullmatch(f"{double}|{plain}", head) is not None


def check_table_reads(page: Page, words: Words) -> None:
    hand = page.get_by_role("list", name=words("Your hand")).get_by_role("button").all()
    assert hand, "no tile in the hand list"
    for tile in hand:
        name = tile.get_attribute("aria-label") or tile.inner_text()
        assert spoken_tile(words, name), f"a tile named {name!r}"
    board = page.get_by_role("list", name=words("Board"))
    assert board.count() == 1, "the board is not a list"


def read_the_table(page: Page, words: Words) -> None:
    """Wait for the dealt hand, then check the hand and the board read as lists of names."""
    announcements(page, words).wait_for(state="attached")
    wait_until(lambda: page.get_by_role("list", name=words("Your hand")).get_by_role("button").count() > 0,
               "the hand")
    check_table_reads(page, words)


def test_partnership_draw_hand_by_keyboard(daphne_url: str, player: tuple[Page, Words]) -> None:
    page, words = player
    open_room(page, daphne_url, "draw", 4, {"partnership": True, "target": 1})
    read_the_table(page, words)
    seat = KeyboardPlayer(page, words)
    seat.play_hand()
    assert len(seat.heard) > seat.moves, seat.heard  # the others' moves were announced too
    assert seat.moves > 0


def test_texas42_hand_by_keyboard(daphne_url: str, player: tuple[Page, Words]) -> None:
    page, words = player
    open_room(page, daphne_url, "texas42", 4, {"target_marks": 1, "all_pass": "force"})
    announcements(page, words).wait_for(state="attached")
    seat = KeyboardPlayer(page, words)
    seat.play_hand()
    log = " ".join(seat.heard)
    assert re.search(words.pattern("%(name)s named %(trumps)s as trumps.").pattern.strip("^$"), log), log
    assert seat.moves >= 2  # a bid, and trumps or a tile (a marks bid can be set within a trick)


def test_mexican_train_round_by_keyboard(daphne_url: str, player: tuple[Page, Words]) -> None:
    page, words = player
    open_room(page, daphne_url, "mexican_train", 3, {"set": 6, "rounds": 1, "hand_size": 5})
    read_the_table(page, words)
    seat = KeyboardPlayer(page, words)
    seat.play_hand()
    assert seat.moves > 0


def test_fiveup_hand_by_keyboard(daphne_url: str, player: tuple[Page, Words]) -> None:
    page, words = player
    open_room(page, daphne_url, "fiveup", 3, {"target": 200})
    read_the_table(page, words)
    seat = KeyboardPlayer(page, words)
    seat.play_hand()
    assert seat.moves > 0


def test_help_dialog_lists_the_keys(daphne_url: str, player: tuple[Page, Words]) -> None:
    page, words = player
    open_room(page, daphne_url, "draw", 2, {"target": 1})
    announcements(page, words).wait_for(state="attached")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name=words("Keyboard keys"))
    dialog.wait_for()
    text = dialog.inner_text()
    for key in ("d", "p", "e", "c", "?"):
        assert re.search(rf"(^|\W){re.escape(key)}(\W|$)", text, re.I), (key, text)
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
