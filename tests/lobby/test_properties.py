"""Properties of the write path and the frame parser, with hypothesis choosing the input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, get_rules
from lobby import protocol, selectors, services
from lobby.errors import LobbyError
from lobby.models import ActionRecord, Match

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
frames = st.one_of(
    st.text(max_size=60),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "sync", "chat", "ping", "bogus"])},
        optional={
            "id": st.text(max_size=70) | st.integers(),
            "action": json_values,
            "version": json_values,
            "text": st.text(max_size=250),
            "phrase": st.text(max_size=12) | st.sampled_from(list(protocol.PHRASES)),
        },
    ).map(json.dumps),
)


@given(frames)
def test_any_frame_parses_to_a_message_or_a_malformed_error(text: str) -> None:
    try:
        message = protocol.parse_inbound(text, 200)
    except protocol.InboundError as exc:
        assert protocol.error_of(exc)[0] == "malformed"
        return
    assert isinstance(
        message, protocol.ActionMessage | protocol.SyncMessage | protocol.ChatMessage | protocol.PingMessage
    )
    if isinstance(message, protocol.ChatMessage):
        assert 0 < len(message.text) <= 200 and message.text.isprintable()


junk_actions = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.just("play"), "tile": st.lists(st.integers(-1, 8), min_size=2, max_size=2)}
    ),
    st.just({"type": "draw"}),
    st.just({"type": "pass"}),
)
steps = st.lists(
    st.tuples(st.integers(0, 1), st.one_of(st.integers(0, 20), junk_actions), st.none() | st.integers(0, 3)),
    min_size=1,
    max_size=25,
)


@pytest.mark.django_db
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_every_submission_is_applied_once_or_refused_with_nothing_written(
    plan: list[tuple[int, Any, int | None]],
) -> None:
    room, host = services.room_create("draw", 2, {}, "Ann")
    services.seat_claim(room.code, "Bob")
    match = services.match_start(room.code, host)
    rules = get_rules("draw")
    accepted = 0
    for seat, choice, lag in plan:
        match.refresh_from_db()
        state = selectors.match_state(match)
        legal = rules.legal_actions(state) if rules.to_move(state) is not None else []
        action = legal[choice % len(legal)] if isinstance(choice, int) and legal else choice
        expected = None if lag is None else match.version - lag
        try:
            ack = services.action_submit(room.code, seat, action, expected_version=expected)
        except (LobbyError, IllegalAction):
            assert Match.objects.get(pk=match.pk).version == accepted
            assert ActionRecord.objects.filter(match=match).count() == accepted
            continue
        accepted += 1
        assert ack.version == accepted and not ack.duplicate
        assert seat == rules.to_move(state)
    match.refresh_from_db()
    assert match.version == accepted
    assert rules.dump(selectors.match_replay(match)) == rules.dump(selectors.match_state(match))
