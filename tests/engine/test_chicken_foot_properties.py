"""Chicken Foot properties over random legal play: conservation, secrecy, replay, termination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.chicken_foot.state import FootState
from games.core.protocol import Rules
from games.core.tiles import Tile, full_set
from games.engine import get_rules
from tests.engine.penalty_support import (
    apply_checked,
    check_rebuild,
    check_refusals,
    check_views,
    dumps_of_a_run,
    logged_kinds,
    rebuilt_from_a_placement,
)

RULES: Rules[FootState] = get_rules("chicken_foot")

PRESETS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (4, {"double_blank": 25}),
    (6, {"double_blank": 0}),
    (8, {"set": 12}),
    (3, {"hand_size": 8}),
]
NOT_TILES = frozenset({"last_hand", "hand_sizes", "scores", "teams", "values", "points", "options"})


def _check_conservation(state: FootState) -> None:
    held = [t for h in state.hands for t in h] + list(state.boneyard)
    held += [t for b in state.branch_tiles for t in b]
    if state.led:
        held.append(Tile(state.lead, state.lead))
    assert Counter(held) == Counter(full_set(state.top))


def _check_views(state: FootState) -> None:
    for view in check_views(RULES, state, NOT_TILES).values():
        for action in view["legal"]:
            if "end" in action:
                assert action["end"] in {e["id"] for e in view["ends"] if e["playable"]}


@settings(max_examples=20, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8), steps=st.integers(10, 120))
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
        if step % 5 == 0:
            _check_views(state)
            check_rebuild(RULES, state)
        state = apply_checked(RULES, state, rng.choice(legal))


@settings(max_examples=10, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8))
def test_random_matches_end_within_their_bound(preset: tuple[int, dict[str, object]], seed: bytes) -> None:
    players, options = preset
    rng = random.Random(seed)
    state = RULES.new_match(players, options, seed=seed)
    # Each turn plays, draws or passes; passes between two plays or draws are fewer than
    # the players, so a hand takes at most (tiles) * (players + 1) actions.
    bound = (state.top + 1) * len(full_set(state.top)) * (players + 1)
    for _ in range(bound):
        if RULES.to_move(state) is None:
            break
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
    result = RULES.result(state)
    assert result is not None and result["hands"] == state.top + 1


@settings(max_examples=20, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), steps=st.integers(0, 50))
def test_anything_not_legal_is_refused_and_changes_nothing(seed: bytes, steps: int) -> None:
    rng = random.Random(seed)
    state = RULES.new_match(4, {}, seed=seed)
    for _ in range(steps):
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
    candidates: list[dict[str, object]] = [{"type": k} for k in ("draw", "pass", "end_turn")]
    for tile in full_set(9):
        candidates.append({"type": "play", "tile": [tile.high, tile.low]})
        for end in ("arm:0", "arm:3", "toe:0:1", "toe:2:2", "left"):
            candidates.append({"type": "play", "tile": [tile.high, tile.low], "end": end})
    malformed = ({"type": "play"}, {"type": "bid"}, {"type": "play", "tile": [1, 2, 3]}, None)
    check_refusals(RULES, state, candidates, malformed)


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8), steps=st.integers(0, 100))
def test_state_from_view_accepts_any_placement_of_the_hidden_tiles(
    preset: tuple[int, dict[str, object]], seed: bytes, steps: int
) -> None:
    players, options = preset
    rebuilt = rebuilt_from_a_placement(RULES, players, options, seed, steps)
    if rebuilt is None:
        return
    _check_conservation(rebuilt)


def test_same_seed_and_actions_give_the_same_states() -> None:
    assert dumps_of_a_run(RULES, 4, b"same", 3, 120) == dumps_of_a_run(RULES, 4, b"same", 3, 120)
    assert dumps_of_a_run(RULES, 4, b"same", 3, 120) != dumps_of_a_run(RULES, 4, b"other", 3, 120)


def test_logged_events_are_exactly_their_canonical_json() -> None:
    kinds: set[str] = set()
    for seed in (b"events", b"more events"):
        kinds |= logged_kinds(RULES, RULES.new_match(2, {}, seed=seed), random.Random(seed))
    assert kinds == {"play", "draw", "pass"}


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
        assert result["hands"] == state.top + 1
