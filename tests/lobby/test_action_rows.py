"""One writer per room: actions racing for the same turn, each in its own thread with its
own database connection, as the sockets of two processes would send them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.engine import get_rules
from lobby import selectors, services
from lobby.errors import NotYourTurnError, StaleVersionError
from lobby.models import ActionRecord, Match
from lobby.services import action_rows
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
    from django.test.utils import CaptureQueriesContext

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
    assert any("EXECUTE lobby_action_insert" in q["sql"] for q in later.captured_queries)


def test_the_action_log_has_one_index_leading_with_the_match_not_two() -> None:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, ActionRecord._meta.db_table)
    indexed = [c["columns"] for c in found.values() if c["index"] or c["unique"]]
    assert ["match_id", "seq"] in indexed
    assert ["match_id"] not in indexed
