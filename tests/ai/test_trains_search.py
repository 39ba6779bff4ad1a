"""Hard's Mexican Train search: its playouts play Medium's rule and score hands as the engine does."""

from __future__ import annotations

import random
from typing import Any, cast

from games.ai import kit_for, make_bot
from games.ai.sampling import sample_deal
from games.ai.search import determinize
from games.ai.trains_fast import TrainsState
from games.ai.trains_policy import CHAIN_NODES, Planner, state_action
from games.ai.trains_search import last_hand_view, playout
from games.core.penalty_rules import redeal

from .support import positions, rules_or_skip


def medium_positions(players: int, seed: bytes, steps: int, options: dict[str, Any] | None = None) -> list[Any]:
    """States of a match Medium plays at every seat, where the seat to move has a choice."""
    rules = rules_or_skip("mexican_train")
    bot = make_bot("mexican_train", "medium", seed=b"m")
    state = rules.new_match(players=players, options=options or {}, seed=seed)
    out = []
    for _ in range(steps):
        if rules.to_move(state) is None:
            break
        view = rules.view(state, state.turn)
        if len(view["legal"]) > 1:
            out.append(state)
        state = rules.apply(state, bot.choose(view))
    return out


def test_the_playout_policy_is_medium_on_the_full_state() -> None:
    rules = rules_or_skip("mexican_train")
    kit = kit_for("mexican_train")
    checked = 0
    for seed in (b"a", b"b"):
        for state in medium_positions(4, seed, 250) + positions(rules, 3, {}, seed, 120)[1:]:
            view = rules.view(state, state.turn)
            if len(view["legal"]) < 2:
                continue
            legal = rules.legal_actions(state)
            expected = kit.medium(rules, view, legal, random.Random(0))
            assert state_action(state, legal, Planner(CHAIN_NODES)) == expected
            checked += 1
    assert checked > 100


def test_a_playout_scores_the_hand_as_the_engine_does() -> None:
    rules = rules_or_skip("mexican_train")
    kit = kit_for("mexican_train")
    rng = random.Random(3)
    for state in medium_positions(4, b"score", 200)[::20]:
        view = last_hand_view(rules.view(state, state.turn))
        deal = cast(TrainsState, determinize(rules, kit, view, rng))
        first = rules.legal_actions(deal)[0]
        pips = playout(rules, deal, first)
        # The same moves through the engine to its own end of the hand.
        planner = Planner()
        end = rules.advance(deal, first)
        while end.turn is not None:
            legal = rules.legal_actions(end)
            end = rules.advance(end, legal[0] if len(legal) == 1 else state_action(end, legal, planner))
        assert pips == [a - b for a, b in zip(end.totals, deal.totals)]


def test_hard_keeps_mediums_choice_when_the_search_has_no_room() -> None:
    """With one candidate searched there is nothing to compare: Hard plays Medium's move."""
    import games.ai.trains_search as search

    rules = rules_or_skip("mexican_train")
    saved = search.CANDIDATES
    search.CANDIDATES = 1
    try:
        for state in medium_positions(4, b"same", 120)[::10]:
            view = rules.view(state, state.turn)
            hard = make_bot("mexican_train", "hard", seed=b"h").choose(view)
            assert hard == make_bot("mexican_train", "medium", seed=b"h").choose(view)
    finally:
        search.CANDIDATES = saved


def test_a_redeal_equals_a_state_rebuilt_from_the_view() -> None:
    """The search places each deal's hidden tiles into one state built from the view."""
    for game in ("mexican_train", "chicken_foot"):
        rules = rules_or_skip(game)
        kit = kit_for(game)
        rng = random.Random(5)
        checked = drawn = 0
        for state in positions(rules, 3, {}, game.encode(), 150)[1:]:
            view = rules.view(state, state.turn)
            hidden, unseen = kit.hidden(view), kit.unseen(view)
            first = rules.state_from_view(view, *sample_deal(view, hidden, unseen, rng))
            hands, boneyard = sample_deal(view, hidden, unseen, rng)
            assert redeal(first, hands, boneyard) == rules.state_from_view(view, hands, boneyard)
            checked += 1
            drawn += first.drawn is not None
        assert checked > 50 and drawn > 0


def test_the_copys_playouts_are_the_engines() -> None:
    """`trains_sim` plays the engine's playout to the move: every first action of many
    positions, twelve moves and to the end of the hand (draws, blocked hands included)."""
    from games.ai.trains_search import HORIZON
    from games.ai.trains_sim import TrainSim, move_of
    from games.ai.trains_sim import playout as sim_playout

    rules = rules_or_skip("mexican_train")
    kit = kit_for("mexican_train")
    rng = random.Random(7)
    checked = 0
    # The house rules the copy restates too: drawing until a tile fits, the double-blank's price.
    house = {"draw_until_play": True, "double_blank": 25}
    for players, seed, options in ((2, b"c2", {}), (4, b"c4", {}), (8, b"c8", {}), (3, b"cu", house)):
        for state in medium_positions(players, seed, 300, options)[::4]:
            deal = cast(TrainsState, determinize(rules, kit, last_hand_view(rules.view(state, state.turn)), rng))
            sim = TrainSim(deal)
            legal = rules.legal_actions(deal)
            assert [move_of(a, players) for a in legal] == sim.legal()
            for action in legal:
                for horizon in (HORIZON, 10_000):
                    expected = playout(rules, deal, action, horizon)
                    assert sim_playout(sim.copy(), move_of(action, players), horizon) == expected
                    checked += 1
    assert checked > 300


def test_medium_sheds_the_double_blank_first_when_the_room_prices_it() -> None:
    """A 0-0 weighs the room's `double_blank`: at 0 Medium keeps laying its planned train, at
    25 or 50 it sheds the 0-0 on the Mexican train (the view's scorer and the playouts' agree)."""
    from dataclasses import replace

    from games.ai.trains_sim import TrainSim, medium_move, move_of
    from games.core.tiles import make_tile

    rules = rules_or_skip("mexican_train")
    hand = tuple(make_tile(a, b) for a, b in ((0, 0), (0, 2), (3, 4), (9, 8)))
    for blank, expected in ((0, [3, 4]), (25, [0, 0]), (50, [0, 0])):
        state = rules.new_match(players=3, options={"double_blank": blank}, seed=b"blank")
        state = replace(
            state, hands=(hand, state.hands[1], state.hands[2]),
            lines=((make_tile(12, 3),), (), (), (make_tile(12, 0),)), line_ends=(3, 12, 12, 0),
            opened=(True, True, True), turn=0, log=(),
        )
        view = rules.view(state, 0)
        action = make_bot("mexican_train", "medium", seed=b"m").choose(view)
        assert action["tile"] == expected
        legal = rules.legal_actions(state)
        assert state_action(state, legal, Planner()) == action
        sim = TrainSim(state)
        assert medium_move(sim, sim.legal(), Planner()) == move_of(action, 3)
