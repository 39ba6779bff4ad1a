"""The Bot protocol and the one source of randomness every bot uses.

A bot sees a seat's view and nothing else, and must be reproducible: the same view and the
same bot seed give the same action. So a bot never keeps a random generator across calls;
each decision seeds its own from the bot seed and a digest of the view.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from collections.abc import Mapping
from typing import Any, Protocol

from games.core.actions import Action

#: What `Rules.view` gives a seat: JSON data (the engine protocol's `dict[str, Any]`), read
#: by key; the AI's only window on a match besides a family's fast path (`line_fast.py`,
#: `trains_fast.py`) on the states it samples.
View = Mapping[str, Any]
#: A record inside a view (an open end, a log event), JSON data as well.
Record = Mapping[str, Any]

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


class Bot(Protocol):
    """A player that turns a seat's view into one of `view["legal"]`."""

    game: str
    level: str

    def choose(self, view: View) -> Action:
        """One of the view's legal actions; `ValueError` when the seat has none."""
        ...


def bot_seed(seed: bytes | str | int | None) -> bytes:
    """The bot's secret as bytes: live bots without a seed get a fresh one."""
    if seed is None:
        return secrets.token_bytes(32)
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise ValueError("a bot seed is bytes, a str or an int")
    if isinstance(seed, int):
        return seed.to_bytes(max(1, (seed.bit_length() + 8) // 8), "big", signed=True)
    if isinstance(seed, str):
        return seed.encode("utf-8")
    raise ValueError("a bot seed is bytes, a str or an int")


def view_digest(view: View) -> bytes:
    """A digest of everything in the view, so two different positions never share a stream."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).digest()


def decision_rng(seed: bytes, view: View) -> random.Random:
    """The generator for one decision: a function of the bot seed and the view only."""
    return random.Random(hashlib.sha256(seed + view_digest(view)).digest())


def legal_of(view: View) -> list[Action]:
    """The view's legal actions; `ValueError` when the seat is not to move."""
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("this view has no legal action: the seat is not to move")
    return [dict(action) for action in legal]


def safe_fallback(bot: Bot, view: View, legal: list[Action], error: Exception) -> Action:
    """A random legal action when a heuristic or search fails on a view it did not foresee.

    The server asks bots to move for dropped players, so a bug in the AI must cost a good
    move, never the table. The failure is logged, and the choice is still reproducible.
    """
    logging.getLogger("games.ai").warning(
        "%s %s bot fell back to a random move: %r", bot.game, bot.level, error
    )
    seed = getattr(bot, "seed", b"")
    return decision_rng(seed if isinstance(seed, bytes) else b"", view).choice(legal)
