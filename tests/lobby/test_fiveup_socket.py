"""Five-Up's muggins house rule over the room WebSocket, with real Redis and a real database:
a play that carries `"claim": true` and the `muggins` action reach the rules through the
socket path (the frame, `normalise_action`, the action log) unchanged, and every frame is the
stored state's view."""

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


async def drive(table: Table, rng: random.Random, shared: dict[str, Any]) -> None:
    """Play this seat until a claimed play and a muggins call have both been acknowledged:
    call muggins whenever it is offered, claim the first play, then play without claiming
    (leaving points for the other seat to take)."""
    acted = -1
    serial = 0
    while not shared["done"]:
        # Polled without a receive timeout: a timed-out receive would cancel the application.
        if await table.ws.receive_nothing(0.05, interval=0.01):
            continue
        frame = await table.next()
        assert frame["type"] != "error", frame
        if frame["type"] == "ack":
            shared["acked"].add(frame["id"])
            shared["done"] = {shared.get("claim"), shared.get("muggins")} <= shared["acked"]
            continue
        if frame["type"] != "state" or frame["version"] <= acted or not frame["view"]["legal"]:
            continue
        assert not frame["view"]["match_over"], "the match ended before a claim and a muggins call"
        legal = frame["view"]["legal"]
        serial += 1
        msg_id = f"s{table.seat}-{serial}"
        plays = [a for a in legal if a["type"] == "play"]
        if {"type": "muggins"} in legal and "muggins" not in shared:
            action: dict[str, Any] = {"type": "muggins"}
            shared["muggins"] = msg_id
        elif plays and "claim" not in shared:
            action = next(a for a in plays if a.get("claim"))
            shared["claim"] = msg_id
        elif plays:
            action = rng.choice([a for a in plays if not a.get("claim")])
        else:
            action = legal[-1]  # a draw or a pass (muggins, when offered again, comes first)
        acted = frame["version"]
        await table.send({"type": "action", "id": msg_id, "action": action, "version": acted})


async def test_a_claimed_play_and_a_muggins_call_travel_the_socket_to_the_rules() -> None:
    code, tokens = await room_setup_async("fiveup", 2, {"muggins": True, "target": 1000}, humans=2)
    seats = [Table(code, token) for token in tokens]
    for table in seats:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    shared: dict[str, Any] = {"done": False, "acked": set()}
    await asyncio.wait_for(
        asyncio.gather(*(drive(t, random.Random(t.seat), shared) for t in seats)), timeout=120)
    for table in seats:
        await table.quiet(0.2)
    match = await database_sync_to_async(Match.objects.get)()
    stored = await database_sync_to_async(
        lambda: list(ActionRecord.objects.filter(match=match).order_by("seq").values_list("action", flat=True))
    )()
    assert any(a["type"] == "play" and a.get("claim") is True for a in stored)
    assert {"type": "muggins"} in stored
    rules, states = await database_sync_to_async(states_replayed)(code)
    final = max(states)
    for table in seats:
        assert verify_frames(table.frames, table.seat, rules, states) > 0
        version, seen = await database_sync_to_async(selectors.seat_view_get)(code, table.seat)
        latest = table.latest_state()
        assert latest is not None and (version, seen) == (final, latest["view"])
    events = [e for f in seats[0].states() for e in f["view"]["log"]]
    assert any(e["type"] == "muggins" for e in events)
    assert any(e["type"] == "play" and e.get("claim") is True for e in events)
    for table in seats:
        await table.close()
