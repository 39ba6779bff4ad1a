"""One writer per room: actions racing for the same turn, each in its own thread with its
own database connection, as the sockets of two processes would send them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import get_rules
from lobby import selectors, services, state_cache
from lobby.errors import NotYourTurnError, StaleVersionError
from lobby.models import ActionRecord, Match, Room
from lobby.services import action_rows, held_rows
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
    return code, get_rules("draw").to_move(state), get_rules("draw").legal_actions(state)


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
    return services.action_submit(code, rules.to_move(state), rules.legal_actions(state)[0], client_id=client_id)


postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="prepared statements are PostgreSQL's")


@postgres_only
def test_a_session_that_lost_its_prepared_statements_prepares_them_again() -> None:
    code, _, _ = started_draw()
    assert play_next(code, "a").version == 1
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # what a pooler's DISCARD ALL leaves behind
    assert play_next(code, "b").version == 2
    assert list(ActionRecord.objects.filter(match__room__code=code).values_list("seq", flat=True)) == [1, 2]


@postgres_only
def test_a_session_holding_statements_this_process_forgot_prepares_them_afresh() -> None:
    code, _, _ = started_draw()
    assert play_next(code, "a").version == 1
    action_rows._prepared_on.clear()  # as after a reload: PREPARE again meets the old ones
    assert play_next(code, "b").version == 2
    assert play_next(code, "c").version == 3
    assert Match.objects.get(room__code=code).version == 3


@postgres_only
def test_each_session_prepares_the_action_statements_once() -> None:
    code, _, _ = started_draw()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # a fresh session, though a pool lent this one before
    action_rows._prepared_on.discard(connection.connection)
    with CaptureQueriesContext(connection) as first:
        play_next(code, "a")
    session = connection.connection
    with CaptureQueriesContext(connection) as later:
        play_next(code, "b")
        play_next(code, "c")
    assert connection.connection is session
    prepares = [q["sql"].count("PREPARE ") for q in [*first.captured_queries, *later.captured_queries]]
    assert sum(prepares) == len(action_rows._PREPARED)
    assert any("EXECUTE lobby_action_append" in q["sql"] for q in later.captured_queries)


def test_the_action_log_has_one_index_leading_with_the_match_not_two() -> None:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, ActionRecord._meta.db_table)
    indexed = [c["columns"] for c in found.values() if c["index"] or c["unique"]]
    assert ["match_id", "seq"] in indexed
    assert ["match_id"] not in indexed


def held_at(code: str, version: int) -> tuple[Any, Any]:
    """The rows and state as this process held them at `version`, the log gone on since:
    what a process sees when another one served the room's last actions."""
    match = Match.objects.select_related("room").get(room__code=code)
    match.version = version
    state = selectors.match_replay(match)
    match.to_move = get_rules("draw").to_move(state)
    match.result = get_rules("draw").result(state)
    return match, state


def hold(match: Any, state: Any) -> None:
    held_rows.held_forget()
    state_cache.forget_local()
    state_cache.memo_put(match.room.code, match.number, match.version, state)
    held_rows.held_put(match.room, match)


@postgres_only
def test_an_action_on_the_state_this_process_holds_is_written_in_one_round_trip() -> None:
    code, _, _ = started_draw()
    play_next(code, "a")  # the session's statements prepared
    state = selectors.match_state(Match.objects.get(room__code=code))
    seat, action = get_rules("draw").to_move(state), get_rules("draw").legal_actions(state)[0]
    with CaptureQueriesContext(connection) as queries:
        ack = services.action_submit(code, seat, action, client_id="b", expected_version=1)
    assert ack == services.Ack(2, duplicate=False)
    sent = [q["sql"] for q in queries.captured_queries]
    assert sum(sql.startswith("BEGIN; EXECUTE lobby_action_lock(") for sql in sent) == 1, sent
    assert not any("lobby_action_match" in sql for sql in sent), sent
    record = ActionRecord.objects.get(match__room__code=code, seq=2)
    assert (record.seat, record.client_id, record.action) == (seat, "b", action)
    stored = Match.objects.get(room__code=code)
    replayed = selectors.match_replay(stored)
    assert (stored.version, stored.to_move) == (2, get_rules("draw").to_move(replayed))


@postgres_only
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


@postgres_only
def test_the_one_round_trip_writes_nothing_on_a_match_gone_on_or_a_client_id_seen() -> None:
    code, _, _ = started_draw()
    play_next(code, "a")
    played = Match.objects.get(room__code=code)
    for version, client_id in ((1, "fresh"), (2, "a")):
        moved = Match.objects.get(pk=played.pk)
        moved.version = version  # 1: the log is already at 1; 2: "a" is this seat's
        seat = ActionRecord.objects.get(match=moved).seat
        appended = action_rows.append_if_current(
            moved, seat, {"type": "pass"}, client_id=client_id, actor="seat", now=played.moved_at
        )
        assert appended is None
        assert ActionRecord.objects.filter(match=moved).count() == 1
        assert Match.objects.get(pk=moved.pk).version == 1
        assert connection.connection.info.transaction_status == 0  # nothing left open


@postgres_only
def test_the_action_that_ends_a_match_takes_the_locked_path_and_counts_the_room_change() -> None:
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    match_start(code, tokens[0])
    revision = Room.objects.get(code=code).revision
    rules = get_rules("draw")
    statements: list[list[str]] = []
    while True:
        match = Match.objects.get(room__code=code)
        if match.is_over:
            break
        state = selectors.match_state(match)
        with CaptureQueriesContext(connection) as queries:
            seat, action = rules.to_move(state), rules.legal_actions(state)[0]
            services.action_submit(code, seat, action, client_id=f"{match.version}")
        statements.append([q["sql"] for q in queries.captured_queries])
    *playing, last = statements
    assert all(any("EXECUTE lobby_action_append(" in sql for sql in sent) for sent in playing)
    assert any("EXECUTE lobby_action_match(" in sql for sql in last)
    assert not any("EXECUTE lobby_action_append(" in sql for sql in last)
    assert Room.objects.get(code=code).revision == revision + 1
    assert Match.objects.get(room__code=code).version == len(statements)


@postgres_only
def test_with_a_turn_timer_every_action_takes_the_locked_path_and_counts_the_room_change() -> None:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    Room.objects.filter(code=code).update(turn_seconds=60)
    match_start(code, tokens[0])
    revision = Room.objects.get(code=code).revision
    for client_id in ("a", "b"):
        with CaptureQueriesContext(connection) as queries:
            play_next(code, client_id)
        sent = [q["sql"] for q in queries.captured_queries]
        assert any("EXECUTE lobby_action_match(" in sql for sql in sent)
        assert not any("EXECUTE lobby_action_append(" in sql for sql in sent)
    assert Room.objects.get(code=code).revision == revision + 2
