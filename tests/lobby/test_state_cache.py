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
        assert seat is not None
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


def test_the_memo_keeps_one_state_per_room_across_rematches() -> None:
    """A finished match's state goes when the room's next match starts: a process that
    serves tables for days holds one state per room, not one per match ever played."""
    code, tokens = room_setup("draw", 2, {"target": 1}, humans=2)
    match_start(code, tokens[0])
    rules = get_rules("draw")
    states = runtime().states
    states.forget_local()
    for number in range(2):
        match = Match.objects.get(room__code=code, number=number)
        state = selectors.match_state(match)
        while (seat := rules.to_move(state)) is not None:
            services.action_submit(code, seat, rules.legal_actions(state)[0])
            match.refresh_from_db()
            state = selectors.match_state(match)
        assert states.memo_rooms() == 1
        services.match_start(code, tokens[0], rematch=True)
    current = Match.objects.filter(room__code=code).order_by("-number").first()
    assert current is not None and current.number == 2
    assert states.memo_rooms() == 1
    assert states.memo_get(code, 1, match.version) is None
    assert states.memo_get(code, current.number, current.version) is not None


def test_an_older_match_read_never_replaces_the_newest_state() -> None:
    states = runtime().states
    states.forget_local()
    states.memo_put("room", 4, 10, "newest")
    states.memo_put("room", 3, 90, "a record of an earlier match")
    states.memo_put("room", 4, 9, "an older version")
    assert states.memo_get("room", 4, 10) == "newest"
    assert states.memo_get("room", 3, 90) is None
    assert states.memo_rooms() == 1
    for index in range(state_cache.MEMO_SIZE + 5):
        states.memo_put(f"other{index}", 0, 1, index)
    assert states.memo_rooms() == state_cache.MEMO_SIZE
    states.forget_local()
