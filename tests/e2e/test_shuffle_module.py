"""The browser's fair-shuffle check and tile drawing, run as ES modules in Chromium."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

VECTOR_COMMITMENT = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
VECTOR_FIRST_14 = [
    [2, 2], [1, 5], [0, 0], [0, 6], [4, 5], [0, 1], [0, 5],
    [2, 3], [2, 5], [5, 6], [2, 4], [1, 3], [5, 5], [0, 3],
]


def python_shuffle(seed: bytes, items: list[list[int]]) -> list[list[int]]:
    """The fair shuffle (docs/engine.md) written out independently of the module under test."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = int.from_bytes(hmac.new(seed, f"r:{i}".encode(), hashlib.sha256).digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def canonical(top: int) -> list[list[int]]:
    return [[a, b] for a in range(top + 1) for b in range(a, top + 1)]


@pytest.fixture
def module_page(page: Page, static_url: str):  # type: ignore[no-untyped-def]
    page.goto(f"{static_url}/frontend/")
    return page


def test_shuffle_reproduces_the_spec_test_vector(module_page: Page) -> None:
    got = module_page.evaluate(
        """async () => {
            const m = await import('/frontend/js/shuffle.js');
            const seed = new Uint8Array(32);
            const order = await m.shuffle(seed, m.canonicalSet(6));
            return {commitment: await m.sha256Hex(seed), first: order.slice(0, 14), n: order.length};
        }"""
    )
    assert got == {"commitment": VECTOR_COMMITMENT, "first": VECTOR_FIRST_14, "n": 28}


@pytest.mark.parametrize(("top", "engine"), [(6, None), (12, [12, 12]), (18, [5, 5])])
def test_shuffle_matches_python_on_big_sets_and_without_the_engine(module_page: Page, top: int, engine: list[int] | None) -> None:
    seed = hashlib.sha256(f"seed-{top}".encode()).digest()
    tiles = [t for t in canonical(top) if t != engine]
    got = module_page.evaluate(
        """async ([seedHex, top, engine]) => {
            const m = await import('/frontend/js/shuffle.js');
            return await m.shuffle(m.hexToBytes(seedHex), m.canonicalSet(top, engine ? [engine] : []));
        }""",
        [seed.hex(), top, engine],
    )
    assert got == python_shuffle(seed, tiles)


def test_verify_hand_accepts_a_true_deal_and_names_each_failure(module_page: Page) -> None:
    seed = bytes(32)
    order = python_shuffle(seed, canonical(6))
    dealt = [sorted(order[k * 7:(k + 1) * 7]) for k in range(2)]
    args = {
        "seed": seed.hex(), "commitment": VECTOR_COMMITMENT, "dealt": dealt, "top": 6, "mine": dealt[1], "seat": 1,
    }
    script = """async (args) => {
        const m = await import('/frontend/js/shuffle.js');
        const r = await m.verifyHand(args);
        return {ok: r.ok, checks: Object.fromEntries(r.checks.map((c) => [c.name, c.ok]))};
    }"""
    assert module_page.evaluate(script, args) == {
        "ok": True, "checks": {"commitment": True, "deal": True, "my hand": True},
    }
    forged = dict(args, commitment="0" * 64, mine=dealt[0])
    assert module_page.evaluate(script, forged) == {
        "ok": False, "checks": {"commitment": False, "deal": True, "my hand": False},
    }
    swapped = dict(args, dealt=[dealt[1], dealt[0]])
    assert module_page.evaluate(script, swapped)["checks"]["deal"] is False


def test_tiles_draw_one_pip_per_point_and_label_themselves(module_page: Page) -> None:
    got = module_page.evaluate(
        """async () => {
            const t = await import('/frontend/js/tiles.js');
            // Each half's pips are one path, a circle per point (one "M" each).
            const pips = (svg) => [...svg.querySelectorAll('path.pips')]
                .reduce((n, p) => n + p.getAttribute('d').split('M').length - 1, 0);
            const out = [];
            for (let n = 0; n <= 18; n++) {
                const svg = t.tileSVG([n, 18 - n], {top: 18});
                out.push([pips(svg), svg.getAttribute('aria-label')]);
            }
            const plain = t.tileSVG([3, 3], {top: 6, vertical: true});
            return {out, double: plain.getAttribute('aria-label'), fills: new Set(
                [...plain.querySelectorAll('path.pips')].map((c) => c.getAttribute('fill'))).size};
        }"""
    )
    assert [count for count, _ in got["out"]] == [18] * 19
    # Spoken names, the higher number first; past twelve a number has no word, only digits.
    assert got["out"][5][1] == "13 five"
    assert got["out"][12][1] == "twelve six"
    assert got["double"] == "double three"
    assert got["fills"] == 1
