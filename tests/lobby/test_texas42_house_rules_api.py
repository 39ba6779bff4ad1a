"""Texas 42's house rules through the REST API (docs/api.md): listed with their sources by
`GET /api/games/`, accepted together, and a refinement without its option refused naming it."""

from __future__ import annotations

import pytest
from django.test import Client

from .helpers import api

pytestmark = pytest.mark.django_db


def test_the_house_rules_are_listed_with_their_sources_and_what_they_refine(client: Client) -> None:
    games = api(client, "get", "/api/games/").json()
    texas42 = next(g for g in (games if isinstance(games, list) else games["games"]) if g["name"] == "texas42")
    listed = {o["name"]: o for o in texas42["options"]}
    for name in ("plunge", "splash", "sevens", "nello_doubles", "nello_min_marks", "forced_bid"):
        assert listed[name]["sources"], name
    assert listed["nello_doubles"]["requires"] == "nello"
    assert listed["all_pass"]["shown"] is False


def test_a_room_with_every_house_rule_and_a_refinement_without_its_option(client: Client) -> None:
    on = {"plunge": True, "splash": True, "sevens": True, "nello": True, "nello_doubles": "own_suit",
          "nello_min_marks": 1, "forced_bid": True}
    made = api(client, "post", "/api/rooms/", {"game": "texas42", "players": 4, "name": "Ann", "options": on})
    assert made.status_code == 201, made.content
    refused = api(client, "post", "/api/rooms/", {
        "game": "texas42", "players": 4, "name": "Ann", "options": {"nello_doubles": "low"}})
    assert refused.status_code == 400
    errors = refused.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [("options.nello_doubles", "does_not_fit")]
    assert "nello" in errors[0]["detail"]
