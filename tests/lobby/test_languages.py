"""Each reader in their own language: a socket's language is its page's (the switcher's cookie,
else Accept-Language, else English), and the texts the server words for people (refusals,
hints, reviews, the options' words) are worded in the language of the socket or request that
reads them, not in the language of whoever made them first.

The catalogs' own translations are checked in tests/test_translations.py; here the server's
translation functions are replaced by one that tags each message with the language active
when it is worded, so the test sees which language each reader's text was worded in.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from config.asgi import application
from lobby import apis, errors, reviews, wording
from lobby.languages import accepted_languages, language_of_scope
from tests.lobby.helpers import ACCEPT_LANGUAGE_CASES, ORIGIN, Table, api, match_start_async, room_setup_async


def scope(*headers: tuple[str, str]) -> dict[str, Any]:
    return {"type": "websocket", "headers": [(k.encode(), v.encode("latin-1")) for k, v in headers]}


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        *ACCEPT_LANGUAGE_CASES,
        ("en;q=0.2, pt-BR;q=0.8", "pt-br"),
        ("es;q=0, pt", "pt-br"),  # q=0: not acceptable
        ("es;q=nonsense, pt;q=0.1", "pt-br"),  # a malformed range is left out
        ("*, es", "en"),
    ],
)
def test_a_sockets_language_is_the_best_of_its_accept_language(header: str, expected: str) -> None:
    assert language_of_scope(scope(("accept-language", header))) == expected


def test_the_switchers_cookie_wins_unless_it_names_no_language_of_the_site() -> None:
    both = scope(("cookie", "a=1; django_language=pt-br"), ("accept-language", "es-ES"))
    assert language_of_scope(both) == "pt-br"
    assert language_of_scope(scope(("cookie", "django_language=xx"), ("accept-language", "es"))) == "es"
    assert language_of_scope({"cookies": {"django_language": "es"}, "headers": []}) == "es"
    assert language_of_scope({"type": "websocket"}) == "en"


def test_accept_language_is_ranked_by_quality_then_order() -> None:
    assert accepted_languages("da, en-gb;q=0.8, en;q=0.7, fr") == ["da", "fr", "en-gb", "en"]
    assert accepted_languages("x" * 600) == []


def tagged(message: str) -> str:
    """The message as worded in the active language: tagged with it."""
    return f"[{translation.get_language()}] {message}"


def ntagged(singular: str, plural: str, n: int) -> str:
    return tagged(singular if n == 1 else plural)


@pytest.fixture
def tagging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's translations replaced by `tagged`, where refusals, titles, hints,
    reviews and options are worded."""
    for module in (errors, apis, wording):
        monkeypatch.setattr(module, "gettext", tagged)
    monkeypatch.setattr(wording, "ngettext", ntagged)


class Speaking(Table):
    """A socket whose page is in a language of its own (its handshake's headers)."""

    def __init__(self, code: str, token: str | None = None, *headers: tuple[bytes, bytes]) -> None:
        path = f"/ws/rooms/{code}/" + (f"?token={token}" if token else "")
        self.ws = WebsocketCommunicator(application, path, headers=[ORIGIN, *headers])
        self.frames: list[dict[str, Any]] = []
        self.seat: int | None = None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tagging")
async def test_two_sockets_of_a_room_read_refusals_and_hints_each_in_its_own_language() -> None:
    code, tokens = await room_setup_async("draw", 2, {"hints": True}, 2)
    seated = [Speaking(code, tokens[0], (b"cookie", b"django_language=es")),
              Speaking(code, tokens[1], (b"accept-language", b"pt-BR,pt;q=0.9"))]
    watcher = Speaking(code, None, (b"accept-language", b"es-MX"))
    for table in [*seated, watcher]:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    for table in [*seated, watcher]:
        await table.until("state")
    view = seated[0].latest_state()["view"]  # type: ignore[index]
    mover = next(t for t in seated if t.seat == view["to_move"])
    other = next(t for t in seated if t is not mover)
    mine, theirs = ("es", "pt-br") if mover is seated[0] else ("pt-br", "es")

    await other.send({"type": "hint", "id": "early"})
    refused = await other.until("error")
    assert refused["code"] == "not_your_turn"
    assert refused["message"] == f"[{theirs}] it is not your turn: a hint is for the seat to move"
    await watcher.send({"type": "action", "id": "w", "action": {"type": "pass"}})
    refused = await watcher.until("error")
    assert refused["message"] == "[es] spectators cannot act: join a seat with its token"

    await mover.send({"type": "hint", "id": "h1"})
    hint = await mover.until("hint", timeout=30)
    assert hint["why"].startswith(f"[{mine}] "), hint["why"]
    assert f"[{theirs}]" not in hint["why"]
    # The same seat opened in the other language: the hint kept is worded again for it.
    await mover.close()
    again = Speaking(code, tokens[seated.index(mover)], (b"accept-language", theirs.encode()))
    assert (await again.open())[0]
    await again.until("state")
    await again.send({"type": "hint", "id": "h2"})
    reworded = await again.until("hint", timeout=30)
    assert reworded["action"] == hint["action"]
    assert reworded["why"] == hint["why"].replace(f"[{mine}]", f"[{theirs}]")
    for table in (again, other, watcher):
        await table.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tagging")
def test_api_refusals_and_the_games_options_are_in_the_requests_language() -> None:
    made = api(Client(), "post", "/api/rooms/", {"game": "draw", "players": 2, "options": {}, "name": "Ann"})
    code = made.json()["code"]
    api(Client(), "post", f"/api/rooms/{code}/seats/", {"name": "Bob"})
    full = Client(HTTP_ACCEPT_LANGUAGE="pt-BR").post(
        f"/api/rooms/{code}/seats/", '{"name": "Cy"}', content_type="application/json")
    assert full.status_code == 409
    assert full.json()["detail"] == "[pt-br] the room is full: open the link without joining to watch"
    assert full.json()["title"] == "[pt-br] Conflict" and full.json()["code"] == "conflict"
    games = Client(HTTP_ACCEPT_LANGUAGE="es").get("/api/games/").json()
    draw = next(g for g in games if g["name"] == "draw")
    scoring = next(o for o in draw["options"] if o["name"] == "scoring")
    assert scoring["label"] == "[es] Blocked hand: does the winner subtract their own pips?"
    assert scoring["choices"][0] == {"value": "pagat", "label": "[es] Yes, subtract (pagat)"}
    assert scoring["sources"][0]["source"] == "pagat"  # a document's name is not translated
    assert scoring["sources"][0]["says"].startswith("[es] ")
    english = Client().get("/api/games/").json()
    assert next(g for g in english if g["name"] == "draw")["options"][0]["label"] == "[en] Domino set"


@pytest.mark.usefixtures("tagging")
def test_a_stored_review_is_worded_from_its_facts_for_each_reader() -> None:
    item = {"hand": 0, "move": 3, "played": {"type": "draw"}, "best": {"type": "draw"}, "loss": 0.0,
            "why": "Draw: no tile fits the open ends (3 and 5).", "unit": "points",
            "facts": {"game": "draw", "kind": "draw", "action": {"type": "draw"}, "forced": False,
                      "ends_before": [3, 5], "voids": {}}}
    with translation.override("pt-br"):
        worded = reviews.item_worded(item, ["Ann", "Bob"])
    assert set(worded) == {"hand", "move", "played", "best", "loss", "why", "unit"}
    assert worded["why"] == "[pt-br] draw: [pt-br] no tile fits the open ends ([pt-br] 3 and 5)."
    old = {k: v for k, v in item.items() if k != "facts"}
    assert reviews.item_worded(old, []) == old  # kept before its facts were: as kept


def test_in_english_a_sentence_worded_from_its_facts_is_the_one_advice_gave() -> None:
    facts = {"game": "draw", "kind": "draw", "action": {"type": "draw"}, "forced": False, "ends_before": [3, 5]}
    with translation.override("en"):
        assert wording.advice_why(facts, "points", None) == "Draw: no tile fits the open ends (3 and 5)."
