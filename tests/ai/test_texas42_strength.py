"""Fixed-seed strength check of Hard at 42: its threshold lies three standard deviations
above one half, so chance cannot pass it."""

from __future__ import annotations

import pytest

from games.simulate import Config, run

from .support import rules_or_skip


@pytest.mark.slow
def test_hard_team_beats_medium_team_in_300_hands_of_texas_42() -> None:
    rules_or_skip("texas42")
    report = run(Config("texas42", 4, ("hard", "medium"), {}, "strength", False), 300)
    # 300 decided hands: 0.587 is 3.0 standard deviations above 0.5.
    assert report["bots"][0]["won_of_decided"] >= 0.587
