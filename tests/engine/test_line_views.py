"""Views and determinization: what each seat sees, and a full state rebuilt from a view."""

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import Rules
from games.core.tiles import Tile, full_set
from games.engine import get_rules

COMMON_KEYS = {"game", "players", "seat", "options", "hand_sizes", "boneyard", "to_move", "legal", "log",
               "scores", "teams", "hand_number", "commitment", "revealed", "last_hand", "match_over",
               "result", "ends", "layout"}

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}), ("draw", 2, {}), ("draw", 4, {"partnership": True}), ("draw", 3, {"spinner": True}),
    ("allfives", 2, {}), ("allfives", 4, {"partnership": True}), ("block", 3, {"set": 9})]


def random_state(
    game: str, players: int, options: dict[str, Any], seed: bytes, steps: int
) -> tuple[Rules[Any], Any]:
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if rules.to_move(state) is None:
            break
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    return rules, state


def true_tiles(rules: Rules[Any], state: Any) -> tuple[list[list[Tile]], list[Tile]]:
    dump = rules.dump(state)
    hands = [[Tile(*t) for t in hand] for hand in dump["hands"]]
    return hands, [Tile(*t) for t in dump["boneyard"]]


def test_views_carry_the_common_keys_and_a_spectator_has_no_hand() -> None:
    rules, state = random_state("draw", 2, {}, b"keys", 3)
    player = rules.view(state, 0)
    spectator = rules.view(state, None)
    assert COMMON_KEYS | {"hand"} <= set(player)
    assert set(spectator) >= COMMON_KEYS and "hand" not in spectator
    assert spectator["legal"] == []
    json.dumps(player)
    with pytest.raises(ValueError, match="no seat"):
        rules.view(state, 2)


def test_the_commitment_is_public_and_the_seed_only_after_the_hand() -> None:
    rules = get_rules("block")
    state = rules.new_match(2, {}, seed=b"commit")
    seed = state.seed.hex()
    text = json.dumps([rules.view(state, s) for s in (None, 0, 1)])
    assert seed not in text
    hand = state.hand_number
    rng = random.Random(1)
    while state.hand_number == hand:
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    view = rules.view(state, None)
    assert view["revealed"] == [seed]
    assert view["last_hand"]["seed"] == seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == view["last_hand"]["commitment"]


def test_live_matches_draw_a_secret_master_seed() -> None:
    rules = get_rules("draw")
    a, b = rules.new_match(2, {}, seed=None), rules.new_match(2, {}, seed=None)
    assert rules.view(a, None)["commitment"] != rules.view(b, None)["commitment"]
    assert rules.load(rules.dump(a)) == a


def test_same_seed_and_actions_give_the_same_states() -> None:
    first = random_state("allfives", 3, {}, b"same", 80)[1]
    second = random_state("allfives", 3, {}, b"same", 80)[1]
    assert first == second


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.binary(min_size=1, max_size=6), steps=st.integers(0, 60),
       viewer=st.integers(0, 3))
def test_state_from_view_with_the_true_tiles_plays_like_the_real_state(
    case: tuple[str, int, dict[str, Any]], seed: bytes, steps: int, viewer: int
) -> None:
    game, players, options = case
    rules, state = random_state(game, players, options, seed, steps)
    if rules.to_move(state) is None:
        return
    seat = viewer % players
    hands, boneyard = true_tiles(rules, state)
    rebuilt = rules.state_from_view(rules.view(state, seat), hands, boneyard)
    assert rules.view(rebuilt, seat) == rules.view(state, seat)
    rng = random.Random(steps)
    hand = state.hand_number
    while rules.to_move(state) is not None and state.hand_number == hand:
        legal = rules.legal_actions(state)
        assert rules.legal_actions(rebuilt) == legal
        for k in range(players):
            assert rules.view(rebuilt, k)["hand"] == rules.view(state, k)["hand"]
        action = rng.choice(legal)
        state, rebuilt = rules.apply(state, action), rules.apply(rebuilt, action)
    assert rules.scores(rebuilt) == rules.scores(state)
    assert rules.to_move(rebuilt) == rules.to_move(state) or state.hand_number != hand


def test_state_from_view_refuses_a_sample_that_contradicts_the_view() -> None:
    rules, state = random_state("draw", 2, {}, b"contradict", 4)
    hands, boneyard = true_tiles(rules, state)
    view = rules.view(state, 0)
    with pytest.raises(ValueError, match="viewer's hand"):
        rules.state_from_view(view, [hands[1], hands[0]], boneyard)
    with pytest.raises(ValueError, match="boneyard"):
        rules.state_from_view(view, hands, boneyard[1:])
    with pytest.raises(ValueError, match="twice"):
        rules.state_from_view(view, [hands[0], [*hands[1][:-1], hands[0][0]]], boneyard)


def test_state_from_view_keeps_the_lead_of_the_seat_to_move_whatever_the_sample() -> None:
    # The leader holds [5, 5], the highest double dealt; [6, 6] lies in the boneyard. A sample
    # that puts [6, 6] in the other hand must still have the leader lead [5, 5].
    rules = get_rules("draw")
    state = rules.new_match(2, {}, seed=b"lead1")
    view = rules.view(state, 1)
    assert view["legal"] == [{"type": "play", "tile": [5, 5]}]
    hands, boneyard = true_tiles(rules, state)
    six = boneyard.index(Tile(6, 6))
    boneyard[six], hands[0][0] = hands[0][0], boneyard[six]
    rebuilt = rules.state_from_view(view, hands, boneyard)
    assert rules.legal_actions(rebuilt) == view["legal"]
    assert rules.view(rebuilt, 1) == view


def test_a_sample_that_blocks_the_line_ends_the_hand_at_the_first_pass() -> None:
    # Seat 1 will be able to play [1, 3] in truth; a sample that hides it in the boneyard leaves
    # nobody able to play, which the real hand never shows: the pass ends it as blocked.
    rules = get_rules("block")
    state = rules.new_match(2, {}, seed=b"blocked-sample")
    dump = rules.dump(state)
    dump.update(hands=[[[0, 0], [2, 2]], [[1, 3], [5, 6]]], dealt=[[[0, 0], [2, 2]], [[1, 3], [5, 6]]],
                boneyard=[list(t) for t in full_set(6) if list(t) not in ([0, 0], [2, 2], [1, 3], [5, 6], [3, 4])],
                log=[{"type": "play", "seat": 1, "tile": [3, 4]}], to_move=0, lead=None)
    state = rules.load(dump)
    view = rules.view(state, 0)
    assert view["legal"] == [{"type": "pass"}]
    hands, boneyard = true_tiles(rules, state)
    one_three = hands[1].index(Tile(1, 3))
    k = next(i for i, t in enumerate(boneyard) if 3 not in t and 4 not in t)
    hands[1][one_three], boneyard[k] = boneyard[k], hands[1][one_three]
    rebuilt = rules.state_from_view(view, hands, boneyard)
    after = rules.apply(rebuilt, {"type": "pass"})
    assert rules.hand_index(after) == 1
    assert rules.view(after, 0)["last_hand"]["blocked"] is True
    assert rules.apply(state, {"type": "pass"}).hand_number == 0


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_fan_out_views_equal_views_built_alone_and_own_their_top_level(game: str, players: int, options: dict[str, Any]) -> None:
    rules, state = random_state(game, players, options, b"fan-out", 12)
    seats = [*range(players), None]
    # Each view alone: of its own copy of the state, so nothing is shared with another seat's.
    alone = [json.dumps(rules.view(rules.load(rules.dump(state)), seat)) for seat in seats]
    fanned = [rules.view(state, seat) for seat in seats]
    assert [json.dumps(v) for v in fanned] == alone
    assert len({id(v) for v in fanned}) == len(seats)
    assert len({id(v["legal"]) for v in fanned}) == len(seats)
    fanned[0]["seat"] = "changed"
    assert rules.view(state, seats[1])["seat"] == seats[1]
