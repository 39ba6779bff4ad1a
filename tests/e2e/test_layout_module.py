"""The line drawing against real engine layouts: every tile placed once, none overlapping."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page

from games.engine import get_rules

pytestmark = pytest.mark.e2e


def layouts(game: str, players: int, options: dict[str, object], count: int, seed: int) -> list[dict[str, object]]:
    """Final layouts of `count` hands played with random legal moves by the real engine."""
    rules = get_rules(game)
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = rules.new_match(players=players, options=options, seed=f"layout-{seed}-{k}".encode())
        hand = rules.view(state, 0)["hand_number"]
        best = rules.view(state, 0)["layout"]
        while rules.to_move(state) is not None:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            v = rules.view(state, None)
            if v["hand_number"] != hand:
                break
            best = v["layout"]
        out.append(best)
    return out


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("draw", 2, {}), ("block", 2, {"set": 9}), ("draw", 3, {"spinner": True, "set": 12}), ("allfives", 2, {}),
     ("allfives", 4, {"set": 9})],
)
@pytest.mark.parametrize(("width", "height"), [(344, 300), (340, 520), (580, 230), (1000, 420)])
def test_every_tile_is_placed_once_without_overlap(page: Page, static_url: str, game: str, players: int, options: dict[str, Any], width: int, height: int) -> None:
    """The board boxes of phones held upright and turned, a tablet and a laptop."""
    page.goto(f"{static_url}/frontend/")
    samples = layouts(game, players, options, 10, seed=width + height)
    result = page.evaluate(
        """async ([samples, width, height, spinner]) => {
            const m = await import('/frontend/js/table/layout.js');
            const { limitX, limitY } = m.lineLimits(width, height);
            return samples.map((layout) => {
                const { placed } = m.placeLine(layout, { limitX, limitY, spinner });
                const eps = 1e-6;
                let overlaps = 0;
                for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) {
                    const a = placed[i], b = placed[j];
                    if (a.x < b.x + b.w - eps && b.x < a.x + a.w - eps && a.y < b.y + b.h - eps && b.y < a.y + a.h - eps)
                        overlaps++;
                }
                const tiles = Object.values(layout.arms).reduce((n, arm) => n + arm.length, layout.lead ? 1 : 0);
                return { placed: placed.length, tiles, overlaps };
            });
        }""",
        [samples, width, height, game == "allfives" or bool(options.get("spinner"))],
    )
    assert [r["placed"] for r in result] == [r["tiles"] for r in result]
    assert [r["overlaps"] for r in result] == [0] * len(result)
