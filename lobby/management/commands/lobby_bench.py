"""Measure the server's write path: actions per second through `services.action_submit`.

Plays whole matches with random legal moves (seeded) straight through the service, so the
figure covers the room lock, the cache, the engine, the log insert, the per-seat views
and the publish, without sockets. It prints one JSON object.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

import msgpack
from django.core.management.base import BaseCommand, CommandParser

from games.engine import get_rules
from lobby import protocol, realtime, selectors, services
from lobby.models import Room
from lobby.runtime import runtime


def _fanout_costs(code: str, players: int, rounds: int = 200) -> dict[str, float]:
    """Per action, for the seats and one spectator: publishing every view from the writer
    (compute and serialise once) against "version n is out" (each socket reads the cached
    state from Redis, decodes it and computes its own view)."""
    room = selectors.room_get_by_code(code)
    match = selectors.match_current(room)
    assert match is not None
    rules = get_rules(match.game)
    state = selectors.match_state(match)
    seats: list[int | None] = [*range(players), None]
    # A fresh state object per round, as every action makes one: views share work only
    # within one state.
    fresh = [rules.load(rules.dump(state)) for _ in range(rounds)]
    t0 = time.perf_counter()
    for one in fresh:
        frames = {
            realtime.frame_key(seat): realtime.frame_text(protocol.state_frame(match.version, view))
            for seat, view in ((seat, rules.view(one, seat)) for seat in seats)
        }
        msgpack.packb({"type": "lobby.views", "code": code, "version": match.version, "frames": frames})
    views_ms = (time.perf_counter() - t0) / rounds * 1000
    runtime().states.dump_put(code, match.number, match.version, rules.dump(state))
    t0 = time.perf_counter()
    for _ in range(rounds):
        for seat in seats:
            found = runtime().states.dump_get(code, match.number, match.version)
            assert found is not None
            rules.view(rules.load(found[1]), seat)
    notice_ms = (time.perf_counter() - t0) / rounds * 1000
    return {
        "publish_views_ms_per_action": round(views_ms, 3),
        "notice_then_fetch_ms_per_action": round(notice_ms, 3),
    }


class Command(BaseCommand):
    help = "Play matches through action_submit and print actions per second and latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="draw")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--matches", type=int, default=3)
        parser.add_argument("--seed", type=int, default=20260805)

    def handle(self, *args: Any, **opts: Any) -> None:
        rng = random.Random(opts["seed"])
        rules = get_rules(opts["game"])
        latencies: list[float] = []
        started = time.perf_counter()
        codes = []
        for _ in range(opts["matches"]):
            room, host = services.room_create(opts["game"], opts["players"], {}, "bench", grace_seconds=3600)
            codes.append(room.code)
            for seat in range(1, opts["players"]):
                services.seat_claim(room.code, f"p{seat}")
            match = services.match_start(room.code, host)
            version = 0
            to_move = match.to_move
            while to_move is not None:
                match.version = version
                state = selectors.match_state(match)
                action = rng.choice(rules.legal_actions(state))
                t0 = time.perf_counter()
                ack = services.action_submit(room.code, to_move, action, expected_version=version)
                latencies.append(time.perf_counter() - t0)
                version = ack.version
                match.refresh_from_db()
                to_move = match.to_move
        elapsed = time.perf_counter() - started
        fanout = _fanout_costs(codes[-1], opts["players"])
        runtime().background().cancel_timers()
        runtime().background().wait_idle(30)
        Room.objects.filter(code__in=codes).delete()
        latencies.sort()
        self.stdout.write(
            json.dumps(
                {
                    "game": opts["game"],
                    "players": opts["players"],
                    "matches": opts["matches"],
                    "actions": len(latencies),
                    "actions_per_s": round(len(latencies) / elapsed, 1),
                    "submit_ms_mean": round(statistics.fmean(latencies) * 1000, 2),
                    "submit_ms_p95": round(latencies[int(len(latencies) * 0.95)] * 1000, 2),
                    **fanout,
                }
            )
        )
