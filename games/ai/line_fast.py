"""The line games' fast path, as the AI reaches it: Protocol classes, no import of the family.

The searches of Block, Draw and All Fives (`line_search.py` and the per-game searches, the
endgame solver of `line_endgame.py`) step their own copy of a sampled deal on the engine's
tile tables, and score its end with the engine's own scoring. They reach those through the
rules object, never by importing `games.line` (an import contract forbids it), so this module
states what they use: `LineRules` of `games/line/rules.py` (its `configure`, `NOBODY`,
`fives_points` and `score_hand`), its `LineConfig`, `TileTable` and `LineState`, each by the
names the searches read. `line_fast_path` and `line_state` check a rules object or a state
has them and hand it back typed; a test holds every line game's rules, configs and states to these shapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeGuard, runtime_checkable

from games.core.layout import Layout
from games.core.protocol import Rules
from games.core.tiles import Tile

#: What the engine's tables plan for a layout's open ends: the mask of the tiles that fit any
#: end, and for each fitting tile index the ends it may go on.
EndsPlan = tuple[int, tuple[tuple[int, str], ...]]


@runtime_checkable
class LineTiles(Protocol):
    """A set's tables (`games.line.tables.TileTable`): tiles as indices and bit masks."""

    @property
    def low(self) -> tuple[int, ...]: ...
    @property
    def high(self) -> tuple[int, ...]: ...
    @property
    def pips(self) -> tuple[int, ...]: ...
    @property
    def suit(self) -> tuple[int, ...]: ...
    @property
    def grid(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def plans(self) -> Mapping[tuple[int, ...], EndsPlan]: ...

    def plan(self, ends: tuple[int, ...]) -> EndsPlan:
        """The plan of these open ends, made and remembered."""
        ...

    def index(self, tile: Tile) -> int:
        """A tile's index in the tables."""
        ...

    def mask(self, tiles: Iterable[Tile]) -> int:
        """The bit mask of these tiles."""
        ...

    def pip_count(self, mask: int, double_blank: int) -> int:
        """The pips a hand (a mask) counts, the double blank at `double_blank`."""
        ...


@runtime_checkable
class LineConfig(Protocol):
    """A match's fixed facts (`games.line.config.LineConfig`), the ones the searches read."""

    @property
    def players(self) -> int: ...
    @property
    def side(self) -> tuple[int, ...]: ...
    @property
    def target(self) -> int: ...
    @property
    def spinner(self) -> bool: ...
    @property
    def fives(self) -> bool: ...
    @property
    def double_blank(self) -> int: ...
    @property
    def draw_floor(self) -> int: ...
    @property
    def tiles(self) -> LineTiles: ...


@runtime_checkable
class LineState(Protocol):
    """The public facts of a line state (`games.line.state.LineState`) a search starts from."""

    @property
    def config(self) -> LineConfig: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def to_move(self) -> int: ...


@runtime_checkable
class HandScore(Protocol):
    """A scored hand (`games.line.scoring.HandScore`): the winning side (or `NOBODY`), its points."""

    @property
    def winner(self) -> int: ...
    @property
    def points(self) -> int: ...


@runtime_checkable
class LineFastPath(Protocol):
    """What a line game's rules object offers the searches beside the engine protocol."""

    NOBODY: int

    def configure(self, players: object, options: Mapping[str, object] | None) -> LineConfig:
        """The match configuration a view's players and options resolve to."""
        ...

    def fives_points(self, total: int) -> int:
        """What an open-end count scores in All Fives."""
        ...

    def score_hand(self, config: LineConfig, pips: tuple[int, ...], out: int) -> HandScore:
        """The engine's scoring of a hand that ended with `out` gone out (or `NOBODY`)."""
        ...


#: The classes found to have every member (a Protocol's `isinstance` looks each one up, a
#: tenth of a millisecond; a class is checked once).
_FAST_PATHS: set[type] = set()
_STATES: set[type] = set()


def _has_fast_path(rules: object) -> TypeGuard[LineFastPath]:
    if type(rules) in _FAST_PATHS:
        return True
    if isinstance(rules, LineFastPath):
        _FAST_PATHS.add(type(rules))
        return True
    return False


def _is_line_state(state: object) -> TypeGuard[LineState]:
    if type(state) in _STATES:
        return True
    if isinstance(state, LineState):
        _STATES.add(type(state))
        return True
    return False


def line_fast_path(rules: Rules[object]) -> LineFastPath:
    """`rules` as the line games' fast path; `TypeError` for rules of another family."""
    if not _has_fast_path(rules):
        raise TypeError(f"{rules.name!r} has no line fast path")
    return rules


def line_state(state: object) -> LineState:
    """A state of the line games' rules read as a `LineState`; `TypeError` for another."""
    if not _is_line_state(state):
        raise TypeError(f"{type(state).__name__} is not a line game's state")
    return state
