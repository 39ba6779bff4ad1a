"""Checks the Mexican Train and Chicken Foot property tests share (no tests here).

Both games keep their states as frozen records with `hands`, `boneyard`, `turn` and `log`,
so the same random play, view secrecy and refusal checks apply to both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import pytest

from games.core.errors import IllegalAction, MalformedAction
from games.core.log import encode


def tiles_in(value: object, not_tiles: frozenset[str]) -> list[tuple[int, int]]:
    """Every tile a view shows, skipping the keys whose number pairs are not tiles."""
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in not_tiles for t in tiles_in(v, not_tiles)]
    if isinstance(value, list):
        if len(value) == 2 and all(type(x) is int for x in value):
            return [(value[0], value[1])]
        return [t for v in value for t in tiles_in(v, not_tiles)]
    return []


def check_views(rules: Any, state: Any, not_tiles: frozenset[str]) -> dict[int | None, dict[str, Any]]:
    """Every seat's view (and the spectator's) is JSON, hides what it must, and lists legal
    actions only to the seat to move; the views are returned for the family's own checks."""
    views: dict[int | None, dict[str, Any]] = {}
    for seat in (None, *range(state.players)):
        view = rules.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        hidden = set(state.boneyard) | {t for s, h in enumerate(state.hands) if s != seat for t in h}
        assert not hidden & set(tiles_in(view, not_tiles))
        assert ("hand" in view) == (seat is not None)
        assert view["legal"] == (rules.legal_actions(state) if seat == state.turn and seat is not None else [])
        views[seat] = view
    return views


def play_randomly(rules: Any, state: Any, rng: random.Random, steps: int) -> Any | None:
    """The state after `steps` random legal actions, or None when the match ends first."""
    for _ in range(steps):
        if rules.to_move(state) is None:
            return None
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
    return state


def hidden_placement(state: Any, viewer: int, rng: random.Random) -> tuple[list[list[Any]], list[Any]]:
    """A random placement of the tiles `viewer` cannot see: other hands of the same sizes, and
    the boneyard."""
    pool = [t for s, h in enumerate(state.hands) if s != viewer for t in h] + list(state.boneyard)
    rng.shuffle(pool)
    hands = []
    for s, h in enumerate(state.hands):
        if s == viewer:
            hands.append(list(h))
        else:
            hands.append(pool[: len(h)])
            pool = pool[len(h):]
    return hands, pool


def check_refusals(rules: Any, state: Any, candidates: Iterable[dict[str, Any]], malformed: Iterable[object]) -> None:
    """Each candidate not legal raises `IllegalAction` with a reason, each malformed action
    `MalformedAction`, and none of it changes the state."""
    legal = rules.legal_actions(state)
    before = rules.dump(state)
    for action in candidates:
        canonical = dict(action)
        if "tile" in canonical:
            canonical["tile"] = sorted(canonical["tile"])
        if canonical in legal:
            rules.apply(state, action)
        else:
            with pytest.raises(IllegalAction) as info:
                rules.apply(state, action)
            assert str(info.value)
    for bad in malformed:
        with pytest.raises(MalformedAction):
            rules.apply(state, bad)
    assert rules.dump(state) == before


def dumps_of_a_run(rules: Any, players: int, seed: bytes, rng_seed: int, steps: int) -> list[dict[str, Any]]:
    """Every dumped state of `steps` random actions from a new match (default options)."""
    rng = random.Random(rng_seed)
    state = rules.new_match(players, {}, seed=seed)
    out = []
    for _ in range(steps):
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
        out.append(rules.dump(state))
    return out


def logged_kinds(rules: Any, state: Any, rng: random.Random) -> set[str]:
    """Plays the match out, checking every logged event is exactly its canonical JSON; the
    event types seen."""
    kinds: set[str] = set()
    while rules.to_move(state) is not None:
        for event in state.log:
            assert encode(json.loads(event)) == event
            kinds.add(json.loads(event)["type"])
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
    return kinds


def apply_checked(rules: Any, state: Any, action: dict[str, Any]) -> Any:
    """`apply` of a legal action: it leaves its input alone, agrees with `advance`, and the
    input survives a trip through `dump`, JSON and `load`."""
    before = json.dumps(rules.dump(state))
    assert rules.load(json.loads(before)) == state
    after = rules.apply(state, action)
    assert json.dumps(rules.dump(state)) == before, "apply must not change its input"
    assert rules.advance(state, action) == after
    return after


def check_rebuild(rules: Any, state: Any) -> None:
    """`state_from_view` with the true hidden tiles gives back every view and the legal actions."""
    seat = state.turn
    assert seat is not None
    rebuilt = rules.state_from_view(rules.view(state, seat), state.hands, state.boneyard)
    for k in (None, *range(state.players)):
        assert rules.view(rebuilt, k) == rules.view(state, k)
    assert rules.legal_actions(rebuilt) == rules.legal_actions(state)


def rebuilt_from_a_placement(
    rules: Any, players: int, options: dict[str, object], seed: bytes, steps: int
) -> Any | None:
    """After `steps` random actions, the state rebuilt from the mover's view with the hidden
    tiles placed at random; it must show that seat the same view. None if the match ended."""
    rng = random.Random(seed)
    state = play_randomly(rules, rules.new_match(players, options, seed=seed), rng, steps)
    if state is None:
        return None
    viewer = state.turn
    assert viewer is not None
    view = rules.view(state, viewer)
    hands, pool = hidden_placement(state, viewer, rng)
    rebuilt = rules.state_from_view(view, hands, pool)
    assert rules.view(rebuilt, viewer) == view
    return rebuilt
