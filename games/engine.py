"""The engine protocol's facade: `get_rules(name)` for every game, and the errors it raises.

The contract is docs/engine.md, "The protocol".

>>> rules = get_rules("draw")
>>> state = rules.new_match(players=2, options={}, seed=bytes(32))
>>> rules.to_move(state) in (0, 1)
True
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from games.core.errors import IllegalAction, MalformedAction
from games.core.protocol import Rules

__all__ = ["IllegalAction", "MalformedAction", "Rules", "get_rules", "names"]

_REGISTRY: dict[str, str] = {
    "block": "games.line.rules:BlockRules",
    "draw": "games.line.rules:DrawRules",
    "allfives": "games.line.rules:AllFivesRules",
    "texas42": "games.texas42.rules:Texas42Rules",
    "mexican_train": "games.mexican_train.rules:MexicanTrainRules",
    "chicken_foot": "games.chicken_foot.rules:ChickenFootRules",
    "fiveup": "games.fiveup.rules:FiveUpRules",
}

_CACHE: dict[str, Rules[Any]] = {}


def names() -> list[str]:
    """Every game the engine knows, in the order docs/engine.md lists them."""
    return list(_REGISTRY)


def get_rules(name: str) -> Rules[Any]:
    """The rules object of game `name`; `ValueError` for an unknown game."""
    rules = _CACHE.get(name)
    if rules is None:
        target = _REGISTRY.get(name)
        if target is None:
            raise ValueError(f"unknown game {name!r}: expected one of {', '.join(_REGISTRY)}")
        module_name, _, class_name = target.partition(":")
        rules = getattr(import_module(module_name), class_name)()
        _CACHE[name] = rules
    return rules
