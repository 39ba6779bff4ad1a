"""The bot contract (docs/ai.md, "Bots"): a bot sees only its seat's view, always answers with a legal action, reproducibly."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai import kit_for, make_bot
from games.ai.hard import HardBot
from games.ai.sampling import sample_deal
from games.engine import names

from .support import CASES, case_id, positions, rules_or_skip

LEVELS = ("easy", "medium", "hard")


def small_bot(game: str, level: str, seed: bytes) -> Any:
    """The level's bot; Hard with a small budget so the property runs stay fast."""
    if level == "hard":
        return HardBot(game, kit_for(game), seed, budget=8)
    return make_bot(game, level, seed)


def test_make_bot_covers_every_game_and_level() -> None:
    for game in names():
        try:
            rules_or_skip(game)
        except pytest.skip.Exception:
            continue
        for level in LEVELS:
            bot = make_bot(game, level, seed=b"s")
            assert (bot.game, bot.level) == (game, level)


def test_make_bot_refuses_unknown_game_and_level() -> None:
    with pytest.raises(ValueError, match="unknown game 'go'"):
        make_bot("go", "easy", seed=b"s")
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        make_bot("draw", "expert", seed=b"s")


@pytest.mark.parametrize("level", LEVELS)
def test_bot_refuses_a_view_where_its_seat_is_not_to_move(level: str) -> None:
    rules = rules_or_skip("draw")
    state = rules.new_match(players=2, options={}, seed=b"idle")
    mover = rules.to_move(state)
    assert mover is not None
    idle = 1 - mover
    with pytest.raises(ValueError, match="not to move"):
        make_bot("draw", level, seed=b"s").choose(rules.view(state, idle))


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8), bot_seed=st.binary(max_size=4))
def test_every_choice_is_legal_and_reproducible(
    case: tuple[str, int, dict[str, Any]], level: str, seed: bytes, bot_seed: bytes
) -> None:
    game, players, options = case
    rules = rules_or_skip(game)
    for state in positions(rules, players, options, seed, steps=40)[::3]:
        seat = rules.to_move(state)
        view = rules.view(state, seat)
        action = small_bot(game, level, bot_seed).choose(view)
        assert action in view["legal"]
        assert small_bot(game, level, bot_seed).choose(view) == action
        rules.apply(state, action)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_hidden_tiles_placed_differently_never_change_the_choice(
    case: tuple[str, int, dict[str, Any]], level: str
) -> None:
    """Two states that differ only in the hidden tiles give the same view, hence the same action."""
    game, players, options = case
    rules = rules_or_skip(game)
    kit = kit_for(game)
    checked = 0
    for state in positions(rules, players, options, b"hidden", steps=200)[3:]:
        seat = rules.to_move(state)
        view = rules.view(state, seat)
        if len(view["legal"]) < 2 or checked >= 3:
            continue
        hidden, unseen = kit.hidden(view), kit.unseen(view)
        one = rules.state_from_view(view, *sample_deal(view, hidden, unseen, random.Random(1)))
        two = rules.state_from_view(view, *sample_deal(view, hidden, unseen, random.Random(2)))
        assert rules.dump(one) != rules.dump(two) or len(unseen) <= 1
        assert rules.view(one, seat) == rules.view(two, seat) == view
        choices = {repr(small_bot(game, level, b"same").choose(rules.view(s, seat))) for s in (one, two, state)}
        assert len(choices) == 1
        checked += 1
    assert checked >= 2


def test_full_budget_hard_bot_answers_a_live_table() -> None:
    """The server's call: make_bot(game, "hard", seed).choose(view) on a real position."""
    rules = rules_or_skip("draw")
    for state in positions(rules, 2, {}, b"live", steps=30)[::5]:
        view = rules.view(state, rules.to_move(state))
        assert make_bot("draw", "hard", seed=b"live").choose(view) in view["legal"]


def test_a_failing_search_falls_back_to_a_legal_move(caplog: pytest.LogCaptureFixture) -> None:
    """A bug in the AI costs a good move, never the table; the fallback is logged."""
    rules = rules_or_skip("draw")
    state = positions(rules, 2, {}, b"fallback", steps=6)[-1]
    view = rules.view(state, rules.to_move(state))
    broken = dict(view, hand_sizes=[])
    broken["legal"] = view["legal"]
    bot = make_bot("draw", "hard", seed=b"f")
    action = bot.choose(broken)
    assert action in view["legal"]
    assert action == make_bot("draw", "hard", seed=b"f").choose(broken)
    assert any("fell back" in r.getMessage() for r in caplog.records)
    caplog.clear()


def test_hard_leaves_the_garbage_collector_as_it_found_it() -> None:
    """Hard pauses the cyclic collector while it searches, and only then."""
    import gc

    rules = rules_or_skip("mexican_train")
    views = [rules.view(s, rules.to_move(s)) for s in positions(rules, 4, {}, b"gc", 60)]
    view = next(v for v in views if len(v["legal"]) > 1)
    bot = HardBot("mexican_train", kit_for("mexican_train"), b"gc", budget=8)
    assert gc.isenabled()
    bot.choose(view)
    assert gc.isenabled()
    gc.disable()
    try:
        bot.choose(view)
        assert not gc.isenabled()
    finally:
        gc.enable()
