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


def later_scoring_lead(game: str, scores: Any) -> tuple[Any, Any, int, dict[str, Any], int]:
    """The first seeded two-player match whose second hand's leader holds a tile that
    `scores(tile)` points (0 for none), with the target set so that lead reaches it: the
    rules, the state, the leader, that lead and the scores before it."""
    rules = get_rules(game)
    for seed in range(200):
        rng = random.Random(seed)
        state = rules.new_match(2, {"target": 1000}, seed=seed.to_bytes(2, "big") * 16)
        while rules.hand_index(state) == 0:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        seat = rules.to_move(state)
        assert seat is not None
        scoring = [a for a in rules.legal_actions(state) if a["type"] == "play" and scores(a["tile"])]
        if not scoring:
            continue
        data = rules.dump(state)
        before = data["scores"][seat]
        data["options"]["target"] = before + scores(scoring[0]["tile"])  # two alone: side = seat
        return rules, rules.load(data), seat, scoring[0], before
    pytest.fail(f"no deal of 200 let a later {game} hand's first tile score")


def laid(view: dict[str, Any], tile: list[int]) -> bool:
    a, b = tile
    text = json.dumps(view["layout"], separators=(",", ":"))
    return f"[{a},{b}]" in text or f"[{b},{a}]" in text


def test_a_match_won_by_the_hands_first_tile_shows_that_tile_on_its_last_table() -> None:
    """All Fives scores the lead itself (6|4, 3|2 ...): a later hand's first tile can take a
    side to the target and end the match, and the last position must show that tile laid, not
    an empty table. (The first hand opens with a double, which is the spinner.)"""
    def points(tile: list[int]) -> int:
        return sum(tile) if sum(tile) % 5 == 0 and tile[0] != tile[1] else 0
    rules, start, seat, lead, _ = later_scoring_lead("allfives", points)
    got = hand_positions(rules, start, [[seat, lead]])
    assert got["match_over"], "the lead took its side to the target"
    assert laid(got["positions"][-1]["view"], lead["tile"])


def test_a_five_up_match_stopped_by_a_lead_shows_that_tile_on_its_last_table() -> None:
    """Five-Up pegs the lead too (a 5|0 lead counts 5: one point), and a side that reaches the
    target wins at once, mid-hand: the last position of that hand shows the lead laid and the
    real scores, not an empty table."""
    def points(tile: list[int]) -> int:
        return 1 if sum(tile) % 5 == 0 and sum(tile) > 0 else 0
    rules, start, seat, lead, before = later_scoring_lead("fiveup", points)
    got = hand_positions(rules, start, [[seat, lead]])
    assert got["match_over"], "the lead took its side to the target"
    assert got["summary"]["stopped"] is True
    final = got["positions"][-1]["view"]
    assert final["scores"][seat] >= before + 1
    assert laid(final, lead["tile"])
