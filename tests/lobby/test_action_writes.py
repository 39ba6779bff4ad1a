"""One write path for actions: racing for the same turn, each in its own thread with its
own database connection, as the sockets of two processes would send them, exactly one is
applied; the rows a process holds from its last commit are used only while current."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import get_rules
from lobby import selectors, services, state_cache
from lobby.errors import IdReusedError, NotYourTurnError, StaleVersionError
from lobby.models import ActionRecord, Match, Room
from lobby.runtime import runtime
from lobby.services import events
from tests.lobby.helpers import match_start, room_setup

pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 6


def race(call: Callable[[int], Any]) -> list[Any]:
    """`call(i)` in RACERS threads let go at once; each result or the exception raised."""
    barrier = threading.Barrier(RACERS)
    outcomes: list[Any] = [None] * RACERS

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = call(i)
        except Exception as error:  # the outcome under test
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def started_draw() -> tuple[str, int, list[Any]]:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    match_start(code, tokens[0])
    match = Match.objects.get(room__code=code)
    state = selectors.match_state(match)
    seat = get_rules("draw").to_move(state)
    assert seat is not None
    return code, seat, get_rules("draw").legal_actions(state)


def test_of_actions_racing_for_one_turn_exactly_one_is_applied() -> None:
    code, seat, legal = started_draw()
    outcomes = race(
        lambda i: services.action_submit(code, seat, legal[i % len(legal)], client_id=f"c{i}", expected_version=0)
    )
    applied = [o for o in outcomes if isinstance(o, services.Ack)]
    refused = [o for o in outcomes if isinstance(o, StaleVersionError | NotYourTurnError)]
    assert len(applied) == 1 and applied[0].version == 1
    assert len(refused) == RACERS - 1, outcomes
    assert list(ActionRecord.objects.filter(match__room__code=code).values_list("seq", flat=True)) == [1]
    assert Match.objects.get(room__code=code).version == 1


def test_one_action_resent_at_once_on_many_connections_is_applied_once() -> None:
    code, seat, legal = started_draw()
    outcomes = race(lambda i: services.action_submit(code, seat, legal[0], client_id="same"))
    assert all(isinstance(o, services.Ack) and o.version == 1 for o in outcomes), outcomes
    assert sum(not o.duplicate for o in outcomes) == 1
    assert ActionRecord.objects.filter(match__room__code=code).count() == 1


def play_next(code: str, client_id: str) -> services.Ack:
    match = Match.objects.get(room__code=code)
    state = selectors.match_state(match)
    rules = get_rules("draw")
    seat = rules.to_move(state)
    assert seat is not None
    return services.action_submit(code, seat, rules.legal_actions(state)[0], client_id=client_id)


def test_the_action_log_has_one_index_leading_with_the_match_not_two() -> None:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, ActionRecord._meta.db_table)
    indexed = [c["columns"] for c in found.values() if c["index"] or c["unique"]]
    assert ["match_id", "seq"] in indexed
    assert ["match_id"] not in indexed


def held_at(code: str, version: int) -> tuple[Any, Any]:
    """The match row and state as this process held them at `version`, the log gone on
    since: what a process sees when another one served the room's last actions."""
    match = Match.objects.select_related("room").get(room__code=code)
    match.version = version
    state = selectors.match_replay(match)
    match.to_move = get_rules("draw").to_move(state)
    match.result = get_rules("draw").result(state)
    return match, state


def hold(match: Any, state: Any) -> None:
    states = runtime().states
    states.forget_local()
    states.memo_put(match.room.code, match.number, match.version, state)
    states.held_put(match.room.code, state_cache.Held(match, state, match.room.revision, False))


def match_reads(queries: CaptureQueriesContext) -> list[str]:
    table = Match._meta.db_table
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]


def test_an_action_on_the_state_this_process_holds_reads_no_match_and_is_written() -> None:
    code, _, _ = started_draw()
    play_next(code, "a")
    assert runtime().states.held_get(code) is not None
    state = selectors.match_state(Match.objects.get(room__code=code))
    seat, action = get_rules("draw").to_move(state), get_rules("draw").legal_actions(state)[0]
    assert seat is not None
    with CaptureQueriesContext(connection) as queries:
        ack = services.action_submit(code, seat, action, client_id="b", expected_version=1)
    assert ack == services.Ack(2, duplicate=False)
    assert match_reads(queries) == []
    record = ActionRecord.objects.get(match__room__code=code, seq=2)
    assert (record.seat, record.client_id, record.action, record.actor) == (seat, "b", action, "seat")
    stored = Match.objects.get(room__code=code)
    replayed = selectors.match_replay(stored)
    assert (stored.version, stored.to_move) == (2, get_rules("draw").to_move(replayed))


def test_a_held_state_another_process_went_past_is_answered_from_the_database() -> None:
    code, _, _ = started_draw()
    play_next(code, "a")
    play_next(code, "b")
    match, state = held_at(code, 1)
    hold(match, state)
    legal = get_rules("draw").legal_actions(state)
    with pytest.raises(StaleVersionError):
        services.action_submit(code, match.to_move, legal[0], client_id="c", expected_version=1)
    assert list(ActionRecord.objects.filter(match__room__code=code).values_list("seq", flat=True)) == [1, 2]
    assert Match.objects.get(room__code=code).version == 2


def test_an_action_on_a_held_state_gone_past_is_applied_to_the_stored_one() -> None:
    code, _, _ = started_draw()
    play_next(code, "a")
    play_next(code, "b")
    hold(*held_at(code, 1))  # behind: the append at seq 2 fails, the database answers
    ack = play_next(code, "c")
    assert ack == services.Ack(3, duplicate=False)
    assert list(ActionRecord.objects.filter(match__room__code=code).values_list("seq", flat=True)) == [1, 2, 3]
    stored = Match.objects.get(room__code=code)
    assert stored.version == 3
    assert stored.to_move == get_rules("draw").to_move(selectors.match_replay(stored))


def test_an_id_resent_on_the_held_path_is_acknowledged_and_bound_to_its_action() -> None:
    code, _, _ = started_draw()
    match = Match.objects.get(room__code=code)
    state = selectors.match_state(match)
    rules = get_rules("draw")
    seat, legal = rules.to_move(state), rules.legal_actions(state)
    assert seat is not None
    assert services.action_submit(code, seat, legal[0], client_id="x") == services.Ack(1, duplicate=False)
    held = runtime().states.held_get(code)
    assert held is not None and held.match.version == 1
    # The held rows are current, and the seat is not to move: refused there, answered here.
    assert services.action_submit(code, seat, legal[0], client_id="x") == services.Ack(1, duplicate=True)
    with pytest.raises(IdReusedError):
        services.action_submit(code, seat, {"type": "not this"}, client_id="x")
    # The next seat's id reused at a later turn: the append's unique index refuses it.
    nxt = rules.to_move(selectors.match_state(Match.objects.get(room__code=code)))
    assert nxt is not None
    stored = selectors.match_state(Match.objects.get(room__code=code))
    played = rules.legal_actions(stored)[0]
    assert services.action_submit(code, nxt, played, client_id="y").version == 2
    later = selectors.match_state(Match.objects.get(room__code=code))
    # Another action under the same id (the same one again, as a second draw from the
    # boneyard can be, is acknowledged as a resend instead).
    other = next((action for action in rules.legal_actions(later) if action != played), None)
    if rules.to_move(later) == nxt and other is not None:
        with pytest.raises(IdReusedError):
            services.action_submit(code, nxt, other, client_id="y")
    assert ActionRecord.objects.filter(match__room__code=code).count() == 2


def test_the_action_that_ends_a_match_counts_the_room_change() -> None:
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    match_start(code, tokens[0])
    revision = Room.objects.get(code=code).revision
    played = 0
    while not Match.objects.get(room__code=code).is_over:
        play_next(code, f"{played}")
        played += 1
    assert Room.objects.get(code=code).revision == revision + 1
    assert Match.objects.get(room__code=code).version == played


def test_with_a_turn_timer_every_action_counts_the_room_change() -> None:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    Room.objects.filter(code=code).update(turn_seconds=60)
    match_start(code, tokens[0])
    revision = Room.objects.get(code=code).revision
    for client_id in ("a", "b"):
        play_next(code, client_id)
    assert Room.objects.get(code=code).revision == revision + 2


def test_a_seat_change_between_actions_on_held_rows_is_seen_by_the_next_one() -> None:
    """Whether a seat may be played for is held with the room's revision; a socket closing
    counts a revision, so the next action reads the seat to move again."""
    code, tokens = room_setup("draw", 2, {}, humans=2)
    match_start(code, tokens[0])
    for i, token in enumerate(tokens):
        services.connection_open(code, token, f"socket-{i}")
    movers: list[Any] = []

    def moved(sender: object, *, mover: Any, **_: Any) -> None:
        movers.append(mover)

    events.match_moved.connect(moved)
    try:
        play_next(code, "a")
        held = runtime().states.held_get(code)
        assert held is not None and held.ai_may_play is False
        assert movers == [None]  # every human here: nobody to play for, no seat read
        services.connection_close(code, "socket-1")
        play_next(code, "b")
        assert Match.objects.get(room__code=code).to_move is not None
        assert movers[-1] is not None  # the seat to move was read: a stand-in may be due
        held = runtime().states.held_get(code)
        assert held is not None and held.ai_may_play is True
    finally:
        events.match_moved.disconnect(moved)
