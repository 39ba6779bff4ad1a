"""Five-Up's bots: the layout and playouts they step are the engine's, Medium takes the points
on offer, Medium and Hard always claim and always call muggins, and every decision is the
seed's and the view's alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai import kit_for, make_bot
from games.ai.fiveup import careful, play_score, position_of
from games.ai.fiveup_search import (
    FiveUpConfig,
    HandScore,
    Search,
    fiveup_fast_path,
    read_plays,
    sample_slots,
    table_of,
)
from games.ai.fiveup_sim import (
    INDEX,
    TILES,
    Deal,
    fives,
    index_of,
    replay,
    this_hand,
)
from games.ai.hard import HardBot
from games.ai.inference import HiddenHand
from games.ai.sampling import sample_deal
from games.core.tiles import make_tile
from games.simulate import Config, run

from .support import fits, positions, rules_or_skip

TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"partnership": False}),
    (4, {"muggins": True, "target": 30}),
    (2, {"muggins": True, "target": 25}),
]


def rules() -> Any:
    return rules_or_skip("fiveup")


def test_the_rules_offer_the_fast_path_the_search_reads() -> None:
    engine = fiveup_fast_path(rules())
    config = engine.configure(4, {"muggins": True})
    assert isinstance(config, FiveUpConfig)
    assert (config.players, config.side, config.target, config.muggins) == (4, (0, 1, 0, 1), 61, True)
    scored = engine.score_hand(config, (0, 7, 3, 1), 0)
    assert isinstance(scored, HandScore)
    assert scored.winner == 0 and list(scored.points) == [2, 0]  # 8 pips held by the others: 10
    assert all(engine.fives_points(n) == fives(n) for n in range(80))


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_layout_replayed_from_the_log_is_the_views(players: int, options: dict[str, Any]) -> None:
    """Ends in the same order, with the same ids, numbers and counts, and the same count."""
    r = rules()
    checked = 0
    for seed in (b"lay-1", b"lay-2", b"lay-3"):
        for state in positions(r, players, options, seed, steps=300):
            view = r.view(state, r.to_move(state))
            layout = replay(this_hand(view["log"]))
            shown = [(e["id"], e["value"], e["counts"]) for e in view["ends"]]
            counts = [v * (1, 2, 1, 0)[k] for v, k in zip(layout.values, layout.kinds)]
            assert shown == list(zip(layout.ids, layout.values, counts))
            assert view["count"] == layout.count
            checked += 1
    assert checked > 200


def sampled(r: Any, view: dict[str, Any], rng: random.Random) -> tuple[Any, Deal]:
    """One deal consistent with the view, as the engine's state and as the search's `Deal`."""
    kit = kit_for("fiveup")
    hands, boneyard = sample_deal(view, kit.hidden(view), kit.unseen(view), rng)
    state = r.state_from_view(view, hands, boneyard)
    deal = Deal(table_of(r, view), [sum(1 << INDEX[t] for t in h) for h in hands],
                [INDEX[t] for t in boneyard], replay(this_hand(view["log"])),
                scores=list(view["scores"]), seat=int(view["seat"]))
    return state, deal


def claiming(r: Any, state: Any, tile: int, end: str | None) -> dict[str, Any]:
    """The engine's legal play of `tile` on `end`, in its claiming form where there is one."""
    t = TILES[tile]
    found = [a for a in r.legal_actions(state) if a["type"] == "play" and make_tile(*a["tile"]) == t
             and a.get("end") == end]
    assert found, (t, end, r.legal_actions(state))
    return dict(next((a for a in found if a.get("claim")), found[0]))


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_move_and_its_points_are_the_engines(players: int, options: dict[str, Any]) -> None:
    """Step by step on sampled deals: the same plays (tile and end), draw or pass, the same
    scores after each move, the hand (or match) over at the same move, scored the same."""
    r = rules()
    rng = random.Random(5)
    ended = 0
    for state0 in positions(r, players, options, b"steps", steps=120)[::6]:
        view = r.view(state0, r.to_move(state0))
        state, deal = sampled(r, view, rng)
        hand = r.hand_index(state)
        for _ in range(200):
            moves = deal.moves()
            legal = careful([a for a in r.legal_actions(state) if a["type"] != "muggins"])
            expected = sorted((INDEX[make_tile(*a["tile"])], a.get("end")) if a["type"] == "play"
                              else (-1 if a["type"] == "draw" else -2, None) for a in legal)
            ours = sorted((t, None if e < 0 else deal.layout.ids[e]) if t >= 0 else (t, None)
                          for t, e in moves)
            assert ours == expected
            tile, e = moves[rng.randrange(len(moves))]
            if tile >= 0:
                action = claiming(r, state, tile, None if e < 0 else deal.layout.ids[e])
            else:
                action = {"type": "draw" if tile == -1 else "pass"}
            over = deal.step((tile, e))
            state = r.apply(state, action)
            done = r.to_move(state) is None or r.hand_index(state) != hand
            if not done or r.to_move(state) is None:
                assert deal.scores == r.scores(state)
            else:  # the next hand is dealt: the last hand's points are the engine's too
                last = r.view(state, None)["last_hand"]
                assert [a - b for a, b in zip(deal.scores, view["scores"])] == [
                    a - b for a, b in zip(r.scores(state), view["scores"])], last
            if over or done:
                assert over == done
                ended += 1
                break
    assert ended >= 10


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_a_playout_is_a_game_the_engine_plays_to_the_same_scores(players: int, options: dict[str, Any]) -> None:
    """`Deal.play_out` replayed on the engine (draws and passes where the engine needs them):
    every play legal, the same final scores."""
    r = rules()
    rng = random.Random(9)
    checked = 0
    for state0 in positions(r, players, options, b"playouts", steps=150)[::5]:
        view = r.view(state0, r.to_move(state0))
        state, deal = sampled(r, view, rng)
        hand = r.hand_index(state)
        trace: list[tuple[int, int, str]] = []
        untraced = deal.copy()
        deal.play_out(random.Random(checked), noise=0.3, greed=5.0, double_bonus=4.5, trace=trace)
        # Without a trace the playout lays its tiles by its own inlined steps: the same game.
        untraced.play_out(random.Random(checked), noise=0.3, greed=5.0, double_bonus=4.5)
        assert (untraced.scores, untraced.hands, untraced.layout.count) == (deal.scores, deal.hands,
                                                                             deal.layout.count)
        for seat, tile, end in trace:
            while r.to_move(state) != seat or not any(a["type"] == "play" for a in r.legal_actions(state)):
                legal = r.legal_actions(state)
                assert {a["type"] for a in legal} <= {"draw", "pass"}, (seat, legal)
                state = r.apply(state, dict(legal[0]))
            state = r.apply(state, claiming(r, state, tile, None if end.startswith("-") else end))
        while r.to_move(state) is not None and r.hand_index(state) == hand:
            legal = r.legal_actions(state)
            assert {a["type"] for a in legal} <= {"draw", "pass"}, legal
            state = r.apply(state, dict(legal[0]))
        assert deal.scores == r.scores(state)
        checked += 1
    assert checked >= 15


def hand_built(players: int, options: dict[str, Any], hands: list[list[list[int]]],
               plays: list[dict[str, Any]]) -> tuple[Any, Any]:
    """A state whose hands are chosen (the rest of the set in the boneyard), after `plays`."""
    r = rules()
    state = r.new_match(players=players, options=options, seed=b"built")
    view = dict(r.view(state, None))
    chosen = [[make_tile(*t) for t in h] for h in hands]
    held = {t for h in chosen for t in h}
    boneyard = [t for t in TILES if t not in held]
    view.update(hand_sizes=[len(h) for h in chosen], boneyard=len(boneyard))
    state = r.state_from_view(view, chosen, boneyard)
    for action in plays:
        state = r.apply(state, action)
    return r, state


def test_medium_takes_the_points_on_offer() -> None:
    """After the lead 1-4 (count 5), 1-6 on the 1 makes 10, two points; 3-4 and 2-4 score nothing."""
    r, state = hand_built(
        2, {}, [[[1, 4], [0, 0], [5, 5], [2, 2], [0, 3]], [[3, 4], [1, 6], [2, 4], [0, 1], [0, 2]]],
        [])
    leader = r.to_move(state)
    if leader != 0:  # the lead is by lot: give seat 0's tiles to whoever leads
        r, state = hand_built(
            2, {}, [[[3, 4], [1, 6], [2, 4], [0, 1], [0, 2]], [[1, 4], [0, 0], [5, 5], [2, 2], [0, 3]]],
            [])
    mover = r.to_move(state)
    state = r.apply(state, {"type": "play", "tile": [1, 4]})
    view = r.view(state, r.to_move(state))
    assert r.to_move(state) != mover
    pos = position_of(view)
    scores = {(tuple(a["tile"]), a["end"]): play_score(pos, index_of(a["tile"]), a["end"])
              for a in view["legal"]}
    assert max(scores, key=scores.__getitem__) == ((1, 6), "0l")
    for level in ("medium", "hard"):
        for seed in range(5):
            assert make_bot("fiveup", level, seed=seed).choose(view) == {"type": "play", "tile": [1, 6], "end": "0l"}


@pytest.mark.parametrize("players", [2, 4])
def test_medium_and_hard_always_claim_and_always_call_muggins(players: int) -> None:
    r = rules()
    bots = {level: HardBot("fiveup", kit_for("fiveup"), b"m", budget=24) if level == "hard"
            else make_bot("fiveup", level, seed=b"m") for level in ("medium", "hard")}
    easy = make_bot("fiveup", "easy", seed=b"e")
    calls = plays = 0
    for match in range(4):
        state = r.new_match(players=players, options={"muggins": True}, seed=f"mug{match}".encode())
        for _ in range(300):
            seat = r.to_move(state)
            if seat is None:
                break
            view = r.view(state, seat)
            for bot in bots.values():
                action = bot.choose(view)
                assert action in view["legal"]
                if {"type": "muggins"} in view["legal"]:
                    assert action == {"type": "muggins"}
                    calls += 1
                elif action["type"] == "play":
                    assert action.get("claim") is True
                    plays += 1
            # Easy plays the seats, so points are left unclaimed often enough.
            state = r.apply(state, easy.choose(view))
    assert calls >= 10 and plays >= 50


def test_a_muggins_call_scores_the_points_left_unclaimed() -> None:
    r, state = hand_built(
        2, {"muggins": True},
        [[[2, 3], [0, 0], [5, 5], [2, 2], [0, 3]], [[3, 4], [1, 6], [2, 4], [0, 1], [0, 2]]], [])
    mover = r.to_move(state)
    lead = [2, 3] if mover == 0 else [0, 1]  # 2-3 counts 5; 0-1 counts 1 (seat 1 leads)
    state = r.apply(state, {"type": "play", "tile": lead})
    view = r.view(state, r.to_move(state))
    if mover == 0:
        assert view["unclaimed"] == {"seat": 0, "points": 1}
        for level in ("medium", "hard"):
            assert make_bot("fiveup", level, seed=1).choose(view) == {"type": "muggins"}
    else:
        assert view["unclaimed"] is None


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {}), (4, {"muggins": True})])
def test_every_decision_is_the_seeds_and_the_views_alone(players: int, options: dict[str, Any]) -> None:
    """The same view and seed, the same action, from fresh bots; the views only."""
    r = rules()
    views = [r.view(s, r.to_move(s)) for s in positions(r, players, options, b"again", steps=60)]
    views = [v for v in views if len(v["legal"]) > 1][:8]
    assert views
    for level in ("medium", "hard"):
        first = [make_bot("fiveup", level, seed=b"same").choose(v) for v in views]
        assert first == [make_bot("fiveup", level, seed=b"same").choose(v) for v in views]


def test_the_search_values_its_candidates_on_the_same_deals() -> None:
    """Reproducible values from a seeded generator; the pick is among the candidates."""
    r = rules()
    for state in positions(r, 4, {}, b"values", steps=40)[1::7]:
        view = r.view(state, r.to_move(state))
        legal = careful(view["legal"])
        if len(legal) < 2 or legal[0]["type"] != "play":
            continue
        one = Search(r, view).values(legal, random.Random(3), 40)
        two = Search(r, view).values(legal, random.Random(3), 40)
        assert one == two and len(one) == len(legal)


@pytest.mark.parametrize(("players", "options"), TABLES[:3])
def test_the_slots_read_with_their_arrival_hold_for_the_real_hands(players: int, options: dict[str, Any]) -> None:
    r = rules()
    for state in positions(r, players, options, b"slots", steps=200)[::3]:
        view = r.view(state, r.to_move(state))
        reading = read_plays(view)
        for seat, held in reading.slots.items():
            truth = r.view(state, seat)["hand"]
            assert fits(truth, HiddenHand([ban for ban, _ in held]))
            assert all(born < len(this_hand(view["log"])) for _, born in held)
        dealt, boneyard = sample_slots(reading, [INDEX[t] for t in kit_for("fiveup").unseen(view)],
                                       random.Random(1))
        assert sorted([t for h in dealt.values() for t, _ in h] + boneyard) == sorted(
            INDEX[t] for t in kit_for("fiveup").unseen(view))
        assert [len(dealt.get(s, ())) for s in range(players) if s != view["seat"]] == [
            n for s, n in enumerate(view["hand_sizes"]) if s != view["seat"]]


def share(players: int, levels: tuple[str, ...], matches: int, options: dict[str, Any] | None = None) -> float:
    rules()
    report = run(Config("fiveup", players, levels, dict(options or {}), "strength", True), matches)
    return float(report["bots"][0]["won_of_decided"])


def test_medium_team_beats_easy_team_at_five_up() -> None:
    # 97.6% of 1,000 matches (docs/simulation.md); 0.85 of 60 is 5.4 standard deviations
    # above one half.
    assert share(4, ("medium", "easy"), 60) >= 0.85


@pytest.mark.slow
def test_hard_beats_medium_at_heads_up_five_up() -> None:
    # 76.9% of 1,000 matches (docs/simulation.md); 0.65 of 100 is 3 standard deviations above
    # one half.
    assert share(2, ("hard", "medium"), 100) >= 0.65
