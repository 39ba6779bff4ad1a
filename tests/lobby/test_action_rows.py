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
