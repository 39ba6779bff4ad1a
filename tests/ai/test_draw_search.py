"""Heads-up Draw: the endgame solver (a known forced win, the engine's own results) and the
reading of the opponent's plays that picks the playouts' deals."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, cast

import pytest

from games.ai import make_bot
from games.ai.draw_search import (
    DrawSearch,
    applies,
    endgame_values,
    hand_weights,
    opponent_hands,
)
from games.ai.fives_search import LEFT_END, RIGHT_END
from games.ai.inference import hand_of, line_hidden_hands, unseen_tiles
from games.ai.line import LINE_KIT
from games.ai.line_endgame import LOSS, SOLVED_POINTS, WIN, Endgame
from games.ai.line_infer import Model, Play, SeatReading, mix, read_view, sample
from games.ai.line_search import PLANS, Search
from games.ai.line_weights import WEIGHTS
from games.ai.sampling import sample_deal
from games.core.tiles import Tile, full_set, make_tile
from games.line.rules import LineRules

from .support import engine_value, positions, rules_or_skip


def test_the_solver_finds_a_forced_win() -> None:
    """Ends 5 and 3; 5-6 on the left leaves the opponent (5-1, 2-2) nothing and goes out with
    the 6-6 and the 3-4; the 3-4 on the right lets the 5-1 block the hand with fewer pips."""
    rules = rules_or_skip("draw")
    config = cast(LineRules, rules).configure(2, {})
    grid = config.tiles.grid
    mine = (1 << grid[5][6]) | (1 << grid[6][6]) | (1 << grid[3][4])
    theirs = (1 << grid[1][5]) | (1 << grid[2][2])
    solver = Endgame(rules, config, 0)
    assert solver.play_value([mine, theirs], 0, grid[5][6], "left", (5, 3)) == WIN
    assert solver.play_value([mine, theirs], 0, grid[3][4], "right", (5, 3)) == LOSS


def test_the_solver_agrees_with_the_engine_at_the_floor() -> None:
    """On real positions where nobody may draw, each play's exact result on the true deal is
    the result of exhaustive play through the engine's own moves and scoring."""
    rules = rules_or_skip("draw")
    checked = 0
    for g in range(120):
        for state in positions(rules, 2, {}, b"draw-floor-%d" % g, steps=120):
            seat = rules.to_move(state)
            assert seat is not None
            view = rules.view(state, seat)
            legal = rules.legal_actions(state)
            if not applies(view) or len(legal) < 2 or sum(view["hand_sizes"]) > 11:
                continue
            config = state.config
            solver = Endgame(rules, config, seat)
            ends = (state.layout.ends[0], state.layout.ends[1])
            for action in legal:
                a, b = action["tile"]
                got = solver.play_value(list(state.hands), seat, config.tiles.grid[a][b], action["end"], ends)
                after = rules.advance(state, action)
                assert got == engine_value(rules, after, seat, rules.hand_index(state))
            true = sorted(config.tiles.tiles_of(state.hands[1 - seat]))
            assert true in [sorted(h) for h in opponent_hands(view)]
            assert endgame_values(rules, view, legal) is not None
            checked += 1
            break
    assert checked >= 20


def test_the_endgame_leaves_big_positions_to_the_search() -> None:
    """Past its budget of positions the solver answers None (the ordinary search decides)."""
    rules = rules_or_skip("draw")
    for g in range(60):
        for state in positions(rules, 2, {}, b"draw-big-%d" % g, steps=120):
            view = rules.view(state, rules.to_move(state))
            legal = rules.legal_actions(state)
            if applies(view) and len(legal) >= 2 and min(view["hand_sizes"]) >= 4:
                assert endgame_values(rules, view, legal, budget=1) is None
                return
    raise AssertionError("no big endgame met")


def test_the_own_draw_playouts_value_every_action_as_the_engine_does() -> None:
    """Without the endgame the bitmask playouts are the heaviest tile's through the engine:
    same deals, same random streams, same moves in the same order, same scoring, so the
    values are equal to the last bit, at the floor and before it."""
    rules = rules_or_skip("draw")
    plan = PLANS["draw"]
    checked = floor = 0
    for g in range(6):
        for k, state in enumerate(positions(rules, 2, {}, b"draw-own-%d" % g, steps=200)):
            view = rules.view(state, rules.to_move(state))
            legal = [dict(a) for a in view["legal"]]
            if len(legal) < 2 or k % 3:
                continue
            engine = Search(rules, view, plan, WEIGHTS["draw"]).values(legal, random.Random(k), 60)
            own = DrawSearch(rules, view, plan, WEIGHTS["draw"], solve=False, read_plays=False,
                             medium_playouts=False).values(legal, random.Random(k), 60)
            assert own == engine
            checked += 1
            floor += applies(view)
    assert checked >= 20
    assert floor >= 3


def test_the_medium_playout_move_is_a_best_play_by_mediums_own_score() -> None:
    """The playouts' bitmask copy of Medium's score picks, wherever the opponent has shown no
    void (the one term it leaves out), a play that Medium's own scoring ranks first."""
    rules = rules_or_skip("draw")
    kit = LINE_KIT
    checked = 0
    for g in range(8):
        for state in positions(rules, 2, {}, b"draw-medium-%d" % g, steps=200):
            seat = rules.to_move(state)
            view = rules.view(state, seat)
            legal = [dict(a) for a in view["legal"]]
            ends = view.get("ends") or ()
            if len(legal) < 2 or len(ends) != 2 or legal[0]["type"] != "play":
                continue
            if any(h.slots and any(h.slots) for h in line_hidden_hands(view).values()):
                continue
            search = DrawSearch(rules, view, PLANS["draw"], WEIGHTS["draw"])
            hands, boneyard = sample_deal(view, search.hidden, search.unseen, random.Random(g))
            search.begin(hands, boneyard)
            assert search.config is not None
            tiles = search.config.tiles
            moves = [(tiles.grid[a["tile"][0]][a["tile"][1]], LEFT_END if a["end"] == "left" else RIGHT_END)
                     for a in legal]
            left, right = (int(e["value"]) for e in ends)
            chosen = search.medium_play(moves, tiles.mask(hand_of(view)), left, right, search.unplayed_mask)
            scores = kit.prior(rules, view, legal, random.Random(g))
            assert scores[moves.index(chosen)] == pytest.approx(max(scores))
            checked += 1
    assert checked >= 40


def test_playouts_that_reach_the_floor_take_the_solved_result() -> None:
    """With the endgame on, a playout that reaches the floor ends there with the exact result
    (a won, tied or lost hand's worth), so values move within the win bonus and the solved
    points."""
    rules = rules_or_skip("draw")
    plan = PLANS["draw"]
    for state in positions(rules, 2, {}, b"draw-solve", steps=200):
        view = rules.view(state, rules.to_move(state))
        legal = [dict(a) for a in view["legal"]]
        if len(legal) < 2 or not applies(view):
            continue
        values = DrawSearch(rules, view, plan, WEIGHTS["draw"], solve=True).values(legal, random.Random(1), 40)
        exact = endgame_values(rules, view, legal)
        assert exact is not None
        worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
        assert all(-worth <= v <= worth for v in values)
        return
    raise AssertionError("no floor position met")


def bit_of(tile: Tile, stride: int) -> int:
    return 1 << (tile.low * stride + tile.high)


FULL = sum(bit_of(t, 7) for t in full_set(6))
CARRIES = tuple(sum(bit_of(make_tile(n, m), 7) for m in range(7)) for n in range(7))


def medium_positions(rules: Any, games: int, seed: bytes) -> list[Any]:
    """States of heads-up hands where a Medium seat plays an Easy one, seat 0 to move."""
    out = []
    for g in range(games):
        state = rules.new_match(players=2, options={}, seed=seed + bytes([g]))
        bots = [make_bot("draw", "easy", seed=seed + b"e%d" % g), make_bot("draw", "medium", seed=seed + b"m%d" % g)]
        while rules.to_move(state) is not None and rules.hand_index(state) == 0:
            seat = rules.to_move(state)
            if seat == 0:
                out.append(state)
            state = rules.apply(state, bots[seat].choose(rules.view(state, seat)))
    return out


def plain_score(model: Model, tile: Tile, end: str, ends: dict[str, int], *, rest: int, unseen: int,
           carries: tuple[int, ...]) -> float:
    """Medium's score of a play, less the terms no deal changes (going out beats all), written
    plainly from the tiles.

    `rest` and `unseen` are masks: the seat's other tiles, and the tiles it has not seen.
    """
    if not rest:
        return 1000.0
    w = model.weights
    after = dict(ends)
    after[end] = tile.other(ends[end])
    score = tile.pips * w.pips + (w.double if tile.is_double else 0.0)
    score += w.spread * sum(1 for mask in carries if rest & mask)
    for v in set(after.values()):
        score += w.follow * min(2, (rest & carries[v]).bit_count())
        score -= w.scarce * (unseen & carries[v]).bit_count()
    return score



def plain_seat_likelihood(model: Model, plays: Sequence[Play], now: Sequence[tuple[Tile, int]],
                     full: int, carries: tuple[int, ...]) -> tuple[float, float]:
    """Log chance of one seat's plays under the model and under random play, play by play."""
    total = 0.0
    uniform = 0.0
    for k, play in enumerate(plays):
        later = [play.tile] + [p.tile for p in plays[k + 1:] if p.born < play.at]
        kept = [t for t, born in now if born < play.at]
        # Too many: some later plays were of tiles drawn since; the latest are likeliest.
        later = later[: max(1, play.size - len(kept))]
        held = set(kept + later)
        ends = dict(play.ends)
        options = [(t, name) for t in held for name, v in ends.items() if t.has(v)]
        if len(options) < 2:
            continue
        stride = model.top + 1
        mask = sum(bit_of(t, stride) for t in held)
        unseen = full & ~mask & ~play.played_mask
        scores = [plain_score(model, t, name, ends, rest=mask & ~bit_of(t, stride), unseen=unseen, carries=carries)
                  for t, name in options]
        seen = (play.tile, play.end)
        chosen = scores[options.index(seen)] if seen in options else min(scores)
        top = max(scores)
        z = sum(math.exp(model.beta * (s - top)) for s in scores)
        p = math.exp(model.beta * (chosen - top)) / z
        total += math.log((1.0 - model.chance) * p + model.chance / len(options))
        uniform -= math.log(len(options))
    return total, uniform


def test_the_fast_reading_of_plays_weighs_a_deal_as_the_model_does() -> None:
    """`SeatReading.pair` equals the plain play-by-play reading above, only faster."""
    rules = rules_or_skip("draw")
    model = Model(WEIGHTS["draw"], 2.0, 0.1, 6, 0.5)
    rng = random.Random(5)
    checked = 0
    for state in medium_positions(rules, 4, b"read-fast"):
        view = rules.view(state, 0)
        reading = read_view(view)
        plays = [p for p in reading.plays if p.seat == 1]
        if not plays:
            continue
        seat = SeatReading(model, plays)
        for _ in range(10):
            tiles = sample(reading, unseen_tiles(view), rng).get(1, [])
            fast = seat.pair(tiles)
            plain = plain_seat_likelihood(model, plays, tiles, FULL, CARRIES)
            assert abs(fast[0] - plain[0]) < 1e-9 and abs(fast[1] - plain[1]) < 1e-9
            assert abs(mix(0.5, *fast) - mix(0.5, *plain)) < 1e-9
            checked += 1
    assert checked >= 100


def test_deals_drawn_by_the_plays_hold_more_of_a_medium_players_real_tiles() -> None:
    """Against a Medium opponent, deals resampled by how well they explain its plays give it
    more of the tiles it really holds than deals that only respect its voids."""
    rules = rules_or_skip("draw")
    plan = PLANS["draw"]
    weighed = plain = 0
    for k, state in enumerate(medium_positions(rules, 12, b"read-real")):
        view = rules.view(state, 0)
        truth = {tuple(t) for t in rules.view(state, 1)["hand"]}
        search = DrawSearch(rules, view, plan, WEIGHTS["draw"])
        deals = search.weighed_deals(random.Random(k), 40)
        if deals is None:
            continue
        weighed += sum(sum((t.low, t.high) in truth for t in hands[1]) for hands, _ in deals)
        control = DrawSearch(rules, view, plan, WEIGHTS["draw"])
        rng = random.Random(k)
        for _ in range(40):
            hands, _ = sample_deal(view, control.hidden, control.unseen, rng)
            plain += sum((t.low, t.high) in truth for t in hands[1])
    assert weighed > 1.08 * plain


def test_the_endgame_weighs_a_medium_players_real_hand_above_the_average() -> None:
    """Where nobody may draw, each hand a Medium opponent may hold counts by how well it
    explains its plays: its real hand weighs more than the average possible hand."""
    rules = rules_or_skip("draw")
    ratios = []
    for g in range(80):
        for k, state in enumerate(medium_positions(rules, 1, b"read-floor-%d" % g)):
            view = rules.view(state, 0)
            if not applies(view):
                continue
            hands = opponent_hands(view)
            if len(hands) < 2:
                continue
            weights = hand_weights(view, hands, WEIGHTS["draw"], random.Random(k))
            if weights is None:
                continue
            assert all(w > 0.0 for w in weights)
            truth = sorted(tuple(t) for t in rules.view(state, 1)["hand"])
            real = [sorted((t.low, t.high) for t in h) for h in hands].index(truth)
            ratios.append(weights[real] * len(weights) / sum(weights))
    assert len(ratios) >= 25
    assert sum(ratios) / len(ratios) > 1.2
