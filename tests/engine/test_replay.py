"""games/replay.py: a finished hand's positions, every hand face up, for every game, over
random matches played to the end through the rules (redeals and blocked hands included)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import get_rules
from games.replay import SHARED, hand_positions

TABLES = [
    ("block", 3, {"target": 30}),
    ("draw", 4, {"partnership": True, "target": 30}),
    ("allfives", 2, {"target": 60}),
    ("fiveup", 3, {"muggins": True}),
    ("texas42", 4, {"target_marks": 2}),
    ("mexican_train", 4, {"set": 6, "rounds": 3}),
    ("chicken_foot", 3, {}),
]


def hands_of(state: Any, rules: Any, rng: random.Random) -> list[tuple[Any, list[list[Any]]]]:
    """The match played with random legal moves: each hand's starting state and actions."""
    out: list[tuple[Any, list[list[Any]]]] = []
    while rules.result(state) is None:
        number, start, actions = rules.hand_index(state), state, []
        while rules.result(state) is None and rules.hand_index(state) == number:
            seat = rules.to_move(state)
            action = rng.choice(rules.legal_actions(state))
            actions.append([seat, action])
            state = rules.apply(state, action)
        out.append((start, actions))
    return out


def tiles(rows: list[list[list[int]]]) -> list[list[tuple[int, ...]]]:
    return [sorted(tuple(sorted(t)) for t in row) for row in rows]


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=[t[0] for t in TABLES])
@pytest.mark.parametrize("seed", range(3))
def test_each_position_of_each_hand_follows_the_rules_and_the_last_shows_the_hand_as_it_ended(
    game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    rules = get_rules(game)
    rng = random.Random(f"{game}-{seed}")
    state = rules.new_match(players, options, seed=bytes([seed]) * 32)
    played = hands_of(state, rules, rng)
    for number, (start, actions) in enumerate(played):
        got = hand_positions(rules, start, actions)
        steps = got["positions"]
        assert got["hand"] == number and len(steps) == len(actions) + 1
        assert [[p["seat"], p["action"]] for p in steps[1:]] == actions
        assert not any(key in p["view"] for p in steps for key in (*SHARED, "log", "last_hand"))
        summary = got["summary"]
        assert summary is not None and summary["number"] == number
        assert [e for p in steps for e in p["events"]] == summary["log"]
        assert tiles(steps[-1]["hands"]) == tiles(summary["hands_left"])
        # Inside the hand each position is the rules' own view of the state after its action.
        state = start
        for index, (p, (_seat, action)) in enumerate(zip(steps[1:-1], actions, strict=False)):
            state = rules.apply(state, action)
            view = rules.view(state, None)
            assert p["view"] == {k: v for k, v in view.items() if k in p["view"]}, index
            assert p["hands"] == [rules.view(state, s).get("hand") or [] for s in range(players)]
        final = steps[-1]["view"]
        assert final["to_move"] is None and final["scores"] == got["scores_after"]
        assert final["hand_sizes"] == [len(h) for h in steps[-1]["hands"]]
        for key in ("hand_number", "round", "rounds"):
            if key in steps[-2]["view"]:
                assert final[key] == steps[-2]["view"][key], key
        # The hand's last tile lies on its last table (Texas 42 shows the trick in the log).
        _seat, closing = actions[-1]
        if closing["type"] == "play" and game != "texas42":
            a, b = closing["tile"]
            laid = json.dumps(final, separators=(",", ":"))
            assert f"[{a},{b}]" in laid or f"[{b},{a}]" in laid
    end = played[-1][0]
    for _seat, action in played[-1][1]:
        end = rules.apply(end, action)
    assert got["match_over"] and got["result"] == rules.result(end)
    assert got["result"] is not None


def test_a_match_won_by_the_hands_first_tile_shows_that_tile_on_its_last_table() -> None:
    """All Fives scores the lead itself (6|4, 3|2 ...): a later hand's first tile can take a
    side to the target and end the match, and the last position must show that tile laid, not
    an empty table. (The first hand opens with a double, which is the spinner.)"""
    rules = get_rules("allfives")
    for seed in range(200):
        rng = random.Random(seed)
        state = rules.new_match(2, {"target": 1000}, seed=seed.to_bytes(2, "big") * 16)
        while rules.hand_index(state) == 0:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        seat = rules.to_move(state)
        scoring = [a for a in rules.legal_actions(state) if a["type"] == "play"
                   and sum(a["tile"]) % 5 == 0 and a["tile"][0] != a["tile"][1]]
        if not scoring:
            continue
        data = rules.dump(state)
        data["options"]["target"] = data["scores"][seat] + sum(scoring[0]["tile"])  # two alone: side = seat
        start = rules.load(data)
        got = hand_positions(rules, start, [[seat, scoring[0]]])
        assert got["match_over"], "the lead took its side to the target"
        a, b = scoring[0]["tile"]
        laid = json.dumps(got["positions"][-1]["view"]["layout"], separators=(",", ":"))
        assert f"[{a},{b}]" in laid or f"[{b},{a}]" in laid, laid
        return
    pytest.fail("no deal of 200 let a later hand's first tile score")


def test_a_five_up_match_stopped_by_a_lead_shows_that_tile_on_its_last_table() -> None:
    """Five-Up pegs the lead too (a 5|0 lead counts 5: one point), and a side that reaches the
    target wins at once, mid-hand: the last position of that hand shows the lead laid and the
    real scores, not an empty table."""
    rules = get_rules("fiveup")
    for seed in range(200):
        rng = random.Random(seed)
        state = rules.new_match(2, {"target": 1000}, seed=seed.to_bytes(2, "big") * 16)
        while rules.hand_index(state) == 0:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        seat = rules.to_move(state)
        scoring = [a for a in rules.legal_actions(state) if a["type"] == "play"
                   and sum(a["tile"]) % 5 == 0 and sum(a["tile"]) > 0]
        if not scoring:
            continue
        data = rules.dump(state)
        data["options"]["target"] = data["scores"][seat] + 1  # two alone: side = seat
        start = rules.load(data)
        got = hand_positions(rules, start, [[seat, scoring[0]]])
        assert got["match_over"], "the lead took its side to the target"
        assert got["summary"]["stopped"] is True
        final = got["positions"][-1]["view"]
        assert final["scores"][seat] >= data["scores"][seat] + 1
        a, b = scoring[0]["tile"]
        laid = json.dumps(final["layout"], separators=(",", ":"))
        assert f"[{a},{b}]" in laid or f"[{b},{a}]" in laid, laid
        return
    pytest.fail("no deal of 200 let a later hand's first tile score")
