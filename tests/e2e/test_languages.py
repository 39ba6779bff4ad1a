"""Languages in a real browser: the browser's language, the switcher kept in the player's local
preferences, two players at one table each in their own language (chat never translated),
and axe-core on every page in every language (docs/translating.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.test_keyboard_play import Words

pytestmark = pytest.mark.e2e

LOCALES = {"en": "en-US", "es": "es-ES", "pt-br": "pt-BR"}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    made = {lang: browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
            for lang, locale in LOCALES.items()}
    yield made
    for context in made.values():
        context.close()


def html_lang(page: Page) -> str:
    return str(page.evaluate("document.documentElement.lang"))


def serious_axe_findings(page: Page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def room_for(page: Page, base: str, game: str, players: int, options: dict[str, Any],
             name: str = "Ann") -> dict[str, Any]:
    created = page.request.post(f"{base}/api/rooms/", data={
        "game": game, "players": players, "options": options, "name": name})
    assert created.status == 201, created.text()
    return dict(created.json())


def hold_seat(context: BrowserContext, code: str, token: str, seat: int, host: bool) -> None:
    """The browser keeps the seat's token as the page does after joining."""
    key, value = json.dumps(f"dominoes.room.{code}"), json.dumps({"token": token, "seat": seat, "host": host})
    context.add_init_script(f"localStorage.setItem({key}, {json.dumps(value)})")


def test_the_page_follows_the_browsers_language(daphne_url: str, contexts: dict[str, BrowserContext]) -> None:
    for lang, context in contexts.items():
        page = context.new_page()
        page.goto(f"{daphne_url}/")
        assert html_lang(page) == lang
        switcher = page.get_by_role("combobox", name=Words(lang)("Language"))
        assert switcher.input_value() == lang
        page.close()


def test_the_switcher_keeps_the_choice_in_local_preferences(
    daphne_url: str, contexts: dict[str, BrowserContext]
) -> None:
    context = contexts["en"]
    page = context.new_page()
    page.goto(f"{daphne_url}/")
    assert html_lang(page) == "en"
    with page.expect_navigation():
        page.get_by_role("combobox", name="Language").select_option("pt-br")
    page.wait_for_function("document.documentElement.lang === 'pt-br'")
    kept = page.evaluate("JSON.parse(localStorage.getItem('dominoes.profile')).prefs.language")
    assert kept == "pt-br"
    # The cookie is lost (cleared, another browser profile): the local preference brings it back.
    context.clear_cookies()
    page.goto(f"{daphne_url}/sheets/")
    page.wait_for_function("document.documentElement.lang === 'pt-br'")
    assert page.get_by_role("combobox", name=Words("pt-br")("Language")).input_value() == "pt-br"


def test_two_players_at_one_table_each_read_their_own_language(
    daphne_url: str, contexts: dict[str, BrowserContext]
) -> None:
    spanish, brazilian = contexts["es"].new_page(), contexts["pt-br"].new_page()
    room = room_for(spanish, daphne_url, "draw", 2, {"target": 100})
    code = room["code"]
    joined = brazilian.request.post(f"{daphne_url}/api/rooms/{code}/seats/", data={"name": "Bia"})
    assert joined.status == 201, joined.text()
    hold_seat(contexts["es"], code, room["token"], 0, True)
    hold_seat(contexts["pt-br"], code, joined.json()["token"], joined.json()["seat"], False)
    started = spanish.request.post(f"{daphne_url}/api/rooms/{code}/start/",
                                   headers={"Authorization": f"Bearer {room['token']}"})
    assert started.status == 201, started.text()
    for page in (spanish, brazilian):
        page.goto(f"{daphne_url}/r/{code}")
    es, pt = Words("es"), Words("pt-br")
    assert es("Your hand") != pt("Your hand")
    spanish.get_by_role("list", name=es("Your hand")).wait_for()
    brazilian.get_by_role("list", name=pt("Your hand")).wait_for()
    assert spanish.get_by_role("list", name=pt("Your hand")).count() == 0
    assert html_lang(spanish) == "es" and html_lang(brazilian) == "pt-br"
    # Chat: what a player types reaches the other table word for word.
    spanish.get_by_role("button", name=es("Chat")).first.click()
    spanish.get_by_role("textbox", name=es("Message")).fill("¡Hola, Bia! Juguemos.")
    spanish.get_by_role("textbox", name=es("Message")).press("Enter")
    # (On a phone the chat panel stays closed until opened: the message is there, not shown.)
    brazilian.get_by_role("list", name=pt("Messages"), include_hidden=True).get_by_text(
        "¡Hola, Bia! Juguemos.").wait_for(state="attached")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_no_page_has_a_serious_axe_finding_in_any_language(
    daphne_url: str, contexts: dict[str, BrowserContext], lang: str
) -> None:
    context = contexts[lang]
    page = context.new_page()
    room = room_for(page, daphne_url, "mexican_train", 2, {"set": 6, "hand_size": 5, "rounds": 1})
    code = room["code"]
    auth = {"Authorization": f"Bearer {room['token']}"}
    hold_seat(context, code, room["token"], 0, True)
    paths = ["/", "/sheets/", "/sheets/mexican_train/", "/offline/", "/r/nosuchroom2345", f"/r/{code}",
             f"/r/{code}/tv"]
    found: dict[str, list[str]] = {}
    for path in paths:
        page.goto(f"{daphne_url}{path}")
        page.wait_for_load_state("networkidle")
        assert html_lang(page) == lang, path
        found[path] = serious_axe_findings(page)
    added = page.request.post(f"{daphne_url}/api/rooms/{code}/seats/", data={"ai": "easy", "seat": 1},
                              headers=auth)
    assert added.status == 201, added.text()
    assert page.request.post(f"{daphne_url}/api/rooms/{code}/start/", headers=auth).status == 201
    page.goto(f"{daphne_url}/r/{code}")
    page.get_by_role("list", name=Words(lang)("Your hand")).wait_for()
    found["the table"] = serious_axe_findings(page)
    page.goto(f"{daphne_url}/r/{code}/replay/0")
    page.wait_for_load_state("networkidle")
    found["the replay"] = serious_axe_findings(page)
    assert {path: f for path, f in found.items() if f} == {}
