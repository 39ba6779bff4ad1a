"""`python -m games.simulate`: the JSON of docs/simulation.md, reproducible from its seed, any number of jobs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.simulate import Config, main, run, wilson

from .support import rules_or_skip

TIMING = ("decision_ms_mean", "decision_ms_p95")


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    out = dict(report)
    out["bots"] = [{k: v for k, v in bot.items() if k not in TIMING} for bot in report["bots"]]
    return out


def test_wilson_interval_of_a_half_over_a_hundred() -> None:
    assert wilson(50, 100) == [0.4038, 0.5962]
    assert wilson(0, 0) == [0.0, 1.0]
    assert wilson(10, 10)[1] == 1.0


def test_simulate_prints_the_spec_json(capsys: pytest.CaptureFixture[str]) -> None:
    rules_or_skip("draw")
    main(["--game", "draw", "--players", "2", "--bots", "medium,easy", "--rounds", "30", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert {"game", "rounds", "seed", "blocked", "opener_won", "bots"} <= set(report)
    assert (report["game"], report["rounds"], report["seed"]) == ("draw", 30, 20260805)
    assert [bot["level"] for bot in report["bots"]] == ["medium", "easy"]
    wins = sum(round(bot["won"] * 30) for bot in report["bots"])
    assert wins == report["decided"] <= 30
    for bot in report["bots"]:
        assert {"won", "won_ci", "decision_ms_mean", "decision_ms_p95"} <= set(bot)
        assert bot["won_ci"][0] <= bot["won"] <= bot["won_ci"][1]


def test_the_same_seed_gives_the_same_figures_with_any_number_of_jobs() -> None:
    rules_or_skip("block")
    config = Config("block", 4, ("easy", "medium"), {"partnership": True, "hand_size": 7}, "7", False)
    one = run(config, 24, jobs=1)
    assert without_timing(run(config, 24, jobs=2)) == without_timing(one)
    other = run(Config("block", 4, ("easy", "medium"), {"partnership": True, "hand_size": 7}, "8", False), 24)
    assert without_timing(other) != without_timing(one)


def test_matches_count_whole_matches_with_their_winner() -> None:
    rules_or_skip("texas42")
    report = run(Config("texas42", 4, ("medium", "easy"), {"target_marks": 2}, "1", True), 6)
    assert report["matches"] == 6
    # Every match is played whole, one hand at least (a hand worth two marks, such as a
    # 2-mark bid made or set, ends a match to 2 marks by itself).
    assert report["rounds"] >= report["matches"]
    assert report["decided"] == 6


def test_bad_options_are_refused_with_the_option_named(capsys: pytest.CaptureFixture[str]) -> None:
    rules_or_skip("draw")
    with pytest.raises(SystemExit):
        main(["--game", "draw", "--players", "2", "--options", '{"hand_size": 99}', "--rounds", "1"])
    assert "hand_size" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--game", "draw", "--bots", "wizard", "--rounds", "1"])





def test_a_recorded_run_stopped_and_resumed_gives_the_unbroken_run(tmp_path: Path) -> None:
    rules_or_skip("draw")
    config = Config("draw", 2, ("medium", "easy"), {}, "11", False)
    whole = run(config, 40)
    book = tmp_path / "draw.jsonl"
    first = run(config, 15, jobs=2, record=book)
    assert first["recorded"] == 0 and len(book.read_text().splitlines()) == 16
    with book.open("a") as out:
        out.write('{"index": 15, "winn')  # a line cut short by a stopped run
    resumed = run(config, 40, jobs=2, record=book)
    assert resumed["recorded"] == 15
    assert without_timing(resumed) == {**without_timing(whole), "recorded": 15}
    for bot, unbroken in zip(resumed["bots"], whole["bots"]):
        assert bot["decisions"] == unbroken["decisions"]
    assert run(config, 40, record=book)["recorded"] == 40


def test_a_record_of_another_run_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules_or_skip("draw")
    book = tmp_path / "draw.jsonl"
    run(Config("draw", 2, ("medium", "easy"), {}, "11", False), 3, record=book)
    argv = ["--game", "draw", "--bots", "hard,easy", "--rounds", "3", "--seed", "11", "--record", str(book)]
    assert main(argv) == 2
    assert "records another run" in capsys.readouterr().err


def test_an_empty_record_file_starts_a_new_record(tmp_path: Path) -> None:
    rules_or_skip("draw")
    book = tmp_path / "draw.jsonl"
    book.touch()
    report = run(Config("draw", 2, ("medium", "easy"), {}, "11", False), 3, record=book)
    assert report["recorded"] == 0 and len(book.read_text().splitlines()) == 4
