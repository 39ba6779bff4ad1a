"""Hints (the room option `hints`): the Hard AI's move for the seat to move, and why.

A hint is worked out from the seat's own view and nothing else (`games.ai.advice.advise`
is given `rules.view(state, seat)`, exactly what the bots get), with a fixed seed, so it is
a pure function of that view: the answer for a (room, match, version, seat) is kept, and
asking again, or a flood of asks, costs no second search. What is kept is the move and the
facts of why, not a sentence: each asker's socket words it in its own language
(`Hint.why`).

The view is read on a database thread; the search runs on this process's one hint thread,
never on the event loop and never in the bots' workers, so a hint delays no AI move and no
other room's frames (docs/protocol.md, "Hints").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from games.ai.advice import advise
from games.engine import get_rules
from games.options import table_options
from lobby import selectors, wording
from lobby.errors import HintsOffError, NotYourTurnError
from lobby.runtime import runtime

#: The seed of every hint: a hint depends on the view alone.
HINT_SEED = b"dominoes hint"
#: Hints kept, the newest last: one per seat and version asked.
KEPT = 512

Key = tuple[str, int, int, int]


class Hints:
    """This process's hint thread and the hints it has given."""

    def __init__(self) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="lobby-hint")
        self._kept: OrderedDict[Key, Hint] = OrderedDict()
        self._lock = threading.Lock()

    async def answer(self, asked: Asked) -> Hint:
        """Hard's action for the seat's view and the facts of why; once per key."""
        key = asked.key
        with self._lock:
            found = self._kept.get(key)
        if found is not None:
            return found
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.pool, _advise, asked)
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True)


@dataclass(frozen=True, slots=True)
class Asked:
    """What a hint is worked out from: the seat's view, and the public names of the seats."""

    key: Key
    game: str
    view: dict[str, Any]
    names: list[str]


@dataclass(frozen=True, slots=True)
class Hint:
    """Hard's action for a seat's view, and what the sentence of why is made from."""

    action: dict[str, Any]
    facts: Mapping[str, Any]
    unit: str
    names: tuple[str, ...]

    def why(self) -> str:
        """The sentence of why, in the active language (the asking socket's)."""
        return wording.advice_why(self.facts, self.unit, self.names)


def _advise(asked: Asked) -> Hint:
    advice = advise(get_rules(asked.game), asked.view, seed=HINT_SEED, names=asked.names)
    return Hint(dict(advice.action), advice.facts, advice.unit, tuple(asked.names))


def hint_view(code: str, seat: int) -> Asked:
    """What a hint is worked out from: its key, the game, the seat's view now and the names.

    `HintsOffError` when the room's `hints` option is off, `NotYourTurnError` when the seat
    is not the one to move (or no match is being played)."""
    room, match, version, view = selectors.table_snapshot(code, seat)
    if not table_options(room.options)["hints"]:
        raise HintsOffError(
            gettext_noop("hints are off at this table: the host turns them on in the room's options"))
    if match is None or view is None or match.is_over:
        raise NotYourTurnError(gettext_noop("no hand is being played: a hint is for the seat to move"))
    if match.to_move != seat or not view.get("legal"):
        raise NotYourTurnError(gettext_noop("it is not your turn: a hint is for the seat to move"))
    names = [str(s.get("name") or "") for s in match.seats or ()]
    return Asked((room.code, match.number, version, seat), match.game, view, names)


def hints() -> Hints:
    """The process's hint thread, a part of its runtime started on the first hint."""
    return runtime().part(Hints)
