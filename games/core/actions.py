"""The action vocabulary of SPEC §4: reading a JSON action into its canonical dict."""

from __future__ import annotations

from typing import Any

from games.core.errors import MalformedAction
from games.core.tiles import parse_tile

Action = dict[str, Any]

ACTION_KEYS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "tile", "end"}),
    "draw": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "end_turn": frozenset({"type"}),
    "bid": frozenset({"type", "value"}),
    "trump": frozenset({"type", "suit"}),
}

TRUMP_NAMES = frozenset({"doubles", "follow_me", "nello"})


def normalise_action(raw: object) -> Action:
    """The canonical form of an action (tile low end first), or `MalformedAction`.

    Legal actions are produced in this form, so an action is legal exactly when its canonical
    form equals one of them.
    """
    if not isinstance(raw, dict):
        raise MalformedAction(f"an action is a JSON object with a \"type\", not {raw!r}")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise MalformedAction(
            f"unknown action type {kind!r}: expected one of {', '.join(sorted(ACTION_KEYS))}"
        )
    extra = set(raw) - ACTION_KEYS[kind]
    if extra:
        raise MalformedAction(f"a {kind} action has no field {sorted(extra)[0]!r}")
    if kind == "play":
        if "tile" not in raw:
            raise MalformedAction("a play action needs a \"tile\"")
        tile = parse_tile(raw["tile"])
        out: Action = {"type": "play", "tile": [tile.low, tile.high]}
        if "end" in raw:
            end = raw["end"]
            if not isinstance(end, str) or not end or len(end) > 32:
                raise MalformedAction(f"an end is a short string such as \"left\", not {end!r}")
            out["end"] = end
        return out
    if kind == "bid":
        value = raw.get("value")
        if type(value) is not int:
            raise MalformedAction(f"a bid needs a whole-number \"value\", not {value!r}")
        return {"type": "bid", "value": value}
    if kind == "trump":
        suit = raw.get("suit")
        if type(suit) is int and 0 <= suit <= 6:
            return {"type": "trump", "suit": suit}
        if isinstance(suit, str) and suit in TRUMP_NAMES:
            return {"type": "trump", "suit": suit}
        raise MalformedAction(
            f"trumps are a suit 0..6 or one of {', '.join(sorted(TRUMP_NAMES))}, not {suit!r}"
        )
    return {"type": kind}
