"""Every refusal under /api/ is a problem (RFC 9457) with a stable code, and changes nothing.

One test per kind of refusal: the status, the media type, the shape, and the database after.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from lobby.models import Match, Room, Seat

pytestmark = pytest.mark.django_db


def api(client: Client, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    if body is None:
        return getattr(client, method)(path, **headers)
    return getattr(client, method)(path, json.dumps(body), content_type="application/json", **headers)

PROBLEM = "application/problem+json"


def problem(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"] == PROBLEM
    body: dict[str, Any] = answer.json()
    assert set(body) >= {"type", "title", "status", "detail", "code"}
    assert (body["type"], body["status"], body["code"]) == ("about:blank", status, code)
    assert body["title"] and body["detail"]
    return body


def rows() -> tuple[int, int, int]:
    return Room.objects.count(), Seat.objects.count(), Match.objects.count()


@pytest.fixture
def room(client: Client) -> dict[str, Any]:
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"})
    assert made.status_code == 201
    return cast(dict[str, Any], made.json())


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/nothing/"), ("delete", "/api/rooms/abc/seats/null,null/"), ("post", "/api/rooms/x/y/z/"),
     ("get", "/api/rooms/abc/seats/-1/")],
)
def test_an_unknown_path_under_api_is_a_404_problem(client: Client, method: str, path: str) -> None:
    problem(getattr(client, method)(path), 404, "not_found")
    assert rows() == (0, 0, 0)


def test_a_page_outside_api_keeps_its_html_404(client: Client) -> None:
    answer = client.get("/no/such/page/")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("text/html")


def test_an_unknown_room_and_a_seat_it_lacks_are_404_problems(client: Client, room: dict[str, Any]) -> None:
    problem(client.get("/api/rooms/nosuchroom/"), 404, "not_found")
    before = rows()
    problem(api(client, "delete", f"/api/rooms/{room['code']}/seats/7/", token=room["token"]), 404, "not_found")
    assert rows() == before


def test_a_wrong_method_is_a_405_problem_with_allow(client: Client, room: dict[str, Any]) -> None:
    answer = client.put(f"/api/rooms/{room['code']}/", "{}", content_type="application/json")
    problem(answer, 405, "method_not_allowed")
    assert "PATCH" in answer["Allow"]


def test_a_body_that_is_not_json_is_a_415_problem(client: Client) -> None:
    problem(client.post("/api/rooms/", "game=draw", content_type="application/x-www-form-urlencoded"),
            415, "unsupported_media_type")
    assert rows() == (0, 0, 0)


def test_bad_json_is_a_400_malformed_problem(client: Client) -> None:
    problem(client.post("/api/rooms/", "{nope", content_type="application/json"), 400, "malformed")
    assert rows() == (0, 0, 0)


def test_a_body_too_large_is_a_413_problem(client: Client, settings: Settings) -> None:
    body = json.dumps({"game": "draw", "players": 2, "name": "x" * (settings.HTTP_MAX_BODY + 10)})
    problem(client.post("/api/rooms/", body, content_type="application/json"), 413, "too_large")
    assert rows() == (0, 0, 0)


def test_an_accept_without_json_is_a_406_problem(client: Client) -> None:
    problem(client.get("/api/games/", HTTP_ACCEPT="text/html"), 406, "not_acceptable")


def test_the_browser_accept_header_takes_json_and_problems(client: Client) -> None:
    assert client.get("/api/games/", HTTP_ACCEPT="application/json, application/problem+json").status_code == 200
    problem(client.get("/api/nothing/", HTTP_ACCEPT="application/problem+json"), 404, "not_found")


def test_throttled_is_a_429_problem_with_retry_after(settings: Settings) -> None:
    settings.LOBBY_THROTTLE_RATES = {"room_create": "1/minute", "seat_join": "1/minute"}
    client = Client(REMOTE_ADDR="10.0.0.29")
    from lobby.runtime import runtime

    runtime().throttle_counters().clear()
    assert api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"}).status_code == 201
    before = rows()
    answer = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "A"})
    problem(answer, 429, "rate_limited")
    assert int(answer["Retry-After"]) >= 1
    assert rows() == before


def test_every_field_error_is_reported_at_once_with_field_and_code(client: Client) -> None:
    body = problem(api(client, "post", "/api/rooms/", {"game": "nope", "players": 3.0, "colour": 1}),
                   400, "invalid")
    found = {(e["field"], e["code"]) for e in body["errors"]}
    assert found == {("game", "invalid_choice"), ("players", "wrong_type"), ("name", "required"),
                     ("colour", "unknown_field")}
    assert all(e["detail"] for e in body["errors"])
    assert rows() == (0, 0, 0)


def test_every_option_error_is_reported_with_its_option(client: Client) -> None:
    body = problem(api(client, "post", "/api/rooms/", {
        "game": "draw", "players": 2, "name": "Ann", "options": {"set": 7, "colour": "red", "target": "x"}}),
        400, "invalid")
    assert {(e["field"], e["code"]) for e in body["errors"]} == {
        ("options.set", "not_a_choice"), ("options.colour", "unknown_option"), ("options.target", "wrong_type")}
    assert rows() == (0, 0, 0)


def test_options_refused_together_name_the_option(client: Client) -> None:
    body = problem(api(client, "post", "/api/rooms/", {
        "game": "draw", "players": 3, "name": "Ann", "options": {"partnership": True}}), 400, "invalid")
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("options.partnership", "does_not_fit")]
    assert rows() == (0, 0, 0)


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": 12345}, "name", "wrong_type"),
        ({"name": 2.83e16}, "name", "wrong_type"),
        ({"name": "   "}, "name", "blank"),
        ({"name": "x" * 41}, "name", "max_length"),
        ({"name": "Ann\u202e"}, "name", "control_character"),
        ({"name": "Ann\x00"}, "name", "control_character"),
        ({"players": "2"}, "players", "wrong_type"),
        ({"players": 2.0}, "players", "wrong_type"),
        ({"players": True}, "players", "wrong_type"),
        ({"grace_seconds": "60"}, "grace_seconds", "wrong_type"),
        ({"options": {"spinner": 1}}, "options.spinner", "wrong_type"),
        ({"options": {"spinner": "true"}}, "options.spinner", "wrong_type"),
        ({"options": [1]}, "options", "not_an_object"),
    ],
)
def test_no_field_is_coerced(client: Client, body: dict[str, Any], field: str, code: str) -> None:
    answer = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann", **body})
    assert (field, code) in {(e["field"], e["code"]) for e in problem(answer, 400, "invalid")["errors"]}
    assert rows() == (0, 0, 0)


def test_a_name_is_trimmed_and_its_spaces_made_one(client: Client) -> None:
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "  Ann   Lee "}).json()
    assert Seat.objects.get(room__code=made["code"], index=0).name == "Ann Lee"


def test_a_missing_or_unknown_token_is_401_with_a_bearer_challenge(client: Client, room: dict[str, Any]) -> None:
    before = rows()
    for token in (None, "forged"):
        answer = api(client, "post", f"/api/rooms/{room['code']}/start/", token=token)
        problem(answer, 401, "unauthorized")
        assert answer["WWW-Authenticate"].startswith("Bearer")
    assert rows() == before


def test_a_seat_that_may_not_do_this_is_403(client: Client, room: dict[str, Any]) -> None:
    bob = api(client, "post", f"/api/rooms/{room['code']}/seats/", {"name": "Bob"}).json()
    before = rows()
    problem(api(client, "patch", f"/api/rooms/{room['code']}/", {"players": 3}, bob["token"]), 403, "forbidden")
    problem(api(client, "post", f"/api/rooms/{room['code']}/start/", token=bob["token"]), 403, "forbidden")
    assert rows() == before
    assert Room.objects.get(code=room["code"]).players == 2


def test_a_state_that_refuses_it_is_a_409_problem(client: Client, room: dict[str, Any]) -> None:
    api(client, "post", f"/api/rooms/{room['code']}/seats/", {"name": "Bob"})
    before = rows()
    problem(api(client, "post", f"/api/rooms/{room['code']}/seats/", {"name": "Cy"}), 409, "conflict")
    problem(api(client, "post", f"/api/rooms/{room['code']}/seats/", {"name": "Cy", "seat": 5}), 409, "conflict")
    assert rows() == before


def test_options_that_do_not_fit_the_room_are_a_409_naming_them(client: Client, room: dict[str, Any]) -> None:
    body = problem(api(client, "patch", f"/api/rooms/{room['code']}/", {"options": {"colour": 1}},
                       room["token"]), 409, "conflict")
    assert body["errors"][0]["field"] == "options.colour"
    assert Room.objects.get(code=room["code"]).options == {}


def test_the_schema_documents_every_refusal_as_a_problem(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path, item in schema["paths"].items():
        for method, op in item.items():
            statuses = [s for s in op["responses"] if s.startswith("4")]
            assert "406" in statuses, (path, method)
            for status in statuses:
                content = op["responses"][status]["content"]
                assert list(content) == [PROBLEM], (path, method, status)
    body = schema["paths"]["/api/rooms/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["discriminator"]["propertyName"] == "game"
    assert set(body["discriminator"]["mapping"]) == {"block", "draw", "allfives", "texas42", "mexican_train",
                                                     "chicken_foot", "fiveup"}
    links = schema["paths"]["/api/rooms/"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} >= {"room_get", "seat_create", "match_start"}
