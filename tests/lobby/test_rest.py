"""The room API of docs/protocol.md: create, join, AI seats, kick, options, start, rematch, errors."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import DjangoAssertNumQueries, Settings

from lobby import services
from lobby.models import ActionRecord, Match, Room, Seat
from lobby.selectors import token_hash
from tests.lobby.helpers import api

pytestmark = pytest.mark.django_db

CODE = re.compile(r"^[23456789abcdefghjkmnpqrstuvwxyz]{14}$")


def create(client: Client, **overrides: Any) -> Any:
    """POST a room; a draw for four in partnership unless overridden."""
    body = {"game": "draw", "players": 4, "options": {"partnership": True}, "name": "Ann", **overrides}
    return api(client, "post", "/api/rooms/", body)


def test_create_answers_link_host_seat_and_a_token_stored_only_as_its_hash(client: Client) -> None:
    made = create(client)
    assert made.status_code == 201
    body = made.json()
    assert set(body) == {"code", "link", "url", "seat", "token"}
    assert body["url"] == f"http://testserver/r/{body['code']}"
    assert CODE.match(body["code"]) and body["link"] == f"/r/{body['code']}" and body["seat"] == 0
    assert len(body["token"]) >= 43  # 256 bits in url-safe base64
    host = Seat.objects.get(room__code=body["code"], index=0)
    assert host.token_hash == token_hash(body["token"]) != body["token"]
    assert not Seat.objects.filter(token_hash=body["token"]).exists()
    room = api(client, "get", f"/api/rooms/{body['code']}/").json()
    assert room["game"] == "draw" and room["players"] == 4 and room["host_seat"] == 0
    assert room["resolved_options"]["partnership"] is True and room["resolved_options"]["hand_size"] == 6
    assert [s["free"] for s in room["seats"]] == [False, True, True, True]
    assert room["started"] is False and room["match"] is None and room["you"] is None
    assert body["token"] not in str(room)


def test_room_codes_are_distinct_and_carry_at_least_60_random_bits() -> None:
    codes = {services.code_new() for _ in range(2000)}
    assert len(codes) == 2000
    assert services.CODE_LENGTH * len(services.CODE_ALPHABET).bit_length() > 60
    assert not set("01ilo") & set(services.CODE_ALPHABET)


@pytest.mark.parametrize(
    ("overrides", "option"),
    [
        ({"options": {"set": 7}}, "set"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"options": {"partnership": True}, "players": 3}, "partnership"),
        ({"game": "texas42", "options": {}, "players": 3}, "players"),
        ({"game": "chess"}, "game"),
    ],
)
def test_a_bad_option_is_a_400_that_names_it_and_creates_nothing(client: Client, overrides: dict[str, Any], option: str) -> None:
    refused = create(client, **overrides)
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    fields = [e["field"] for e in refused.json()["errors"]]
    assert option in fields or f"options.{option}" in fields
    assert option in refused.json()["detail"]
    assert not Room.objects.exists()


@pytest.mark.parametrize(("body", "field"), [({"players": 11}, "players"), ({"name": ""}, "name")])
def test_a_malformed_request_names_the_field(client: Client, body: dict[str, Any], field: str) -> None:
    refused = create(client, **body)
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert [e["field"] for e in refused.json()["errors"]] == [field]


def test_join_takes_the_first_free_seat_then_the_room_is_full(client: Client) -> None:
    made = create(client, players=2, options={}).json()
    joined = api(client, "post", f"/api/rooms/{made['code']}/seats/", {"name": "Bob"})
    assert joined.status_code == 201 and joined.json()["seat"] == 1 and joined.json()["token"]
    full = api(client, "post", f"/api/rooms/{made['code']}/seats/", {"name": "Cy"})
    assert full.status_code == 409 and full.json()["code"] == "conflict"
    me = api(client, "get", f"/api/rooms/{made['code']}/", token=joined.json()["token"]).json()
    assert me["you"] == 1 and me["seats"][1]["name"] == "Bob"


def test_ai_seats_need_the_host_token_and_can_be_removed(client: Client) -> None:
    made = create(client).json()
    code, host = made["code"], made["token"]
    bob = api(client, "post", f"/api/rooms/{code}/seats/", {"name": "Bob"}).json()
    path = f"/api/rooms/{code}/seats/"
    assert api(client, "post", path, {"seat": 2, "ai": "hard"}).status_code == 401
    assert api(client, "post", path, {"seat": 2, "ai": "hard"}, bob["token"]).status_code == 403
    assert api(client, "post", path, {"seat": 2, "ai": "hard"}, "forged").status_code == 401
    added = api(client, "post", path, {"seat": 2, "ai": "hard"}, host)
    assert added.status_code == 201 and added.json() == {"seat": 2}
    assert api(client, "post", path, {"seat": 1, "ai": "easy"}, host).status_code == 409
    beyond = api(client, "post", path, {"seat": 9, "ai": "easy"}, host)
    assert beyond.status_code == 409 and beyond.json()["errors"][0]["field"] == "seat"
    assert api(client, "post", path, {"seat": 3, "ai": "genius"}, host).status_code == 400
    seats = api(client, "get", f"/api/rooms/{code}/").json()["seats"]
    assert seats[2]["ai"] == "hard" and seats[2]["name"] == "Hard AI" and not seats[2]["free"]
    assert api(client, "delete", f"{path}2/", token=bob["token"]).status_code == 403
    assert api(client, "delete", f"{path}2/", token=host).status_code == 204
    assert api(client, "get", f"/api/rooms/{code}/").json()["seats"][2]["free"]


def test_host_kicks_a_player_and_a_player_may_leave_but_the_host_seat_stays(client: Client) -> None:
    made = create(client).json()
    code, host = made["code"], made["token"]
    path = f"/api/rooms/{code}/seats/"
    bob = api(client, "post", path, {"name": "Bob"}).json()
    cy = api(client, "post", path, {"name": "Cy"}).json()
    assert api(client, "delete", f"{path}{bob['seat']}/", token=host).status_code == 204
    assert api(client, "get", f"/api/rooms/{code}/", token=bob["token"]).json()["you"] is None
    assert api(client, "delete", f"{path}{cy['seat']}/", token=cy["token"]).status_code == 204
    assert api(client, "delete", f"{path}0/", token=host).status_code == 409
    assert [s["free"] for s in api(client, "get", f"/api/rooms/{code}/").json()["seats"]] == [
        False,
        True,
        True,
        True,
    ]


def test_host_changes_options_and_players_before_the_start(client: Client) -> None:
    made = create(client).json()
    code, host = made["code"], made["token"]
    changed = api(client, "patch", f"/api/rooms/{code}/", {"players": 2, "options": {"target": 50}}, host)
    assert changed.status_code == 200
    room = changed.json()
    assert room["players"] == 2 and len(room["seats"]) == 2 and room["resolved_options"]["target"] == 50
    bad = api(client, "patch", f"/api/rooms/{code}/", {"options": {"scoring": "nobody"}}, host)
    assert bad.status_code == 409 and bad.json()["errors"][0]["field"] == "options.scoring"
    assert api(client, "patch", f"/api/rooms/{code}/", {"players": 3}).status_code == 401
    assert Room.objects.get(code=code).options == {"target": 50}


def test_start_needs_the_host_and_every_seat_filled_then_rematch_keeps_the_seats(client: Client) -> None:
    made = create(client, players=2, options={"target": 1}).json()
    code, host = made["code"], made["token"]
    start = f"/api/rooms/{code}/start/"
    refused = api(client, "post", start, token=host)
    assert refused.status_code == 409 and "seat 1 is free" in refused.json()["detail"]
    api(client, "post", f"/api/rooms/{code}/seats/", {"seat": 1, "ai": "easy"}, host)
    assert api(client, "post", f"/api/rooms/{code}/rematch/", token=host).status_code == 409
    assert api(client, "post", start).status_code == 401
    started = api(client, "post", start, token=host)
    assert started.status_code == 201 and started.json() == {"number": 0, "version": 0}
    assert api(client, "post", start, token=host).status_code == 409
    assert api(client, "post", f"/api/rooms/{code}/seats/", {"name": "Late"}).status_code == 409
    assert api(client, "patch", f"/api/rooms/{code}/", {"players": 3}, host).status_code == 409
    match = Match.objects.get(room__code=code)
    assert len(bytes(match.seed)) == 32 and match.version == 0
    # Play the match out through the service, as the seat to move would.
    from games.engine import get_rules
    from lobby.selectors import match_state

    rules = get_rules("draw")
    while match.to_move is not None:
        state = match_state(match)
        services.action_submit(
            code, match.to_move, rules.legal_actions(state)[0], expected_version=match.version
        )
        match.refresh_from_db()
    assert api(client, "get", f"/api/rooms/{code}/").json()["match"]["over"] is True
    again = api(client, "post", f"/api/rooms/{code}/rematch/", token=host)
    assert again.status_code == 201 and again.json()["number"] == 1
    room = api(client, "get", f"/api/rooms/{code}/").json()
    assert room["match"]["number"] == 1 and room["seats"][1]["ai"] == "easy" and room["playing"]
    assert ActionRecord.objects.filter(match__number=1).count() == 0


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/rooms/{code}/", None),
        ("patch", "/api/rooms/{code}/", {"players": 3}),
        ("post", "/api/rooms/{code}/seats/", {"name": "Bob"}),
        ("delete", "/api/rooms/{code}/seats/1/", None),
        ("post", "/api/rooms/{code}/start/", None),
    ],
)
def test_a_wrong_room_code_is_a_404_and_nothing_else(client: Client, method: str, path: str, body: dict[str, Any] | None) -> None:
    create(client)
    missing = api(client, method, path.format(code="zzzzzzzzzzzzzz"), body)
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/problem+json"
    assert missing.json() == {"type": "about:blank", "title": "Not Found", "status": 404, "code": "not_found",
                              "detail": "no such room"}


def test_room_creation_and_joins_are_throttled_per_address(client: Client, settings: Settings) -> None:
    settings.LOBBY_THROTTLE_RATES = {"room_create": "2/minute", "seat_join": "1/minute"}
    from django.core.cache import cache

    cache.clear()
    first = create(client, players=3, options={}).json()
    assert create(client).status_code == 201
    throttled = create(client)
    assert throttled.status_code == 429 and throttled.json()["code"] == "rate_limited"
    assert api(client, "post", f"/api/rooms/{first['code']}/seats/", {"name": "B"}).status_code == 201
    assert api(client, "post", f"/api/rooms/{first['code']}/seats/", {"name": "C"}).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert api(other, "post", f"/api/rooms/{first['code']}/seats/", {"name": "C"}).status_code == 201
    cache.clear()


def test_the_openapi_schema_describes_every_operation(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in (
        "/api/rooms/",
        "/api/rooms/{code}/seats/",
        "/api/rooms/{code}/start/",
        "/api/rooms/{code}/rematch/",
    ):
        assert path in text
    assert "bearer" in text


def test_games_lists_the_engines_with_their_player_counts(client: Client) -> None:
    games = {g["name"]: g for g in client.get("/api/games/").json()}
    assert (games["draw"]["min_players"], games["draw"]["max_players"]) == (2, 10)
    assert [o["name"] for o in games["draw"]["options"]][:3] == ["set", "partnership", "hand_size"]
    assert games["texas42"]["min_players"] == games["texas42"]["max_players"] == 4


def test_healthz_answers_ok_without_touching_the_database(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    with django_assert_num_queries(0):
        answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.content == b"ok\n"
