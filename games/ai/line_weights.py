"""How much Medium values each feature of the position a play leaves in the line games.

Its own module so that the heuristic (`line.py`) and the searches that replay it in their
playouts (`line_search.py` and the per-game searches) share it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    """How much Medium values each feature of the position a play leaves, per game."""

    pips: float
    double: float
    spread: float
    follow: float
    scarce: float
    lock: float
    threat: float = 0.0


WEIGHTS: dict[str, Weights] = {
    "block": Weights(pips=1.0, double=3.0, spread=1.5, follow=1.5, scarce=1.0, lock=1.5),
    "draw": Weights(pips=0.3, double=3.0, spread=1.5, follow=1.5, scarce=1.0, lock=1.5),
    "allfives": Weights(pips=0.25, double=3.0, spread=1.5, follow=1.5, scarce=0.5, lock=1.5, threat=0.7),
}
