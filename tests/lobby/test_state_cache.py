"""The state cache: written every few versions, and a reader that finds an older entry
replays only the actions after it, arriving at the state the whole log gives."""

from __future__ import annotations

import pytest

from games.engine import get_rules
from lobby import selectors, services, state_cache
from lobby.models import Match
from lobby.runtime import runtime
from tests.lobby.helpers import match_start, room_setup

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_older_cache_entry_is_brought_up_to_date_from_the_log() -> None:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    match_start(code, tokens[0])
    rules = get_rules("draw")
    for _ in range(state_cache.DUMP_EVERY + 3):
        match = Match.objects.get(room__code=code)
        state = selectors.match_state(match)
        seat = rules.to_move(state)
        services.action_submit(code, seat, rules.legal_actions(state)[0])
    flushed()
    match = Match.objects.get(room__code=code)
    stored = runtime().states.dump_get(code, match.number, match.version)
    assert stored is not None
    assert stored[0] == state_cache.DUMP_EVERY < match.version
    runtime().states.forget_local()
    assert rules.dump(selectors.match_state(match)) == rules.dump(selectors.match_replay(match))


def test_an_entry_newer_than_the_stored_match_is_never_used() -> None:
    code, tokens = room_setup("draw", 2, {}, humans=2)
    match_start(code, tokens[0])
    flushed()
    match = Match.objects.get(room__code=code)
    runtime().redis().hset(state_cache.key(code, match.number), mapping={"v": 999, "s": "{}"})
    runtime().states.forget_local()
    assert runtime().states.dump_get(code, match.number, match.version) is None
    assert rules_dump(match) == get_rules("draw").dump(selectors.match_replay(match))


def flushed() -> None:
    """Every cache write of this process done (the grace timers of the absent players dropped)."""
    runtime().background().cancel_timers()
    assert runtime().background().wait_idle(10)


def rules_dump(match: Match) -> dict[str, object]:
    return get_rules(match.game).dump(selectors.match_state(match))
