"""Reviews over the HTTP API, with real Redis and a real database: who may read a seat's
review and when, 202 while it is worked out in the background, then each decision with a
choice, Hard's move from the seat's view then, and the loss by Hard's estimate."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.core.actions import normalise_action
from games.engine import get_rules
from lobby.models import Match, Review
from lobby.reviews import SEEN_MATCHES, Reviews, reviews
from tests.lobby.helpers import Table, api, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db(transaction=True)


def get(path: str, token: str | None = None) -> Any:
    return api(Client(), "get", path, token=token)


async def play_out(tables: list[Table], rng: random.Random) -> None:
    """Random legal moves for every seat until the match is over."""
    acted: dict[int | None, int] = {}
    while True:
        for table in tables:
            frame = table.latest_state()
            view = frame["view"] if frame else None
            if view and view["match_over"]:
                return
            if view and view["legal"] and acted.get(table.seat, -1) < frame["version"]:  # type: ignore[index]
                acted[table.seat] = frame["version"]  # type: ignore[index]
                await table.send({"type": "action", "id": f"{table.seat}-{frame['version']}",  # type: ignore[index]
                                  "action": rng.choice(view["legal"]), "version": frame["version"]})  # type: ignore[index]
        for table in tables:
            await table.quiet(0.05)


async def started(game: str) -> tuple[str, list[str], list[Table]]:
    """A two-player match of one hand's target, both seats connected with their first state."""
    code, tokens = await room_setup_async(game, 2, {"target": 1}, 2)
    tables = [Table(code, token) for token in tokens]
    for table in tables:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    for table in tables:
        await table.until("state")
    return code, tokens, tables


async def reviewed(path: str) -> Any:
    """The review at `path` once worked out: 202 until then."""
    answer = await database_sync_to_async(get)(path)
    for _ in range(300):
        if answer.status_code == 200:
            break
        assert answer.status_code == 202 and answer.json() == {"status": "computing"}
        await asyncio.sleep(0.2)
        answer = await database_sync_to_async(get)(path)
    assert answer.status_code == 200, answer.content
    return answer.json()


async def test_a_review_is_the_seats_until_the_end_then_anyones_and_prices_each_choice(settings: Any) -> None:
    settings.LOBBY_REVIEW_AFTER_HAND = True  # the hand's end queues its review, as in production
    code, tokens, tables = await started("block")
    path = f"/api/rooms/{code}/matches/0/review/?seat=0"
    other = await database_sync_to_async(get)(path, tokens[1])
    assert other.status_code == 403 and other["Content-Type"] == "application/problem+json"
    assert (await database_sync_to_async(get)(path)).status_code == 401
    own = await database_sync_to_async(get)(path, tokens[0])
    assert own.status_code == 200 and own.json() == [], "no finished hand yet: nothing to review"
    assert (await database_sync_to_async(get)(f"/api/rooms/{code}/matches/3/review/?seat=0")).status_code == 404
    assert (await database_sync_to_async(get)(f"/api/rooms/{code}/matches/0/review/?seat=5", tokens[0])).status_code == 404
    assert (await database_sync_to_async(get)(f"/api/rooms/{code}/matches/0/review/?seat=x")).status_code == 400
    await play_out(tables, random.Random(4))
    items = await reviewed(path)
    record = (await database_sync_to_async(get)(f"/api/rooms/{code}/matches/0/")).json()
    rules = get_rules("block")
    master = await database_sync_to_async(lambda: bytes(Match.objects.get(room__code=code, number=0).seed))()
    state = rules.new_match(2, record["options"], seed=master)
    choices = []  # a hand that scores nothing (a blocked tie) is followed by another
    for hand, played in enumerate(record["hands"]):
        for move, (seat, action) in enumerate(played["actions"]):
            if seat == 0 and len(rules.legal_actions(state)) > 1:
                choices.append((hand, move, action, rules.legal_actions(state)))
            state = rules.apply(state, action)
    assert [(i["hand"], i["move"]) for i in items] == [(h, m) for h, m, _, _ in choices]
    for item, (_, _, action, legal) in zip(items, choices, strict=True):
        assert set(item) == {"hand", "move", "played", "best", "loss", "why", "unit"}
        assert item["unit"] == "points" and item["played"] == action
        assert normalise_action(item["best"]) in legal and item["loss"] >= 0 and item["why"]
        if normalise_action(item["best"]) == normalise_action(action):
            assert item["loss"] == 0
    for table in tables:
        await table.close()
    assert await asyncio.to_thread(reviews().wait_idle, 30)


async def test_past_the_backlog_a_finished_hand_is_reviewed_when_asked_for(settings: Any) -> None:
    """A server busier than its review job can follow stops queueing hands as they end; the
    hand is still reviewed, when someone asks for it."""
    settings.LOBBY_REVIEW_AFTER_HAND = True
    settings.LOBBY_REVIEW_BACKLOG = 0
    code, _, tables = await started("draw")
    await play_out(tables, random.Random(8))
    assert await asyncio.to_thread(reviews().wait_idle, 30)
    kept = await database_sync_to_async(lambda: Review.objects.filter(match__room__code=code).count())()
    assert kept == 0, "nothing was queued as the hand ended"
    path = f"/api/rooms/{code}/matches/0/review/?seat=1"
    assert (await database_sync_to_async(get)(path)).status_code == 202, "asking queues the hand"
    items = await reviewed(path)
    assert all(i["unit"] == "points" and i["loss"] >= 0 for i in items)
    for table in tables:
        await table.close()
    assert await asyncio.to_thread(reviews().wait_idle, 30)


async def test_a_review_someone_asks_for_goes_ahead_of_hands_queued_as_they_ended(settings: Any) -> None:
    """The queue runs one job at a time; hands queued as they ended wait behind a review a
    person asked for, so the replay page's review does not wait for the whole backlog."""
    settings.LOBBY_REVIEW_AFTER_HAND = False  # this test queues by hand
    code_a, _, tables_a = await started("draw")
    code_b, _, tables_b = await started("draw")
    await play_out(tables_a, random.Random(1))
    await play_out(tables_b, random.Random(2))
    first, second = await database_sync_to_async(
        lambda: [Match.objects.get(room__code=c, number=0) for c in (code_a, code_b)])()
    hands_a = len((await database_sync_to_async(get)(f"/api/rooms/{code_a}/matches/0/")).json()["hands"])
    queue = reviews()
    # The first job starts at once and holds the thread; the rest of match A's hands queue behind it.
    queue.want(first.pk, 0, list(range(hands_a)))
    queue.want(first.pk, 1, list(range(hands_a)))
    queue.want(second.pk, 0, [0], asked=True)
    assert await asyncio.to_thread(queue.wait_idle, 60)
    done = await database_sync_to_async(
        lambda: list(Review.objects.filter(match__in=[first, second]).order_by("pk").values_list("match", "seat")))()
    assert len(done) == 2 * hands_a + 1
    assert done.index((second.pk, 0)) <= 1, f"the asked-for review ran only after {done.index((second.pk, 0))} others"
    for table in tables_a + tables_b:
        await table.close()


async def test_a_busy_process_reviews_finished_hands_once_quiet_and_asked_ones_at_once(settings: Any) -> None:
    """A process busy with play holds back the hands queued as they ended (the search would
    share the machine with the players); a review someone asks for does not wait, and the
    held-back hand is reviewed once the process is quiet."""
    settings.LOBBY_REVIEW_AFTER_HAND = False  # this test queues by hand
    code, _, tables = await started("draw")
    await play_out(tables, random.Random(3))
    match = await database_sync_to_async(lambda: Match.objects.get(room__code=code, number=0))()

    def kept(seat: int) -> bool:
        return Review.objects.filter(match=match, seat=seat, hand=0).exists()

    queue = reviews()
    stop = threading.Event()

    def burn() -> None:
        """This process busy (a third of a core, over the tenth that holds hands back), with
        the rest of the machine left to the review worker: it runs at the idle policy, and a
        burner taking a whole core beside a loaded machine starved it past any timeout."""
        while not stop.is_set():
            until = time.monotonic() + 0.01
            while time.monotonic() < until:
                sum(range(2000))
            stop.wait(0.02)

    burner = threading.Thread(target=burn, name="busy")
    burner.start()
    try:
        queue.want(match.pk, 0, [0])
        assert not await asyncio.to_thread(queue.wait_idle, 3), "the hand waits while the process is busy"
        queue.want(match.pk, 1, [0], asked=True)
        for _ in range(1800):
            if await database_sync_to_async(kept)(1):
                break
            await asyncio.sleep(0.1)
        assert await database_sync_to_async(kept)(1), "the asked-for review did not wait"
        assert not await database_sync_to_async(kept)(0)
    finally:
        stop.set()
        burner.join()
    assert await asyncio.to_thread(queue.wait_idle, 60)
    assert await database_sync_to_async(kept)(0), "reviewed once the process was quiet"
    for table in tables:
        await table.close()


def test_the_finished_hands_a_process_counts_are_kept_for_its_most_recent_matches_only() -> None:
    """A match that ends in another process never tells this one it is over: its count must
    not stay for good (a server that runs for weeks would keep one per match)."""
    queue = Reviews()
    for match_id in range(SEEN_MATCHES + 500):
        assert queue.saw(match_id, 1) is None
    assert queue.saw(SEEN_MATCHES + 499, 2) == 1
    assert len(queue.seen) == SEEN_MATCHES
    assert queue.saw(0, 1) is None  # the oldest went
    assert queue.saw(SEEN_MATCHES + 499, None) == 2  # over: forgotten
    assert queue.saw(SEEN_MATCHES + 499, 1) is None
