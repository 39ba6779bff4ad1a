"""Hard's searched candidates: each one's estimated outcome, and the one it picks.

Every search of Hard ends by scoring a few candidate actions on the same sampled deals and
taking the best; `Scored` is that last step, kept instead of thrown away, so the advice
(`advice.py`: hints, reviews) reads Hard's own figures instead of searching again.
`values` are the search's expected outcome of each candidate for the seat's side, in the
game's unit (docs/ai.md, "Advice"); the pick may also weigh a heuristic prior, which is not
an outcome and is left out of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.actions import Action, normalise_action


@dataclass(frozen=True, slots=True)
class Scored:
    """Candidate actions, the expected outcome of each, and the index of Hard's choice."""

    actions: tuple[Action, ...]
    values: tuple[float, ...]
    best: int

    @property
    def choice(self) -> Action:
        return self.actions[self.best]

    def value_of(self, action: Action) -> float | None:
        """The estimate of `action` (tile order aside), or None when it was not searched."""
        wanted = normalise_action(action)
        for candidate, value in zip(self.actions, self.values, strict=True):
            if normalise_action(candidate) == wanted:
                return value
        return None


def pick(actions: Sequence[Action], values: Sequence[float], score: Sequence[float] | None = None) -> Scored:
    """The best of `actions` by `score` (by `values` without one), the first on a tie."""
    ranked = values if score is None else score
    best = max(range(len(actions)), key=lambda i: (ranked[i], -i))
    return Scored(tuple(actions), tuple(float(v) for v in values), best)


def only(action: Action) -> Scored:
    """A decision with one legal action: nothing was searched."""
    return Scored((action,), (0.0,), 0)
