"""The pages without a match: the home form from the rules data, the sheets, the room link."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page

from frontend.rules_data import GAMES, SHEETS
from lobby.services import room_create
from tests.e2e.conftest import screenshot


def test_mexican_train_sheet_has_thirteen_rounds_from_12_12_down_to_0_0(client: Client) -> None:
    html = client.get("/sheets/mexican_train/").content.decode()
    rounds = re.findall(r'<th scope="row">(\d+-\d+)</th>', html)
    assert rounds == [f"{n}-{n}" for n in range(12, -1, -1)]
    assert html.count('class="name-cell"') == 8
    assert "LOWEST" in html


@pytest.mark.parametrize(("kind", "targets"), [("line", ["100", "61"]), ("allfives", ["250", "200"])])
def test_blank_sheets_print_the_targets_of_the_rules_data(client: Client, kind: str, targets: list[str]) -> None:
    response = client.get(f"/sheets/{kind}/")
    assert response.status_code == 200
    html = response.content.decode()
    for target in targets:
        assert target in html
    assert len(re.findall(r'<th scope="row">\d+</th>', html)) == len(SHEETS[kind]["rounds"])


def test_unknown_sheet_is_a_404(client: Client) -> None:
    assert client.get("/sheets/nothing/").status_code == 404


@pytest.mark.django_db
def test_room_page_carries_the_link_and_its_qr_code_as_inline_svg(client: Client) -> None:
    room, _token = room_create("draw", 2, {}, "Ann")
    html = client.get(f"/r/{room.code}").content.decode()
    assert f"http://testserver/r/{room.code}" in html
    assert re.search(r"<svg[^>]*>.*QR code of the room link", html, re.S)


def test_home_lists_every_game_of_the_rules_data(client: Client) -> None:
    html = client.get("/").content.decode()
    for game in GAMES:
        assert f'value="{game["name"]}"' in html


@pytest.mark.e2e
def test_home_shows_each_contested_rule_with_its_sources_and_default(page: Page, daphne_url: str) -> None:
    page.goto(f"{daphne_url}/")
    for game in GAMES:
        page.check(f"input[name=game][value={game['name']}]")
        page.select_option("#players", str(max(game["players"]) if 4 not in game["players"] else 4))
        contested = [o for o in game["options"] if o.get("sources")]
        assert page.locator("#option-list details").count() == len(contested), game["name"]
        for opt in game["options"]:
            if opt["kind"] == "choice":
                chosen = page.locator(f"#opt-{opt['name']} option:checked").inner_text()
                assert chosen.endswith("(default)"), (game["name"], opt["name"])
    page.check("input[name=game][value=draw]")
    page.locator("#option-list details summary").first.click()
    assert "pagat, Draw" in page.locator("#option-list details").first.inner_text()


@pytest.mark.e2e
def test_score_sheet_prints_without_the_site_header(page: Page, daphne_url: str) -> None:
    page.goto(f"{daphne_url}/sheets/mexican_train/")
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()
    assert page.locator("table.score-sheet").is_visible()
    screenshot(page, "sheet-mexican-train-print")


@pytest.mark.e2e
@pytest.mark.parametrize("path", ["/r/zzzzzzzzzzzzzz", "/r/k7wq2", "/r/k7wq2mzr9xh4t%21"])
def test_a_wrong_room_link_says_the_room_was_not_found_and_leads_home(browser: Browser, daphne_url: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    answer = page.goto(f"{daphne_url}{path}")
    assert answer is not None and answer.status == 404
    assert "This room was not found" in page.locator("h1").inner_text()
    home = page.get_by_role("link", name=re.compile("home page"))
    box = home.bounding_box()
    assert box is not None and box["height"] >= 44
    screenshot(page, "room-not-found-390")
    home.click()
    page.wait_for_selector("#create")
    context.close()


@pytest.mark.e2e
def test_the_form_offers_only_the_sets_that_seat_the_chosen_player_count(page: Page, daphne_url: str) -> None:
    page.goto(f"{daphne_url}/")
    page.check("input[name=game][value=chicken_foot]")
    offered = {}
    for players in (2, 6, 8, 10):
        page.select_option("#players", str(players))
        offered[players] = [int(v) for v in page.locator("#set option").evaluate_all("os => os.map(o => o.value)")]
    game = next(g for g in GAMES if g["name"] == "chicken_foot")
    assert offered == {n: [s for s in game["sets"] if n in game["set_players"][s]] for n in offered}
    assert offered[10] == [15, 18] and offered[2] == [9]
    page.fill("#name", "Ann")
    page.click("#create-button")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("#seats li[data-seat='9']")
