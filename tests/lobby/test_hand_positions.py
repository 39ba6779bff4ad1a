"""The replay page's positions (docs/protocol.md, "Replayed positions"): each finished hand
replayed through the engine from the record, every hand face up, for every game, from
matches played through the server; never the hand being played."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from django.test import Client

from games.engine import get_rules
from lobby import selectors
from tests.lobby.helpers import api, match_start, room_setup
from tests.lobby.test_match_records import TABLES, play, record

pytestmark = pytest.mark.django_db


def positions(client: Client, code: str, hand: int, number: int = 0) -> dict[str, Any]:
    answer = api(client, "get", f"/api/rooms/{code}/matches/{number}/hands/{hand}/positions/")
    assert answer.status_code == 200, answer.content
    return cast(dict[str, Any], answer.json())


def tiles(rows: list[list[list[int]]]) -> list[list[tuple[int, ...]]]:
    return [sorted(tuple(sorted(t)) for t in row) for row in rows]


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_every_position_of_every_finished_hand_replays_the_match_as_played(
    client: Client, game: str, players: int, options: dict[str, Any]
) -> None:
    code, tokens = room_setup(game, players, options, humans=players)
    match_start(code, tokens[0])
    mid = play(code, random.Random(f"{game}-p1"), hands=1)
    if not mid.is_over:
        # One hand is over and the next has begun: that one is not to be seen.
        assert len(record(client, code)["hands"]) == 1
        running = api(client, "get", f"/api/rooms/{code}/matches/0/hands/1/positions/")
        assert running.status_code == 404 and running.json()["code"] == "not_found"
    ended = play(code, random.Random(f"{game}-p2"))
    full = record(client, code)
    rules = get_rules(game)
    for number, hand in enumerate(full["hands"]):
        got = positions(client, code, number)
        assert got["hand"] == number and got["hands"] == len(full["hands"])
        assert (got["seed"], got["commitment"]) == (hand["seed"], hand["commitment"])
        steps = got["positions"]
        # The deal, then one position per action, each saying who did what.
        assert len(steps) == len(hand["actions"]) + 1
        assert [[p["seat"], p["action"]] for p in steps[1:]] == hand["actions"]
        assert steps[0]["seat"] is None and steps[0]["action"] is None
        summary = got["summary"]
        assert summary["seed"] == hand["seed"] and summary["number"] == number
        # Face up from the deal to the end: the tiles dealt, then the tiles left.
        # (Chicken Foot's deal goes on drawing until someone holds the lead double.)
        if steps[0]["events"]:
            assert {e["type"] for e in steps[0]["events"]} == {"draw"}
            for held, dealt in zip(tiles(steps[0]["hands"]), tiles(summary["dealt"]), strict=True):
                assert set(dealt) <= set(held)
        else:
            assert tiles(steps[0]["hands"]) == tiles(summary["dealt"])
        assert tiles(steps[-1]["hands"]) == tiles(summary["hands_left"])
        for p in steps:
            assert [len(h) for h in p["hands"]] == p["view"]["hand_sizes"]
        # The events of the positions, in order, are the hand's own log.
        assert [e for p in steps for e in p["events"]] == summary["log"]
        assert steps[-1]["view"]["to_move"] is None
        # The hand's last tile lies on the table of its last position, not the next deal's.
        _seat, closing = hand["actions"][-1]
        if closing["type"] == "play" and game != "texas42":
            a, b = closing["tile"]
            laid = json.dumps(steps[-1]["view"], separators=(",", ":"))
            assert f"[{a},{b}]" in laid or f"[{b},{a}]" in laid
        assert steps[-1]["view"]["scores"] == got["scores_after"]
        for p, (seat, _action) in zip(steps, hand["actions"], strict=False):
            assert p["view"]["to_move"] == seat
    # The last hand's last position is the table the match ended on, as the server holds it.
    last = positions(client, code, len(full["hands"]) - 1)
    final = rules.view(selectors.match_state(ended), None)
    assert last["match_over"] and last["result"] == full["result"] == ended.result
    for key, value in last["positions"][-1]["view"].items():
        assert final[key] == value, key
    assert {k: final[k] for k in last["shared"]} == last["shared"]


def test_positions_of_a_room_match_or_hand_that_does_not_exist_are_404_as_json(client: Client) -> None:
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    base = f"/api/rooms/{code}/matches"
    before = api(client, "get", f"{base}/0/hands/0/positions/")
    assert before.status_code == 404 and before.json()["code"] == "not_found"
    match_start(code, tokens[0])
    play(code, random.Random(5))
    # The deal is the server's own, so a hand may end blocked and scoreless: the match to 1
    # point is over after its last finished hand, whichever that is.
    last = len(record(client, code)["hands"]) - 1
    assert positions(client, code, last)["match_over"]
    for path in (f"{base}/0/hands/{last + 1}/positions/", f"{base}/1/hands/0/positions/",
                 "/api/rooms/nosuchroom2345/matches/0/hands/0/positions/", f"{base}/0/hands/-1/positions/"):
        answer = api(client, "get", path)
        assert answer.status_code == 404, path
        assert answer.json()["code"] == "not_found", path


def test_the_replay_page_opens_for_a_room_and_its_short_link_leads_to_the_current_match(client: Client) -> None:
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    page = client.get(f"/r/{code}/replay/0")
    assert page.status_code == 200
    assert b'data-number="0"' in page.content and b"replay.js" in page.content
    assert client.get(f"/r/{code.upper()}/replay/3").status_code == 200  # the page says there is no match 3
    assert client.get("/r/nosuchroom2345/replay/0").status_code == 404
    match_start(code, tokens[0])
    play(code, random.Random(7))
    api(client, "post", f"/api/rooms/{code}/rematch/", {}, tokens[0])
    short = client.get(f"/r/{code}/replay?hand=1&move=2")
    assert short.status_code == 302 and short["Location"] == f"/r/{code}/replay/1?hand=1&move=2"
    assert client.get(f"/r/{code}/replay")["Location"] == f"/r/{code}/replay/1"
