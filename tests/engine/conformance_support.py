"""Shared machinery of the conformance suite: presets, random play and the invariant checks.

Every check here uses only the engine protocol (docs/engine.md) (views, legal actions, dump/load), so the same
suite judges every game.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from games.core.fairness import shuffle
from games.core.tiles import Tile, full_set, make_tile
from games.engine import IllegalAction, MalformedAction, get_rules

# (players, options) per game: the defaults and every contested rule switched.
PRESETS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "block": [
        (2, {}), (3, {}), (4, {}), (4, {"partnership": True}),
        (4, {"partnership": True, "hand_size": 7}),
        (2, {"scoring": "opponents", "double_blank": 50}),
        (2, {"spinner": True}), (3, {"next_lead": "highest_double"}),
        (2, {"set": 9}), (4, {"set": 12}),
    ],
    "draw": [
        (2, {}), (3, {}), (4, {}), (4, {"partnership": True}),
        (2, {"scoring": "opponents", "double_blank": 50, "boneyard_reserve": 0}),
        (2, {"spinner": True}), (4, {"next_lead": "highest_double", "target": 30}),
        (2, {"set": 9}), (3, {"set": 12}),
    ],
    "allfives": [
        (2, {}), (3, {}), (4, {}), (4, {"partnership": True}),
        (2, {"spinner": False}), (2, {"round_to_five": False, "scoring": "opponents"}),
        (2, {"target": 50, "double_blank": 50}), (2, {"set": 9}), (4, {"set": 12}),
    ],
    "texas42": [
        (4, {}), (4, {"all_pass": "force"}),
        (4, {"doubles_trump": True, "follow_me": True, "nello": True}),
        (4, {"target_points": 250}), (4, {"target_marks": 1}),
        (4, {"plunge": True, "splash": True, "sevens": True, "nello": True, "nello_doubles": "low",
             "forced_bid": True}),
        (4, {"nello": True, "nello_doubles": "own_suit", "nello_min_marks": 1, "plunge": True,
             "doubles_trump": True}),
    ],
    "mexican_train": [
        (2, {}), (4, {}), (7, {}), (10, {}),
        (4, {"first_turn": "single", "double_blank": 50}),
        (3, {"set": 9}), (2, {"set": 6}), (4, {"rounds": 2}),
        (3, {"set": 9, "draw_until_play": True, "double_blank": 25}),
    ],
    "chicken_foot": [
        (2, {}), (4, {}), (8, {"set": 12}), (4, {"double_blank": 0}), (3, {"double_blank": 25}),
        (4, {"opening_arms": 6}),
    ],
    "fiveup": [
        (2, {}), (3, {}), (4, {}), (4, {"partnership": False}),
        (2, {"muggins": True}), (4, {"muggins": True}), (3, {"muggins": True, "target": 30}),
        (2, {"target": 40}),
    ],
}

NON_TILE_KEYS = frozenset({
    "scores", "teams", "hand_sizes", "points", "totals", "tricks_won", "points_taken", "marks",
    "counts", "seats", "winning_seats", "options", "round_scores", "bid_range", "values",
    "winners", "side_points", "count_taken", "standings", "penalties", "ends", "fives",
})
NUMBER_KEY_PARTS = ("point", "score", "size", "total", "count", "mark", "seat", "team", "option", "fives")
PUBLIC_AFTER_THE_HAND = frozenset({"last_hand", "result", "revealed"})
MAX_ACTIONS_PER_MATCH = 200_000


def rules_of(game: str) -> Any:
    return get_rules(game)


def preset_ids(game: str) -> list[str]:
    return [f"{game}-{p}p-{json.dumps(o, sort_keys=True)}" for p, o in PRESETS[game]]


def tiles_in(value: Any, skip: frozenset[str] = frozenset()) -> set[Tile]:
    """Every `[a, b]` pair of small integers anywhere in a JSON value, outside `skip` keys."""
    found: set[Tile] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                if key in skip or key in NON_TILE_KEYS or any(part in key for part in NUMBER_KEY_PARTS):
                    continue
                walk(child)
        elif isinstance(node, list):
            if (len(node) == 2 and all(type(x) is int for x in node)
                    and all(0 <= x <= 18 for x in node)):
                found.add(make_tile(node[0], node[1]))
            else:
                for child in node:
                    walk(child)

    walk(value)
    return found


def set_top(view: dict[str, Any]) -> int:
    options = view.get("options") or {}
    top = options.get("set")
    return top if isinstance(top, int) else 6


def check_views(rules: Any, state: Any) -> None:
    """Every seat's view and the spectator's: JSON, legal lists, and no hidden tile shown."""
    players = rules.view(state, None)["players"]
    mover = rules.to_move(state)
    views = [rules.view(state, seat) for seat in range(players)]
    spectator = rules.view(state, None)
    for seat, view in enumerate(views):
        json.dumps(view)
        for key in ("hand", "to_move", "scores", "teams", "commitment", "revealed", "legal", "log"):
            assert key in view, f"view lacks {key!r}"
        assert view["to_move"] == mover
        if seat == mover:
            assert view["legal"] == rules.legal_actions(state)
        else:
            assert view["legal"] == []
        assert len(view["scores"]) == len(view["teams"])
    json.dumps(spectator)
    assert "hand" not in spectator
    assert spectator["legal"] == []
    if mover is None:
        return
    hands = [{make_tile(*t) for t in view["hand"]} for view in views]
    assert sum(len(h) for h in hands) == sum(len(view["hand"]) for view in views), "a tile held twice"
    public = tiles_in(spectator, PUBLIC_AFTER_THE_HAND)
    held = set().union(*hands)
    assert not public & held, f"the spectator sees held tiles {sorted(public & held)}"
    top = set_top(spectator)
    boneyard = set(full_set(top)) - held - public
    assert len(boneyard) == spectator["boneyard"], (
        f"{len(full_set(top))} tiles - {len(held)} held - {len(public)} public != boneyard "
        f"{spectator['boneyard']}: a boneyard tile is shown, or the count is wrong")
    for seat, view in enumerate(views):
        shown = tiles_in(view, PUBLIC_AFTER_THE_HAND)
        leaked = shown - public - hands[seat]
        assert not leaked, f"seat {seat} sees hidden tiles {sorted(leaked)}"
        assert view["hand_sizes"] == [len(h) for h in hands]


def check_commitments(rules: Any, state: Any, seen: dict[int, str]) -> None:
    """The commitment of each hand is published, and the revealed seed hashes to it."""
    view = rules.view(state, None)
    number = rules.hand_index(state)
    if rules.to_move(state) is not None:
        seen.setdefault(number, view["commitment"])
        assert view["commitment"] == seen[number]
        assert len(view["commitment"]) == 64
    for hand, commitment in seen.items():
        if (hand < number or rules.to_move(state) is None) and hand < len(view["revealed"]):
            seed = bytes.fromhex(view["revealed"][hand])
            assert hashlib.sha256(seed).hexdigest() == commitment


def check_deal_matches_seed(game: str, dealt: list[list[Tile]], seed_hex: str, engine: Tile | None,
                            top: int, hand_size: object = None) -> None:
    """The hands dealt are the blocks (docs/engine.md, "Fair shuffle") of the order the revealed seed gives."""
    tiles = [t for t in full_set(top) if t != engine]
    order = shuffle(tiles, bytes.fromhex(seed_hex))
    size = hand_size if isinstance(hand_size, int) else min(len(h) for h in dealt)
    for seat, hand in enumerate(dealt):
        block = set(order[seat * size:(seat + 1) * size])
        assert block <= set(hand), f"{game}: seat {seat} was not dealt its block of the shuffle"


def check_apply_refuses(rules: Any, state: Any, rng: random.Random) -> None:
    """Malformed and illegal actions raise, and the state is left as it was."""
    before = rules.dump(state)
    legal = rules.legal_actions(state)
    top = set_top(rules.view(state, None))
    candidates: list[Any] = [
        {"type": "play", "tile": [a, b], "end": end}
        for a, b in [tuple(rng.choice(full_set(top))) for _ in range(4)]
        for end in ("left", "nowhere")
    ]
    candidates += [{"type": "draw"}, {"type": "pass"}, {"type": "end_turn"}, {"type": "bid", "value": 29},
                   {"type": "play", "tile": [0, 0]}]
    for action in candidates:
        if action in legal:
            continue
        try:
            rules.apply(state, action)
        except MalformedAction:
            raise AssertionError(f"{action} is well formed") from None
        except IllegalAction as err:
            assert str(err), "an illegal action needs a message"
        else:
            raise AssertionError(f"{action} was accepted but is not in legal_actions")
    for garbage in (None, 7, "draw", {"type": "fly"}, {"type": "play", "tile": "6-6"}, {"type": "play"}):
        try:
            rules.apply(state, garbage)
        except MalformedAction as err:
            assert str(err)
        else:
            raise AssertionError(f"{garbage!r} was not refused as malformed")
    assert rules.dump(state) == before


def check_round_trip(rules: Any, state: Any) -> None:
    data = rules.dump(state)
    again = rules.load(json.loads(json.dumps(data)))
    assert again == state
    assert rules.dump(again) == data


def flipped(action: dict[str, Any]) -> dict[str, Any]:
    """The same action with its tile named high end first (docs/engine.md, "Actions": tile order aside)."""
    if "tile" in action:
        return {**action, "tile": [action["tile"][1], action["tile"][0]]}
    return action
