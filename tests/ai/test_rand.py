"""The searches' own shuffle makes the draws `random.Random.shuffle` makes."""

from __future__ import annotations

import random

from games.ai.rand import shuffle


def test_shuffle_is_random_shuffle_draw_for_draw() -> None:
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 21, 28, 64, 91, 600):
            plain, ours = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            plain.shuffle(a)
            shuffle(ours, b)
            assert a == b
            assert plain.random() == ours.random()
