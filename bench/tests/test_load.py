"""`bench/load.py`: the load generator against the game server and the bare consumer, each
target in its own daphne processes (slow: run with `-m slow`)."""

from __future__ import annotations

import os

import pytest

from bench import load


def generator_services() -> list[str]:
    """The load generator's options for the database and Redis the tests use."""
    return [
        "--database-url", os.environ.get("DATABASE_URL", "sqlite"),
        "--redis-url", os.environ.get("REDIS_URL", ""),
    ]


@pytest.mark.slow
async def test_multiprocess_load_generator_measures_both_targets_without_faults() -> None:
    report = await load.main([
        # Five actions a second per room, so the paced phase's CPU is many clock ticks: at one
        # a second its four actions could take less than one and read as none.
        "--rooms", "2", "--rate", "5", "--duration", "2", "--ceiling", "1", "--settle", "0.5",
        "--bare-processes", "1",
        *generator_services(),
    ])
    results = {r["target"]: r for r in report["results"]}
    assert set(results) == {"server", "bare"}
    for result in results.values():
        assert result["connections"] == 8
        assert [p["phase"] for p in result["phases"]] == ["paced", "ceiling (back to back)"]
        assert all(p["actions"] > 0 and p["p99_ms"] is not None for p in result["phases"])
        assert result["errors"] == result["timeouts"] == result["lost_actions"] == 0
        for phase in result["phases"]:
            budget = phase["cpu_ms_per_action"]
            assert phase["server_cpu_ms_per_action"] > 0
            assert budget["generator"] > 0
            assert budget["machine"] > 0
            assert budget["cores_bound_actions_per_s"] > 0
            assert budget["redis"] >= 0
            assert budget["postgres"] >= 0
    assert results["server"]["processes"] == 2
    assert results["bare"]["processes"] == 1
    assert "paced: actions_per_s server/bare" in report["ratios"]


@pytest.mark.slow
async def test_load_generator_alternates_back_to_back_phases_with_both_targets_open(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = await load.main([
        "--rooms", "2", "--duration", "1", "--ceiling", "1", "--settle", "0.5", "--bare-processes", "1",
        "--alternate", "2",
        *generator_services(),
    ])
    results = {r["target"]: r for r in report["results"]}
    for result in results.values():
        assert [p["phase"] for p in result["phases"]] == ["paced", "ceiling (back to back)"]
        assert result["errors"] == result["timeouts"] == result["lost_actions"] == 0
    rounds = report["alternating"]["rounds"]
    assert [(r["round"], r["first"]) for r in rounds] == [(1, "server"), (2, "bare")]
    ratios = []
    for row in rounds:
        assert row["server"]["phase"] == row["bare"]["phase"] == f"alternating ceiling {row['round']}"
        assert row["server"]["actions"] > 0
        assert row["bare"]["actions"] > 0
        assert row["ratio"] == round(row["server"]["actions_per_s"] / row["bare"]["actions_per_s"], 2)
        ratios.append(row["ratio"])
    assert report["alternating"]["median_ratio"] == round((ratios[0] + ratios[1]) / 2, 2)
    capsys.readouterr()
    load.print_table(report)
    assert f"median ratio {report['alternating']['median_ratio']}" in capsys.readouterr().out


def test_the_soaks_trend_after_its_warm_up_fits_only_the_later_readings() -> None:
    """Memory that fills its caches for ten minutes and then holds still grows over the whole
    phase, and not at all after the warm-up."""
    readings = [(60.0 * minute, 200.0 + min(minute, 10) * 3 + (0.5 if minute % 2 else 0.0))
                for minute in range(41)]
    trend = load.rss_trend(readings, warmup=600)
    assert trend["slope_mib_per_hour"] > 20
    measured = trend["measured"]
    assert measured["from_s"] == 600
    assert measured["readings"] == 31
    assert abs(measured["slope_mib_per_hour"]) < 0.5
    assert abs(measured["growth_mib"]) <= measured["scatter_mib"]
    assert load.rss_trend(readings)["measured"] is None


@pytest.mark.slow
async def test_the_stagger_plays_each_room_a_random_number_of_actions_before_the_phases() -> None:
    report = await load.main([
        "--rooms", "3", "--rate", "5", "--duration", "1", "--ceiling", "0", "--settle", "0.5",
        "--stagger", "40", "--targets", "server",
        *generator_services(),
    ])
    (result,) = report["results"]
    staggered = result["stagger"]
    assert staggered["phase"] == "stagger"
    assert 0 < staggered["actions"] < 3 * 40
    assert [p["phase"] for p in result["phases"]] == ["paced"]
    assert result["errors"] == result["timeouts"] == result["lost_actions"] == 0
