"""`random.Random.shuffle`, draw for draw, without its two Python calls per item.

The searches shuffle thousands of small lists a decision (the unseen tiles of every sampled
deal). `shuffle(rng, items)` makes exactly the draws `rng.shuffle(items)` makes, in the same
order, and leaves `items` and `rng` exactly as it would: a test holds them equal, so a
decision is the same whichever is used.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")

#: `n.bit_length()` for the list sizes the searches shuffle.
_BITS = tuple(n.bit_length() for n in range(512))


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle `items` in place as `rng.shuffle(items)` does (Fisher-Yates from the back,
    each index drawn by `getrandbits` with rejection, as `Random._randbelow` does)."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 512 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
