"""Whole matches over the room WebSocket, with real Redis and a real database.

Every frame every connection receives is checked: each state is the fresh view of the
stored state at its version (replayed from the action log), versions never go back, and no
frame holds a tile of another seat's hand.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from lobby import selectors
from lobby.models import ActionRecord, Match
from tests.lobby.helpers import Table, match_start_async, room_setup_async, states_replayed, verify_frames

pytestmark = pytest.mark.django_db(transaction=True)


def is_done(frame: dict[str, Any], until: int | None) -> bool:
    return frame["view"]["match_over"] or (until is not None and frame["version"] >= until)


async def drive(table: Table, rng: random.Random, until: int | None = None) -> dict[str, Any]:
    """Play random legal actions for this seat until the match is over (or version `until`,
    when every seat is driven this way); returns the last state."""
    acted = -1
    serial = 0
    while True:
        frame = await table.next(timeout=30)
        if frame["type"] == "error":
            raise AssertionError(f"seat {table.seat} got {frame}")
        if frame["type"] != "state":
            continue
        view = frame["view"]
        if is_done(frame, until):
            return frame
        if view["legal"] and frame["version"] > acted:
            acted = frame["version"]
            serial += 1
            action = rng.choice(view["legal"])
            await table.send(
                {
                    "type": "action",
                    "id": f"s{table.seat}-{serial}",
                    "action": action,
                    "version": frame["version"],
                }
            )


async def watch(table: Table, until: int | None = None) -> dict[str, Any]:
    while True:
        frame = await table.next(timeout=30)
        if frame["type"] == "state" and is_done(frame, until):
            return frame


async def play_match(
    game: str,
    players: int,
    options: dict[str, Any],
    humans: int,
    seed: int,
    ai: str = "hard",
    until: int | None = None,
) -> None:
    """Seat `humans` random players and AIs for the rest, play to the end (or, all seats
    human, to version `until`), and check every frame."""
    code, tokens = await room_setup_async(game, players, options, humans, ai)
    seats = [Table(code, token) for token in tokens]
    spectator = Table(code)
    for table in [*seats, spectator]:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    rng = random.Random(seed)
    finals = await asyncio.gather(
        *(drive(t, random.Random(rng.random()), until) for t in seats), watch(spectator, until)
    )
    rules, states = await database_sync_to_async(states_replayed)(code)
    final_version = max(states)
    over = rules.to_move(states[final_version]) is None
    assert over if until is None else (over or final_version == until)
    for table in [*seats, spectator]:
        await table.quiet(0.1)
        assert verify_frames(table.frames, table.seat, rules, states) > 0
        latest = table.latest_state()
        assert latest is not None
        assert latest["version"] == final_version
        version, view = await database_sync_to_async(selectors.seat_view_get)(code, table.seat)
        assert (version, view) == (final_version, latest["view"])
    assert all(f["view"]["result"] == finals[0]["view"]["result"] for f in finals)
    result = finals[0]["view"]["result"]
    if result is not None:
        assert result["winner"] in [*range(len(result["scores"])), None]
    for table in [*seats, spectator]:
        await table.close()


async def test_partnership_draw_match_with_two_humans_and_two_ai_seats_plays_to_the_end() -> None:
    await play_match("draw", 4, {"partnership": True}, humans=2, seed=20260805, ai="easy")
    match = await database_sync_to_async(Match.objects.get)()
    actors = await database_sync_to_async(
        lambda: set(ActionRecord.objects.filter(match=match).values_list("seat", "actor"))
    )()
    assert {seat for seat, actor in actors if actor == "ai"} == {2, 3}
    assert {seat for seat, actor in actors if actor == "seat"} == {0, 1}


LONG = pytest.mark.slow


@pytest.mark.parametrize(
    ("game", "players", "options", "until"),
    [
        ("block", 3, {"target": 30}, None),
        ("draw", 2, {"target": 30}, None),
        ("allfives", 4, {"partnership": True, "target": 60}, None),
        ("texas42", 4, {"target_marks": 1}, None),
        ("mexican_train", 3, {"set": 9, "rounds": 2}, None),
        # Ten rounds of several hundred actions: the default run plays the opening rounds,
        # the slow run the whole match.
        ("chicken_foot", 2, {}, 150),
        pytest.param("chicken_foot", 2, {}, None, marks=LONG),
        pytest.param("mexican_train", 4, {}, None, marks=LONG),
    ],
)
async def test_no_frame_of_a_match_shows_another_seats_tile(game: str, players: int, options: dict[str, Any], until: int | None) -> None:
    from games.engine import get_rules

    try:
        get_rules(game)
    except ImportError:
        pytest.skip(f"the {game} engine is not written yet")
    await play_match(game, players, options, humans=players, seed=7, until=until)


async def test_a_rematch_streams_the_new_match_from_version_zero_with_the_same_seats() -> None:
    from django.test import Client

    from tests.lobby.helpers import api

    code, tokens = await room_setup_async("draw", 2, {"target": 1}, humans=1, ai="easy")
    host = Table(code, tokens[0])
    assert (await host.open())[0]
    await match_start_async(code, tokens[0])
    final = await drive(host, random.Random(3))
    again = await database_sync_to_async(api)(
        Client(), "post", f"/api/rooms/{code}/rematch/", None, tokens[0]
    )
    assert again.status_code == 201 and again.json()["number"] == 1
    fresh = await host.until("state")
    assert fresh["version"] == 0 and final["version"] > 0
    assert fresh["view"]["match_over"] is False and fresh["view"]["scores"] == [0, 0]
    room = await database_sync_to_async(lambda: selectors.room_info(selectors.room_get_by_code(code)))()
    assert room["match"]["number"] == 1 and room["seats"][1]["ai"] == "easy"
    await host.close()


async def test_the_room_frames_of_a_start_a_match_end_and_a_rematch_show_the_room_as_stored() -> None:
    from django.test import Client

    from lobby import services
    from tests.lobby.helpers import api

    def stored() -> dict[str, Any]:
        return selectors.room_info(selectors.room_get_by_code(code))

    def rooms() -> list[dict[str, Any]]:
        return [frame["room"] for frame in host.frames if frame["type"] == "room"]

    # Seat 1's player never opens the table: the start counts them gone, and after the
    # grace period a stand-in plays for them.
    code, tokens = await room_setup_async("draw", 2, {"target": 1}, humans=2)
    await database_sync_to_async(services.room_update)(code, tokens[0], {"grace_seconds": 1})
    host = Table(code, tokens[0])
    assert (await host.open())[0]
    await host.until("room")  # the snapshot's, read before the start
    await match_start_async(code, tokens[0])
    await drive(host, random.Random(5))
    await host.quiet()
    over = await database_sync_to_async(stored)()
    started = next(room for room in rooms() if room["playing"])
    # "standin" says whether the deadline has passed by the time the frame was made.
    assert [{**seat, "standin": None} for seat in started["seats"]] == [
        {**seat, "standin": None} for seat in over["seats"]
    ]
    assert started["seats"][1]["standin_at"] is not None and started["seats"][0]["connected"]
    assert rooms()[-1] == over and over["match"]["over"]
    again = await database_sync_to_async(api)(
        Client(), "post", f"/api/rooms/{code}/rematch/", None, tokens[0]
    )
    assert again.status_code == 201
    await host.quiet()
    rematched = await database_sync_to_async(stored)()
    # The stand-in may have moved since (the room frame of an action comes only at the end).
    latest = next(room for room in reversed(rooms()) if room["match"]["number"] == 1)
    assert latest["seats"] == rematched["seats"] and latest["playing"] and rematched["playing"]
    assert started["revision"] < over["revision"] < latest["revision"] == rematched["revision"]
    await host.close()


async def test_a_socket_is_never_sent_a_room_frame_older_than_one_it_has() -> None:
    from lobby.runtime import runtime

    code, tokens = await room_setup_async("draw", 2, {}, humans=1, ai="easy")
    host = Table(code, tokens[0])
    assert (await host.open())[0]
    room = (await host.until("room"))["room"]

    async def delivered(revision: int) -> list[int]:
        await runtime().hub().deliver({"type": "lobby.room", "code": code, "room": {**room, "revision": revision}})
        return [frame["room"]["revision"] for frame in await host.quiet() if frame["type"] == "room"]

    # A frame read before a change and published after that change's own frame.
    assert await delivered(room["revision"] - 1) == []
    assert await delivered(room["revision"] + 1) == [room["revision"] + 1]
    # The same revision again may say more (a deadline passed): it is sent.
    assert await delivered(room["revision"] + 1) == [room["revision"] + 1]
    assert await delivered(room["revision"]) == []
    await host.close()
