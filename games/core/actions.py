"""The action vocabulary of docs/engine.md, "Actions": reading a JSON action into its canonical dict."""

from __future__ import annotations

from typing import Any

from games.core.errors import MalformedAction
from games.core.tiles import parse_tile

Action = dict[str, Any]

ACTION_KEYS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "tile", "end", "claim"}),
    "draw": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "end_turn": frozenset({"type"}),
    "bid": frozenset({"type", "value", "contract"}),
    "trump": frozenset({"type", "suit"}),
    "muggins": frozenset({"type"}),
}

TRUMP_NAMES = frozenset({"doubles", "follow_me", "nello", "sevens"})
#: 42's bids whose partner names trumps (docs/rules-texas42.md, "Plunge and splash").
CONTRACT_NAMES = frozenset({"plunge", "splash"})


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
        if "claim" in raw:
            # Five-Up's muggins house rule: a play claims its points. Canonical only when true.
            claim = raw["claim"]
            if type(claim) is not bool:
                raise MalformedAction(f"a play's \"claim\" is true or false, not {claim!r}")
            if claim:
                out["claim"] = True
        return out
    if kind == "bid":
        value = raw.get("value")
        if type(value) is not int:
            raise MalformedAction(f"a bid needs a whole-number \"value\", not {value!r}")
        if "contract" not in raw:
            return {"type": "bid", "value": value}
        contract = raw["contract"]
        if not isinstance(contract, str) or contract not in CONTRACT_NAMES:
            raise MalformedAction(
                f"a bid's contract is one of {', '.join(sorted(CONTRACT_NAMES))}, not {contract!r}")
        return {"type": "bid", "value": value, "contract": contract}
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


class FrozenTile(list[int]):
    """The `[low, high]` of a shared action: a list that refuses to change (see `FrozenAction`)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a legal action is shared and read-only: copy it to change it")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class FrozenAction(dict[str, Any]):
    """A legal action that a family lists again and again, built once and shared.

    It is the action dict of the protocol in every way but one: it cannot be changed (its tile
    is a `FrozenTile`). So `legal_actions` may hand the same objects to every caller, and
    `apply` may know one of its own at once. Copies (`dict(a)`, `copy.copy`, `deepcopy`,
    pickling) are plain dicts; the JSON is the same. `move` is the family's move for it.
    """

    __slots__ = ("move",)

    def __init__(self, move: Any, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.move = move

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a legal action is shared and read-only: copy it to change it")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


def frozen_play(move: Any, low: int, high: int, end: str | None) -> FrozenAction:
    """The shared form of `{"type": "play", "tile": [low, high], "end": end}` (no end: a lead)."""
    fields: dict[str, Any] = {"type": "play", "tile": FrozenTile((low, high))}
    if end is not None:
        fields["end"] = end
    return FrozenAction(move, fields)
