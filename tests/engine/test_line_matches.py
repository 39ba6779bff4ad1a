"""Whole matches of Block, Draw and All Fives under every option preset, played at random.

Each step checks the protocol promises: a legal action exists whenever someone is to move, views
are JSON and hide what they must, `load(dump(s)) == s`, and the match ends.
"""

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.actions import normalise_action
from games.core.errors import IllegalAction
from games.core.protocol import Rules
from games.core.tiles import full_set
from games.engine import get_rules
from games.line.moves import is_legal

Preset = tuple[str, int, dict[str, Any]]

PRESETS: list[Preset] = [
    ("block", 2, {}),
    ("block", 3, {"scoring": "opponents"}),
    ("block", 4, {"partnership": True, "hand_size": 7}),
    ("block", 4, {"spinner": True, "double_blank": 50}),
    ("draw", 2, {}),
    ("draw", 3, {"next_lead": "highest_double"}),
    ("draw", 4, {"partnership": True}),
    ("draw", 2, {"set": 9, "boneyard_reserve": 0, "spinner": True}),
    ("draw", 6, {"set": 12, "target": 40}),
    ("allfives", 2, {}),
    ("allfives", 3, {"spinner": False}),
    ("allfives", 4, {"partnership": True, "round_to_five": False}),
    ("allfives", 2, {"set": 12, "target": 150}),
]


def hidden_tiles(rules: Rules[Any], state: Any, seat: int | None) -> list[tuple[int, ...]]:
    """Tiles the seat must not see: other hands and the boneyard."""
    dump = rules.dump(state)
    hidden = [tuple(t) for t in dump["boneyard"]]
    for k, hand in enumerate(dump["hands"]):
        if k != seat:
            hidden += [tuple(t) for t in hand]
    return hidden


def play_match(
    game: str, players: int, options: dict[str, Any], seed: bytes, pick: Callable[[int], int]
) -> tuple[Rules[Any], Any]:
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    steps = 0
    while rules.to_move(state) is not None:
        legal = rules.legal_actions(state)
        assert legal
        seat = rules.to_move(state)
        assert seat is not None
        view = rules.view(state, seat)
        assert view["legal"] == legal
        assert rules.view(state, (seat + 1) % players)["legal"] == []
        text = json.dumps(view)
        assert rules.view(state, None).get("hand") is None
        assert state.seed.hex() not in text
        assert json.dumps(view["hand"]) != "null"
        action = legal[pick(len(legal))]
        nxt = rules.apply(state, action)
        assert rules.load(json.loads(json.dumps(rules.dump(nxt)))) == nxt
        state = nxt
        steps += 1
        assert steps < 20000
    return rules, state


@pytest.mark.parametrize(("game", "players", "options"), PRESETS)
def test_random_matches_end_with_a_result(game: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(7)
    rules, state = play_match(game, players, options, f"{game}{players}".encode(), rng.randrange)
    result = rules.result(state)
    assert result is not None
    target = rules.view(state, 0)["options"]["target"]
    assert max(result["scores"]) >= target
    assert result["scores"] == rules.scores(state)
    assert result["winner"] == result["scores"].index(max(result["scores"]))
    view = rules.view(state, None)
    assert view["match_over"] and view["to_move"] is None and view["result"] == result
    assert len(view["revealed"]) == result["hands"]


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), preset=st.sampled_from(PRESETS), data=st.data())
def test_views_never_show_hidden_tiles(seed: bytes, preset: Preset, data: st.DataObject) -> None:
    game, players, options = preset
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    for _ in range(40):
        if rules.to_move(state) is None:
            break
        for seat in [None, *range(players)]:
            view = rules.view(state, seat)
            assert state.seed.hex() not in json.dumps(view)
            own = {tuple(t) for t in view.get("hand", [])}
            assert own.isdisjoint(hidden_tiles(rules, state, seat))
            on_table = {tuple(e["tile"]) for e in view["log"] if e["type"] == "play"}
            visible = own | on_table
            mentioned = {tuple(a["tile"]) for a in view["legal"] if "tile" in a}
            layout = view["layout"]
            if layout["lead"]:
                mentioned.add(tuple(layout["lead"]["tile"]))
            mentioned |= {tuple(t["tile"]) for arm in layout["arms"].values() for t in arm}
            assert mentioned <= visible
            for tile in hidden_tiles(rules, state, seat):
                assert tile not in visible
            assert sum(view["hand_sizes"]) + view["boneyard"] + len(on_table) == len(
                full_set(view["options"]["set"]))
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[data.draw(st.integers(0, len(legal) - 1))])


def candidate_actions(top: int) -> list[dict[str, Any]]:
    """Every action shape a client could send: each tile on each end, lead form, draw, pass."""
    out: list[dict[str, Any]] = [{"type": "draw"}, {"type": "pass"}, {"type": "end_turn"}, {"type": "bid", "value": 30}]
    for tile in full_set(top):
        out.append({"type": "play", "tile": [tile.high, tile.low]})
        out += [{"type": "play", "tile": list(tile), "end": end} for end in ("left", "right", "up", "down", "x")]
    return out


@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), preset=st.sampled_from(PRESETS), data=st.data())
def test_every_action_either_applies_or_is_refused_without_change(seed: bytes, preset: Preset, data: st.DataObject) -> None:
    game, players, options = preset
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    pool = candidate_actions(options.get("set", 6))
    for _ in range(data.draw(st.integers(0, 60))):
        if rules.to_move(state) is None:
            break
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[data.draw(st.integers(0, len(legal) - 1))])
    if rules.to_move(state) is None:
        return
    legal = rules.legal_actions(state)
    before = rules.dump(state)
    accepted = 0
    for action in pool:
        canonical = dict(action, tile=sorted(action["tile"])) if "tile" in action else action
        if canonical in legal:
            rules.apply(state, action)
            accepted += 1
        else:
            with pytest.raises(IllegalAction) as refused:
                rules.apply(state, action)
            assert str(refused.value)
    assert accepted == len(legal)
    assert rules.dump(state) == before


def test_with_no_double_dealt_the_heaviest_tile_leads() -> None:
    rules = get_rules("draw")
    for n in range(200):
        state = rules.new_match(2, {"hand_size": 2}, seed=b"heavy%d" % n)
        hands = rules.dump(state)["hands"]
        tiles = [tuple(t) for hand in hands for t in hand]
        if any(a == b for a, b in tiles):
            continue
        heaviest = max(tiles, key=lambda t: (t[0] + t[1], t[1]))
        seat = next(k for k, hand in enumerate(hands) if list(heaviest) in hand)
        assert rules.to_move(state) == seat
        assert rules.legal_actions(state) == [{"type": "play", "tile": list(heaviest)}]
        return
    pytest.fail("no deal without a double in 200 seeds")


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), preset=st.sampled_from(PRESETS), data=st.data())
def test_the_fast_legality_check_agrees_with_the_list_of_legal_actions(seed: bytes, preset: Preset, data: st.DataObject) -> None:
    game, players, options = preset
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    pool = [normalise_action(a) for a in candidate_actions(options.get("set", 6))]
    for _ in range(data.draw(st.integers(0, 80))):
        legal = rules.legal_actions(state)
        assert all(a in pool for a in legal)
        assert [a for a in pool if is_legal(state, a)] == [a for a in pool if a in legal]
        if rules.to_move(state) is None:
            break
        state = rules.advance(state, legal[data.draw(st.integers(0, len(legal) - 1))])
