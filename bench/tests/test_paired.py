"""`bench/paired.py`: paired runs of the same rounds, compared round by round."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import paired
from games.ai import line_search
from games.engine import get_rules


def test_paired_runs_of_the_same_rounds_compare_round_by_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`bench.paired` stores each round's winner; the same code twice differs nowhere, and a
    changed plan field reaches the rounds it is run on."""
    base, again = tmp_path / "base.json", tmp_path / "again.json"
    paired.main(["--bots", "medium,easy", "--rounds", "30", "--out", str(base)])
    paired.main(["--bots", "medium,easy", "--rounds", "30", "--out", str(again), "--against", str(base)])
    assert "+0.00 ± 0.00 points over 30 rounds, 0 changed" in capsys.readouterr().out
    stored = json.loads(base.read_text())
    assert len(stored["winners"]) == 30
    assert set(stored["winners"]) <= {-1, 0, 1}
    # Won, lost, tied, won against lost, lost, won, won: -1 and +0.5 over four rounds.
    result = paired.compare([0, 1, -1, 0], [1, 1, 0, 0])
    assert (result["gain"], result["changed"]) == (-12.5, 2)
    before = line_search.PLANS["draw"]
    try:
        paired.patch([], ["draw.noise=0.5"])
        assert line_search.PLANS["draw"].noise == 0.5
    finally:
        line_search.PLANS["draw"] = before


def test_seeing_everything_searches_the_true_deal_and_is_undone_after(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`bench.paired --see-everything` hands Hard the true deal (its own hand checked against
    its view at every search, so a wrong deal would make the bot fall back and log it), and
    leaves the search, the rules and the bots as they were."""
    before = (line_search.Search.sample_hands, type(get_rules("block")).view)
    out = tmp_path / "ceiling.json"
    options = '{"partnership": true, "hand_size": 7}'
    paired.main(["--game", "block", "--players", "4", "--options", options, "--bots", "hard,easy",
                 "--rounds", "6", "--see-everything", "--out", str(out)])
    assert "fell back" not in caplog.text
    winners = json.loads(out.read_text())["winners"]
    assert len(winners) == 6
    assert winners.count(0) >= 4
    assert (line_search.Search.sample_hands, type(get_rules("block")).view) == before
    with pytest.raises(SystemExit):
        paired.main(["--game", "draw", "--rounds", "2", "--see-everything", "--out", str(out)])
