"""Hard's 42 search: its bitmask rules agree with Medium and the engine, its deals fit the view."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from games.ai import make_bot
from games.ai.inference import tile_of
from games.ai.texas42 import trick_play
from games.ai.texas42_deals import read, sample_hands, weighted_deals
from games.ai.texas42_hard import choose_play, finish_auction
from games.ai.texas42_sim import (
    INDEX,
    TILES,
    Deal,
    Solver,
    bits,
    mask_of,
    medium_play,
    playout,
    strengths,
    table,
    trump_of,
)
from games.core.tiles import make_tile
from games.engine import get_rules

from .support import rules_or_skip


def medium_views(matches: int, *, seed: str = "t42") -> list[dict[str, Any]]:
    """Every view a seat to move saw in the first hand of Medium-played matches."""
    rules = rules_or_skip("texas42")
    views = []
    for m in range(matches):
        state = rules.new_match(players=4, options={}, seed=f"{seed}:{m}".encode())
        bots = [make_bot("texas42", "medium", seed=s) for s in range(4)]
        while rules.to_move(state) is not None and rules.hand_index(state) == 0:
            seat = rules.to_move(state)
            assert seat is not None
            view = rules.view(state, seat)
            views.append(view)
            state = rules.apply(state, bots[seat].choose(view))
    return views


def test_the_bitmask_policy_plays_the_tile_medium_plays() -> None:
    checked = 0
    for view in medium_views(12):
        if view["phase"] != "playing" or len(view["legal"]) < 2:
            continue
        expected = tile_of(trick_play(view, view["legal"], random.Random(0))["tile"])
        tab = table(trump_of(view["trump"]))
        legal = mask_of([tile_of(a["tile"]) for a in view["legal"]])
        trick = [INDEX[tile_of(p["tile"])] for p in view["trick"]]
        seats = [p["seat"] for p in view["trick"]]
        assert TILES[medium_play(tab, legal, trick, seats, view["seat"])] == expected
        checked += 1
    assert checked > 50


def test_the_bitmask_rules_name_the_engines_legal_tiles() -> None:
    for view in medium_views(6, seed="legal"):
        if view["phase"] != "playing":
            continue
        tab = table(trump_of(view["trump"]))
        hand = mask_of([tile_of(t) for t in view["hand"]])
        lead = INDEX[tile_of(view["trick"][0]["tile"])] if view["trick"] else None
        assert [TILES[t] for t in bits(tab.legal(hand, lead))] == [tile_of(a["tile"]) for a in view["legal"]]


def test_sampled_deals_fit_the_view_and_its_voids() -> None:
    for view in medium_views(6, seed="deals"):
        if view["phase"] != "playing":
            continue
        reading = read(view)
        for hands in weighted_deals(reading, random.Random(1), 6, 30):
            assert hands[reading.me] == reading.hand
            assert [bin(h).count("1") for h in hands] == view["hand_sizes"]
            union = 0
            for seat, hand in enumerate(hands):
                assert not union & hand
                union |= hand
                if seat != reading.me:
                    assert not hand & reading.banned[seat]
            assert union == reading.unseen | reading.hand


def test_a_void_is_read_from_a_failure_to_follow() -> None:
    view = {
        "seat": 0, "hand": [[0, 0]], "hand_sizes": [1, 1, 2, 2], "trump": 6, "bidder": 1,
        "leader": 1, "shuffler": 0, "bids": [], "points_taken": [0, 1],
        "log": [
            {"type": "play", "seat": 1, "tile": [5, 5]},
            {"type": "play", "seat": 2, "tile": [1, 2]},
        ],
    }
    reading = read(view)
    fives = table(6).follow[5]
    assert reading.banned[2] == fives
    assert reading.banned[3] == 0
    hands = sample_hands(reading, random.Random(3))
    assert not hands[2] & fives


def _exact(tab: Any, deal: Deal, need: int, side: int) -> bool:
    """Plain minimax without memory or ordering, for checking the solver."""
    if deal.points[side] >= need:
        return True
    if deal.points[1 - side] > 42 - need or (not deal.trick and not deal.hands[deal.leader]):
        return False
    seat = deal.to_move()
    results = []
    for tile in bits(tab.legal(deal.hands[seat], deal.trick[0] if deal.trick else None)):
        after = deal.copy()
        after.play(tab, seat, tile)
        results.append(_exact(tab, after, need, side))
    return any(results) if seat % 2 == side else all(results)


def test_the_solver_agrees_with_plain_minimax_on_short_endings() -> None:
    rng = random.Random(5)
    for _ in range(40):
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [sum(1 << t for t in tiles[3 * s : 3 * s + 3]) for s in range(4)]
        tab = table(rng.randrange(7))
        rest = 3 + sum(TILES[t].pips for t in tiles[:12] if TILES[t].pips in (5, 10))
        points = [rng.randrange(0, 42 - rest + 1)]
        points.append(42 - rest - points[0])
        need = rng.randrange(30, 43)
        deal = Deal(hands, [], [], rng.randrange(4), points)
        assert Solver(tab, need, 0, 10**6).makes(deal.copy()) == _exact(tab, deal, need, 0)


def test_a_playout_ends_with_every_point_taken() -> None:
    rng = random.Random(2)
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [sum(1 << t for t in tiles[7 * s : 7 * s + 7]) for s in range(4)]
    assert sum(playout(table(3), Deal(hands, [], [], 0, [0, 0]), rng, 0.1)) == 42


def test_the_auction_model_is_the_auction_medium_bids() -> None:
    rules = get_rules("texas42")
    for m in range(20):
        state = rules.new_match(players=4, options={}, seed=f"auction:{m}".encode())
        bots = [make_bot("texas42", "medium", seed=s) for s in range(4)]
        hands = [mask_of([tile_of(t) for t in rules.view(state, s)["hand"]]) for s in range(4)]
        shuffler = rules.view(state, None)["shuffler"]
        order = [(shuffler + 1 + k) % 4 for k in range(4)]
        while rules.view(state, None)["phase"] == "bidding":
            seat = rules.to_move(state)
            assert seat is not None
            state = rules.apply(state, bots[seat].choose(rules.view(state, seat)))
        high = rules.view(state, None).get("high_bid") if rules.hand_index(state) == 0 else None
        expected = None if high is None else (high["seat"], high["value"])
        assert finish_auction([], order, [max(strengths(h)) for h in hands], False) == expected


def test_hard_takes_the_last_trick_it_needs() -> None:
    """Seat 0 bid 30, holds the 6-6 with sixes trumps, and needs the last trick's point."""
    view: dict[str, Any] = {
        "seat": 0, "hand": [[6, 6], [0, 1]], "hand_sizes": [2, 2, 2, 2], "trump": 6, "bidder": 0,
        "leader": 0, "shuffler": 3, "points_taken": [29, 5], "options": {}, "scoring": "marks",
        "bids": [{"seat": 0, "bid": 30}, {"seat": 1, "pass": True}, {"seat": 2, "pass": True},
                 {"seat": 3, "pass": True}],
        "high_bid": {"seat": 0, "value": 30}, "log": [],
        "legal": [{"type": "play", "tile": [0, 1]}, {"type": "play", "tile": [6, 6]}],
    }
    assert choose_play(view, list(view["legal"]), random.Random(0), 8) == {"type": "play", "tile": [6, 6]}


def test_tiles_index_in_canonical_order() -> None:
    assert all(a < b for a, b in pairwise(TILES))
    assert INDEX[make_tile(6, 6)] == 27


def _plain_playout(tab: Any, deal: Deal, rng: random.Random, noise: float) -> list[int]:
    """The playout as Medium's rule reads it, one `Deal.play` at a time (for checking)."""
    hands = deal.hands
    while hands[deal.leader] or deal.trick:
        seat = deal.to_move()
        legal = tab.legal(hands[seat], deal.trick[0] if deal.trick else None)
        if noise and rng.random() < noise:
            choices = bits(legal)
            tile = choices[int(rng.random() * len(choices))]
        else:
            tile = medium_play(tab, legal, deal.trick, deal.trick_seats, seat)
        deal.play(tab, seat, tile)
    return deal.points


def test_the_inlined_playout_is_the_plain_one_from_any_trick() -> None:
    """Same tiles, same points, same draws of the random stream, whatever trick it starts in
    (the playout keeps the trick's winner itself and remembers Medium's choices)."""
    rng = random.Random(11)
    for trial in range(600):
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [sum(1 << t for t in tiles[7 * s : 7 * s + 7]) for s in range(4)]
        tab = table(trump_of([0, 1, 2, 3, 4, 5, 6, "doubles", "follow_me"][trial % 9]))
        deal = Deal(hands, [], [], rng.randrange(4), [0, 0])
        for _ in range(rng.randrange(4)):
            seat = deal.to_move()
            legal = bits(tab.legal(deal.hands[seat], deal.trick[0] if deal.trick else None))
            deal.play(tab, seat, legal[rng.randrange(len(legal))])
        seed = rng.getrandbits(32)
        plain, fast = random.Random(seed), random.Random(seed)
        assert playout(tab, deal.copy(), fast, 0.1) == _plain_playout(tab, deal.copy(), plain, 0.1)
        assert fast.random() == plain.random()


def test_medium_play_answers_the_same_from_memory() -> None:
    rng = random.Random(4)
    tab = table(5)
    for _ in range(300):
        tiles = list(range(28))
        rng.shuffle(tiles)
        trick = tiles[: rng.randrange(4)]
        seats = [(1 + k) % 4 for k in range(len(trick))]
        legal = tab.legal(sum(1 << t for t in tiles[4:4 + rng.randrange(1, 8)]), trick[0] if trick else None)
        first = medium_play(tab, legal, trick, seats, (len(trick) + 1) % 4)
        assert medium_play(tab, legal, trick, seats, (len(trick) + 1) % 4) == first
