"""Which language a page is served in: the switcher's cookie, else the browser's
Accept-Language, else English; every page says it in `<html lang>`, and the browser's
catalog comes in the same language (docs/translating.md)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from frontend.rules_data import SHEETS
from tests.lobby.helpers import ACCEPT_LANGUAGE_CASES, room_setup

#: One word of the site header in each language: "New game".
NEW_GAME = {"en": "New game", "es": "Nueva partida", "pt-br": "Novo jogo"}


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, html[:200]
    return found.group(1)


@pytest.mark.parametrize(("header", "expected"), ACCEPT_LANGUAGE_CASES)
def test_the_language_follows_the_browser(header: str, expected: str) -> None:
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE=header).content.decode()
    assert lang_of(html) == expected
    assert NEW_GAME[expected] in html


def test_the_switchers_cookie_wins_over_the_header() -> None:
    client = Client()
    client.cookies["django_language"] = "pt-br"
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES").content.decode()
    assert lang_of(html) == "pt-br" and NEW_GAME["pt-br"] in html
    client.cookies["django_language"] = "xx"  # a language the site has not: the header decides
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES").content.decode()) == "es"


def test_pages_vary_on_the_language_inputs() -> None:
    answer = Client().get("/", HTTP_ACCEPT_LANGUAGE="es")
    vary = {v.strip().lower() for v in answer.headers["Vary"].split(",")}
    assert {"accept-language", "cookie"} <= vary


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "es", "pt-br"])
def test_every_page_declares_its_language(language: str) -> None:
    code, _ = room_setup("draw", 2, {}, humans=1)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    paths = ["/", f"/r/{code}", f"/r/{code}/tv", f"/r/{code}/replay/0", "/r/nosuchroom2345",
             "/no/such/page", "/sheets/", "/offline/", *(f"/sheets/{kind}/" for kind in SHEETS)]
    for path in paths:
        answer = client.get(path)
        assert answer.status_code in {200, 404}, path
        html = answer.content.decode()
        assert lang_of(html) == language, path
        assert f"/jsi18n/?lang={language}" in html, path


@pytest.mark.parametrize("language", ["es", "pt-br"])
def test_the_browser_catalog_comes_in_the_pages_language(language: str) -> None:
    """The JavaScript catalog: the table's words (djangojs) in the page's language."""
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/jsi18n/?lang={language}")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/javascript")
    body = answer.content.decode()
    assert '"Draw a tile"' in body and "django.gettext" in body
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/jsi18n/?lang=en").content.decode()
    assert '"Draw a tile"' not in english  # English needs no catalog: the messages are the words
    # A second request with the catalog's date is answered 304, with no body.
    again = Client(HTTP_ACCEPT_LANGUAGE=language).get(
        f"/jsi18n/?lang={language}", HTTP_IF_MODIFIED_SINCE=answer.headers["Last-Modified"])
    assert again.status_code == 304


def test_a_page_without_scripts_switches_language_through_the_form() -> None:
    """The switcher is a form Django's `set_language` answers: the cookie, then back."""
    client = Client()
    answer = client.post("/i18n/setlang/", {"language": "es", "next": "/sheets/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 302 and answer.headers["Location"] == "/sheets/"
    assert client.cookies["django_language"].value == "es"
    assert lang_of(client.get("/sheets/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "es"
    html = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in html and 'name="language"' in html
