"""The record of a match (docs/protocol.md, "Match records"): every finished hand's revealed
seed and its actions, never the hand being played, for every game, from matches played
through the server."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from django.test import Client

from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.core.tiles import full_set
from games.engine import get_rules
from lobby import selectors, services
from lobby.models import ActionRecord, Match
from tests.lobby.helpers import api, match_start, room_setup

pytestmark = pytest.mark.django_db

TABLES = [
    ("draw", 4, {"partnership": True}),
    ("block", 3, {}),
    ("allfives", 2, {}),
    ("texas42", 4, {}),
    ("mexican_train", 3, {"set": 6, "rounds": 3}),
    ("chicken_foot", 2, {}),
    ("fiveup", 3, {"muggins": True}),
]


def play(code: str, rng: random.Random, hands: int | None = None) -> Match:
    """Every seat played through `action_submit` with seeded random legal moves, until
    `hands` hands have ended (and one action more into the next), or the match ends."""
    into_next = False
    while True:
        room = selectors.room_get_by_code(code)
        match = selectors.match_current(room)
        assert match is not None
        if match.is_over or into_next:
            return match
        state = selectors.match_state(match)
        rules = get_rules(match.game)
        into_next = hands is not None and rules.hand_index(state) >= hands
        seat = rules.to_move(state)
        assert seat is not None
        action = rng.choice(rules.view(state, seat)["legal"])
        services.action_submit(code, seat, action, client_id=f"a{match.version}")


def record(client: Client, code: str, number: int = 0) -> dict[str, Any]:
    answer = api(client, "get", f"/api/rooms/{code.upper()}/matches/{number}/")
    assert answer.status_code == 200, answer.content
    return cast(dict[str, Any], answer.json())


def dealt_by_seed(game: str, options: dict[str, Any], seed: str, dealt: list[list[list[int]]],
                  engine: list[int] | None) -> list[list[list[int]]]:
    """What the published shuffle deals from `seed`, computed without the rules: the set in
    canonical order (Mexican Train without its engine double), shuffled, a block per seat."""
    top = int(options.get("set", 6))
    tiles = [list(t) for t in full_set(top) if engine is None or sorted(t) != sorted(engine)]
    order = shuffle(tiles, bytes.fromhex(seed))
    hands, _boneyard = deal(order, len(dealt), len(dealt[0]))
    return [list(h) for h in hands]


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_a_record_replays_to_the_state_the_server_played_and_holds_only_finished_hands(
    client: Client, game: str, players: int, options: dict[str, Any]
) -> None:
    code, tokens = room_setup(game, players, options, humans=players)
    match_start(code, tokens[0])
    played = play(code, random.Random(f"{game}-1"), hands=2)
    rules = get_rules(game)

    # Mid-match: two hands ended, the third has begun and none of it is in the record.
    # (Each match's master seed is fresh and secret, so now and then the deals end a
    # match within two hands: then there is no running hand to keep out.)
    mid = record(client, code)
    logged = list(ActionRecord.objects.filter(match=played).order_by("seq").values_list("seat", "action"))
    in_record = [tuple(a) for h in mid["hands"] for a in h["actions"]]
    assert in_record == [tuple(a) for a in logged[: len(in_record)]]
    if not played.is_over:
        assert len(mid["hands"]) == 2 and mid["result"] is None
        assert len(in_record) < len(logged)
        current_hand = rules.view(selectors.match_state(played), None)
        assert current_hand["commitment"] not in {h["commitment"] for h in mid["hands"]}

    ended = play(code, random.Random(f"{game}-2"))
    full = record(client, code)
    assert full["result"] == ended.result and full["result"] is not None
    assert full["game"] == game and full["players"] == players and full["number"] == 0
    assert [s["name"] for s in full["seats"]] == [f"P{i}" for i in range(players)]
    assert full["hands"][: len(mid["hands"])] == mid["hands"]

    # Replayed from the match's start through the rules, the record's actions give the
    # server's own final state, hand by hand.
    state = rules.new_match(players, full["options"], seed=bytes(ended.seed))
    for number, hand in enumerate(full["hands"]):
        assert hand["seed"] == hand_seed(bytes(ended.seed), number).hex()
        assert hand["commitment"] == commitment(bytes.fromhex(hand["seed"]))
        assert rules.view(state, None)["commitment"] == hand["commitment"]
        for seat, action in hand["actions"]:
            assert rules.to_move(state) == seat
            state = rules.apply(state, action)
        summary = rules.view(state, None)["last_hand"]
        assert summary["seed"] == hand["seed"]
        # The deal follows from the revealed seed alone (a game may sort a hand it shows).
        by_seed = dealt_by_seed(game, full["options"], hand["seed"], summary["dealt"], summary.get("engine"))
        assert [sorted(h) for h in by_seed] == [sorted(map(list, h)) for h in summary["dealt"]]
    assert rules.dump(state) == rules.dump(selectors.match_state(ended))
    assert rules.result(state) == full["result"]


def test_a_record_names_the_seats_as_they_sat_for_that_match(client: Client) -> None:
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    match_start(code, tokens[0])
    play(code, random.Random(3))
    moved = api(client, "patch", f"/api/rooms/{code}/seats/0/", {"move_to": 1}, tokens[0])
    assert moved.status_code == 200
    assert [s["name"] for s in record(client, code)["seats"]] == ["P0", "P1"]
    api(client, "post", f"/api/rooms/{code}/rematch/", {}, tokens[0])
    assert [s["name"] for s in record(client, code, 1)["seats"]] == ["P1", "P0"]


def test_a_record_of_a_match_or_room_that_does_not_exist_is_404(client: Client) -> None:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    assert api(client, "get", f"/api/rooms/{code}/matches/0/").status_code == 404
    match_start(code, tokens[0])
    assert api(client, "get", f"/api/rooms/{code}/matches/0/").json()["hands"] == []
    for path in (f"/api/rooms/{code}/matches/1/", "/api/rooms/nosuchroom2345/matches/0/",
                 f"/api/rooms/{code}/matches/-1/"):
        answer = api(client, "get", path)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
