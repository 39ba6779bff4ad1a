"""Deals of the hidden tiles that agree with everything a seat has seen (determinization).

The unseen tiles are shared out among the other hands' slots, each slot taking only a tile
its voids allow, and whatever is left forms the boneyard in a random order. Slots are filled
most constrained first; a dead end restarts the deal, and after a few restarts the
constraints are relaxed, so a sample always exists even if the inference was too bold.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter

from games.ai.inference import HiddenHand, hand_of
from games.ai.policy import View
from games.ai.rand import shuffle
from games.core.tiles import Tile

RESTARTS = 12


def _try_deal(
    hidden: Mapping[int, HiddenHand], pool: Sequence[Tile], rng: random.Random, strict: bool
) -> dict[int, list[Tile]] | None:
    # Most constrained first, ties in random order (`(-size, draw)`: a stable sort on it).
    jobs = [(-len(slot), rng.random(), seat, slot) for seat, hand in hidden.items() for slot in hand.slots]
    jobs.sort(key=_BY_SIZE_THEN_DRAW)
    left = list(pool)
    shuffle(rng, left)
    out: dict[int, list[Tile]] = {seat: [] for seat in hidden}
    for _size, _key, seat, slot in jobs:
        banned = hidden[seat].banned
        if left and not slot and not banned:
            index: int | None = 0  # a free slot takes the next tile (what the scan would find)
        else:
            index = next((i for i, t in enumerate(left)
                          if t.low not in slot and t.high not in slot and t not in banned), None)
        if index is None:
            if strict:
                return None
            index = 0
        out[seat].append(left.pop(index))
    return out


_BY_SIZE_THEN_DRAW = itemgetter(0, 1)


def sample_deal(
    view: View, hidden: Mapping[int, HiddenHand], unseen: Sequence[Tile], rng: random.Random,
    own: Sequence[Tile] | None = None,
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands for every seat (the viewer's own from the view, or `own`: the same tiles, read
    once by a caller that samples many deals) and a boneyard in draw order."""
    seats = len(view.get("hand_sizes") or ())
    needed = sum(len(h.slots) for h in hidden.values())
    if needed > len(unseen):
        raise ValueError(f"the view hides {needed} tiles but only {len(unseen)} are unseen")
    dealt: dict[int, list[Tile]] | None = None
    for attempt in range(RESTARTS + 1):
        dealt = _try_deal(hidden, unseen, rng, strict=attempt < RESTARTS)
        if dealt is not None:
            break
    assert dealt is not None
    used = {t for tiles in dealt.values() for t in tiles}
    boneyard = [t for t in unseen if t not in used]
    shuffle(rng, boneyard)
    me = view.get("seat")
    mine = hand_of(view) if own is None else own
    hands = [list(mine) if seat == me else dealt.get(seat, []) for seat in range(seats)]
    return hands, boneyard
