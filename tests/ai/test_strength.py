"""Fixed-seed strength checks that chance cannot pass: under the null of equal play, each
threshold lies more than three standard deviations above one half."""

from __future__ import annotations

import pytest

from games.ai.line import LineKit
from games.simulate import Config, run

from .support import rules_or_skip


def share(game: str, players: int, levels: tuple[str, ...], count: int, **kw: object) -> float:
    rules_or_skip(game)
    options = dict(kw.pop("options", {}) or {})  # type: ignore[call-overload]
    report = run(Config(game, players, levels, options, "strength", bool(kw.get("matches"))), count)
    return float(report["bots"][0]["won_of_decided"])


def test_hard_beats_easy_at_two_player_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    # A quarter of the live budget keeps the default run fast; it is still Hard's search.
    monkeypatch.setattr(LineKit, "budget", lambda self, view: 60)
    # About 118 decided rounds: 0.64 is 3.0 standard deviations above 0.5.
    assert share("draw", 2, ("hard", "easy"), 120) >= 0.64


def test_medium_beats_easy_at_two_player_draw() -> None:
    # About 395 decided rounds: 0.58 is 3.2 standard deviations above 0.5.
    assert share("draw", 2, ("medium", "easy"), 400) >= 0.58


def test_medium_team_beats_easy_team_at_texas_42() -> None:
    assert share("texas42", 4, ("medium", "easy"), 120) >= 0.75


@pytest.mark.slow
def test_hard_beats_easy_in_400_rounds_of_draw() -> None:
    assert share("draw", 2, ("hard", "easy"), 400) >= 0.6


@pytest.mark.slow
def test_hard_partnership_beats_easy_at_block_with_all_tiles_dealt() -> None:
    assert share("block", 4, ("hard", "easy"), 400, options={"partnership": True, "hand_size": 7}) >= 0.6
