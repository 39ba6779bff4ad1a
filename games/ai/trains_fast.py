"""Mexican Train's fast path, as the AI reaches it: a Protocol class, no import of the family.

Hard's Mexican Train search copies the sampled state into a small mutable position
(`trains_sim.TrainSim`) and plays Medium's rule on it (`trains_policy.state_action`). Both read
the engine's `TrainState` (`games/mexican_train/state.py`) by its field names; the AI may not
import the family (an import contract forbids it), so `TrainsState` states the fields they
read, and `trains_state` checks a state has them and hands it back typed. A test holds the
engine's states to this shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeGuard, runtime_checkable

from games.core.tiles import Tile


@runtime_checkable
class TrainsState(Protocol):
    """The fields of a Mexican Train state a playout needs."""

    @property
    def players(self) -> int: ...
    @property
    def multiple(self) -> bool: ...
    @property
    def double_blank(self) -> int: ...
    @property
    def draw_until(self) -> bool: ...
    @property
    def hands(self) -> Sequence[tuple[Tile, ...]]: ...
    @property
    def boneyard(self) -> Sequence[Tile]: ...
    @property
    def line_ends(self) -> Sequence[int]: ...
    @property
    def markers(self) -> Sequence[bool]: ...
    @property
    def open_doubles(self) -> Sequence[int]: ...
    @property
    def opened(self) -> Sequence[bool]: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def played(self) -> int: ...
    @property
    def owed(self) -> bool: ...
    @property
    def drawn(self) -> Tile | None: ...
    @property
    def totals(self) -> Sequence[int]: ...


#: The classes found to have every field (a Protocol's `isinstance` looks each one up, a
#: tenth of a millisecond; a class is checked once).
_STATES: set[type] = set()


def _is_trains_state(state: object) -> TypeGuard[TrainsState]:
    if type(state) in _STATES:
        return True
    if isinstance(state, TrainsState):
        _STATES.add(type(state))
        return True
    return False


def trains_state(state: object) -> TrainsState:
    """A Mexican Train state read as a `TrainsState`; `TypeError` for another game's."""
    if not _is_trains_state(state):
        raise TypeError(f"{type(state).__name__} is not a Mexican Train state")
    return state
