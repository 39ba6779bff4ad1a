"""Mexican Train properties over random legal play: conservation, secrecy, replay, termination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import Rules
from games.core.tiles import full_set
from games.engine import get_rules
from games.mexican_train.state import TrainState
from tests.engine.penalty_support import (
    apply_checked,
    check_rebuild,
    check_refusals,
    check_views,
    dumps_of_a_run,
    logged_kinds,
    rebuilt_from_a_placement,
)

RULES: Rules[TrainState] = get_rules("mexican_train")

PRESETS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (4, {"first_turn": "single", "double_blank": 50}),
    (7, {}),
    (10, {"first_turn": "single"}),
    (3, {"set": 6}),
    (5, {"set": 9, "rounds": 4}),
    (3, {"draw_until_play": True, "double_blank": 25, "rounds": 3}),
]


NOT_TILES = frozenset({"last_hand", "hand_sizes", "scores", "teams", "values", "points", "opened", "options"})


def _check_conservation(state: TrainState) -> None:
    held = [t for h in state.hands for t in h] + list(state.boneyard) + [t for ln in state.lines for t in ln]
    engine = (state.engine, state.engine)
    assert Counter(held) + Counter([engine]) == Counter(full_set(state.top))


def _check_views(state: TrainState) -> None:
    check_views(RULES, state, NOT_TILES)


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8), steps=st.integers(20, 160))
def test_random_play_keeps_every_invariant(preset: tuple[int, dict[str, object]], seed: bytes, steps: int) -> None:
    players, options = preset
    rng = random.Random(seed)
    state = RULES.new_match(players, options, seed=seed)
    for step in range(steps):
        if RULES.to_move(state) is None:
            break
        legal = RULES.legal_actions(state)
        assert legal, "someone is to move, so something is legal"
        _check_conservation(state)
        if step % 7 == 0:
            _check_views(state)
            check_rebuild(RULES, state)
        state = apply_checked(RULES, state, rng.choice(legal))


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8))
def test_random_matches_end_within_their_bound(preset: tuple[int, dict[str, object]], seed: bytes) -> None:
    players, options = preset
    rng = random.Random(seed)
    state = RULES.new_match(players, options, seed=seed)
    top = state.top
    bound = state.rounds * (2 * len(full_set(top)) + 3 * players * (players + 2))
    for _ in range(bound):
        if RULES.to_move(state) is None:
            break
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
    result = RULES.result(state)
    assert result is not None, "the match ended within its bound"
    assert result["hands"] == state.rounds
    assert len(RULES.view(state, None)["revealed"]) == state.rounds


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), steps=st.integers(0, 60))
def test_anything_not_legal_is_refused_and_changes_nothing(seed: bytes, steps: int) -> None:
    rng = random.Random(seed)
    state = RULES.new_match(4, {}, seed=seed)
    for _ in range(steps):
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
    assert state.turn is not None
    candidates: list[dict[str, object]] = [{"type": k} for k in ("draw", "pass", "end_turn")]
    for tile in full_set(12):
        for end in ("train:0", "train:1", "train:3", "mexican", "train:9"):
            candidates.append({"type": "play", "tile": [tile.high, tile.low], "end": end})
    malformed = ({"type": "play"}, {"type": "bid", "tile": [1, 2]}, {"type": "play", "tile": [1]}, "pass")
    check_refusals(RULES, state, candidates, malformed)


def test_same_seed_and_actions_give_the_same_states() -> None:
    assert dumps_of_a_run(RULES, 4, b"same", 7, 300) == dumps_of_a_run(RULES, 4, b"same", 7, 300)
    assert dumps_of_a_run(RULES, 4, b"same", 7, 300) != dumps_of_a_run(RULES, 4, b"other", 7, 300)


def test_live_matches_draw_a_fresh_master_seed() -> None:
    a = RULES.new_match(2, {}, seed=None)
    b = RULES.new_match(2, {}, seed=None)
    assert a.master != b.master and len(a.master) == 32
    assert RULES.view(a, 0)["commitment"] != RULES.view(b, 0)["commitment"]


@pytest.mark.parametrize(
    ("players", "options", "word"),
    [
        (5, {"set": 6}, "'players'"),
        (7, {"set": 9}, "'players'"),
        (11, {}, "'players'"),
        (1, {}, "'players'"),
        (4, {"set": 15}, "'set'"),
        (4, {"hand_size": 30}, "'hand_size'"),
        (2, {"set": 6, "hand_size": 14}, "'hand_size'"),
        (4, {"rounds": 14}, "'rounds'"),
        (4, {"rounds": 0}, "'rounds'"),
        (4, {"double_blank": 30}, "'double_blank'"),
        (4, {"draw_until_play": "yes"}, "'draw_until_play'"),
        (4, {"draw_until_play": 1}, "'draw_until_play'"),
        (4, {"first_turn": "many"}, "'first_turn'"),
        (4, {"spinner": True}, "'spinner'"),
    ],
)
def test_bad_options_name_the_option(players: int, options: dict[str, object], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        RULES.new_match(players, options, seed=b"x")


@pytest.mark.parametrize(
    ("top", "players", "size"),
    [(12, 2, 15), (12, 4, 15), (12, 5, 12), (12, 6, 12), (12, 7, 10), (12, 8, 10), (12, 9, 8), (12, 10, 8),
     (9, 4, 10), (9, 6, 7), (6, 2, 5), (6, 4, 5)],
)
def test_hands_follow_the_deal_table(top: int, players: int, size: int) -> None:
    state = RULES.new_match(players, {"set": top}, seed=b"deal")
    view = RULES.view(state, 0)
    assert view["hand_sizes"] == [size] * players
    assert view["boneyard"] == len(full_set(top)) - 1 - size * players
    assert view["options"] == {
        "set": top, "rounds": top + 1, "hand_size": size, "double_blank": 0, "first_turn": "multiple",
        "draw_until_play": False,
    }


def test_explicit_hand_size_overrides_the_table() -> None:
    state = RULES.new_match(2, {"hand_size": 12}, seed=b"deal")
    assert [len(h) for h in state.hands] == [12, 12]


@settings(max_examples=20, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8), steps=st.integers(0, 120))
def test_state_from_view_accepts_any_placement_of_the_hidden_tiles(
    preset: tuple[int, dict[str, object]], seed: bytes, steps: int
) -> None:
    players, options = preset
    rebuilt = rebuilt_from_a_placement(RULES, players, options, seed, steps)
    if rebuilt is None:
        return
    _check_conservation(rebuilt)
    for action in RULES.legal_actions(rebuilt)[:3]:
        RULES.view(RULES.apply(rebuilt, action), rebuilt.turn)


def test_logged_events_are_exactly_their_canonical_json() -> None:
    state = RULES.new_match(4, {"double_blank": 50}, seed=b"events")
    kinds = logged_kinds(RULES, state, random.Random(11))
    assert kinds == {"play", "draw", "pass", "marker", "end_turn"}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), PRESETS)
def test_many_whole_matches_conserve_tiles_and_end(players: int, options: dict[str, object]) -> None:
    for i in range(40):
        rng = random.Random(i)
        state = RULES.new_match(players, options, seed=i.to_bytes(2, "big"))
        while RULES.to_move(state) is not None:
            _check_conservation(state)
            state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
        result = RULES.result(state)
        assert result is not None
        assert result["hands"] == state.rounds
