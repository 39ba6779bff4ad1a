"""Advice from the Hard AI: its move for a seat's view, and one sentence of why."""

from __future__ import annotations

from dataclasses import dataclass

from games.ai import kit_for
from games.ai.hard import HardBot
from games.ai.policy import View
from games.core.actions import Action
from games.core.protocol import Rules


@dataclass(frozen=True, slots=True)
class Advice:
    action: Action
    why: str


def advise(rules: Rules[object], view: View, *, seed: bytes = b"advice") -> Advice:
    """Hard's move for `view` and why."""
    action = HardBot(rules.name, kit_for(rules.name), seed).choose(view)
    return Advice(action, "Hard's choice.")
