"""The AI players (docs/ai.md, "Bots"): `make_bot(game, level, seed).choose(view)`.

>>> from games.ai import LEVELS
>>> LEVELS
('easy', 'medium', 'hard')
"""

from __future__ import annotations

from importlib import import_module

from games.ai.easy import EasyBot
from games.ai.hard import HardBot
from games.ai.kit import Kit
from games.ai.medium import MediumBot
from games.ai.policy import LEVELS, Bot
from games.engine import names

__all__ = ["LEVELS", "Bot", "kit_for", "make_bot"]

_KITS: dict[str, str] = {
    "block": "games.ai.line:LINE_KIT",
    "draw": "games.ai.line:LINE_KIT",
    "allfives": "games.ai.line:LINE_KIT",
    "texas42": "games.ai.texas42:TEXAS42_KIT",
    "mexican_train": "games.ai.trains:TRAINS_KIT",
    "chicken_foot": "games.ai.trains:TRAINS_KIT",
    "fiveup": "games.ai.fiveup:FIVEUP_KIT",
}


def kit_for(game: str) -> Kit:
    """The game knowledge Medium and Hard use for `game`."""
    target = _KITS.get(game)
    if target is None:
        raise ValueError(f"no AI for game {game!r}: expected one of {', '.join(_KITS)}")
    module, _, attr = target.partition(":")
    kit: Kit = getattr(import_module(module), attr)
    return kit


def make_bot(game: str, level: str, seed: bytes | str | int | None = None) -> Bot:
    """A bot for `game` at `level` ("easy", "medium", "hard"); `ValueError` names a bad one."""
    if game not in names():
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(names())}")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    if level == "easy":
        return EasyBot(game, seed)
    if level == "medium":
        return MediumBot(game, kit_for(game), seed)
    return HardBot(game, kit_for(game), seed)
