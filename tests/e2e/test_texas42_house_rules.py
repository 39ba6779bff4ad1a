"""The 42 table says the house rules in words (docs/rules-texas42.md, "House rules"): a plunge
in the bids and the bid line, whose partner is asked to name trumps, and sevens once named."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.engine.test_texas42_support import RULES, SIXES_DEAL, run, table

pytestmark = pytest.mark.e2e

#: Draws the table module's board and controls for `view` on a phone-sized page.
DRAW = """async ([view, seat]) => {
    const m = await import('/frontend/js/table/texas42.js');
    const seats = ['Ann', 'Bob', 'Cy', 'Di'].map((name) => ({ name }));
    const ctx = { view, seat, room: { seats, revision: 1 }, waiting: false, act: () => {} };
    const board = document.createElement('div');
    const box = document.createElement('div');
    document.body.replaceChildren(board, box);
    m.board(ctx, board, { last: [] });
    m.controls(ctx, box);
    return { board: board.innerText, controls: box.innerText, why: m.statusWhy(ctx) };
}"""


def plunged() -> Any:
    state = RULES.apply(run(table(SIXES_DEAL, {"plunge": True, "sevens": True}), "pass"),
                        {"type": "bid", "value": 168, "contract": "plunge"})
    return run(state, "pass, pass")


def test_a_plunge_is_said_in_words_and_the_partner_is_asked_to_name_trumps(page: Page, static_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{static_url}/frontend/")
    state = plunged()
    shown = page.evaluate(DRAW, [RULES.view(state, 0), 0])
    assert "Cy, Plunge: 4 marks, partner names trumps" in shown["board"]
    assert "You name trumps and lead" in shown["board"]
    assert "must take every trick" in shown["board"]
    assert shown["why"] == "Your partner bid a plunge: name trumps, then lead."
    bidding = page.evaluate(DRAW, [RULES.view(run(table(SIXES_DEAL, {"plunge": True}), "pass"), 2), 2])
    assert "Plunge: 4 marks, partner names trumps" in bidding["controls"]


def test_sevens_is_said_in_words(page: Page, static_url: str) -> None:
    page.goto(f"{static_url}/frontend/")
    state = run(table(SIXES_DEAL, {"sevens": True}), "bid 42, pass, pass, pass, trump sevens")
    shown = page.evaluate(DRAW, [RULES.view(state, 1), 1])
    assert "Trumps: sevens (closest to seven pips wins)" in shown["board"]
    assert "closest takes the trick" in shown["board"]
    assert shown["why"].startswith("Sevens: play your tile closest to seven pips")


def test_the_room_form_offers_nellos_choices_only_with_nello_on(page: Page, daphne_url: str) -> None:
    page.goto(f"{daphne_url}/")
    page.check("input[name=game][value=texas42]")
    assert page.locator("#opt-forced_bid").is_visible() and page.locator("#opt-all_pass").count() == 0
    assert not page.locator("#opt-nello_doubles").is_visible()
    page.select_option("#opt-nello", "true")
    assert page.locator("#opt-nello_doubles").is_visible() and page.locator("#opt-nello_min_marks").is_visible()
    page.select_option("#opt-nello_doubles", '"own_suit"')
    page.select_option("#opt-nello", "false")
    assert not page.locator("#opt-nello_doubles").is_visible()
