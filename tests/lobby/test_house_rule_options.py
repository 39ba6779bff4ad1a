"""The Mexican Train and Chicken Foot house rules through the REST API: a room takes them, shows
them resolved, and a bad value is refused naming the option, as the engine refuses it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from lobby.models import Room

pytestmark = pytest.mark.django_db


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/api/rooms/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("game", "options", "refused"),
    [
        ("mexican_train", {"double_blank": 30, "draw_until_play": "yes"},
         {("options.double_blank", "not_a_choice"), ("options.draw_until_play", "wrong_type")}),
        ("chicken_foot", {"opening_arms": 5}, {("options.opening_arms", "not_a_choice")}),
        ("chicken_foot", {"draw_until_play": True}, {("options.draw_until_play", "unknown_option")}),
    ],
)
def test_a_bad_house_rule_is_refused_naming_it(client: Client, game: str, options: dict[str, Any],
                                               refused: set[tuple[str, str]]) -> None:
    answer = post(client, {"game": game, "players": 3, "name": "Ann", "options": options})
    assert answer.status_code == 400, answer.content
    assert {(e["field"], e["code"]) for e in answer.json()["errors"]} == refused
    assert Room.objects.count() == 0


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("mexican_train", {"double_blank": 25, "draw_until_play": True}),
        ("chicken_foot", {"opening_arms": 6, "double_blank": 25}),
    ],
)
def test_a_room_takes_the_house_rules_and_shows_them_resolved(client: Client, game: str,
                                                             options: dict[str, Any]) -> None:
    made = post(client, {"game": game, "players": 3, "name": "Ann", "options": options})
    assert made.status_code == 201, made.content
    room = client.get(f"/api/rooms/{made.json()['code']}/").json()
    assert room["options"] == options
    assert {k: room["resolved_options"][k] for k in options} == options
