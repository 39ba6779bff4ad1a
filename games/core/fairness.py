"""The fair shuffle (docs/engine.md, "Fair shuffle"): commitment, HMAC-driven Fisher-Yates, deal, hand seeds.

This module is the only source of chance in the kernel. Everything else is a function of the
seeds it produces, which is what makes every hand reproducible and checkable by players.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

SEED_BYTES = 32


def commitment(seed: bytes) -> str:
    """`sha256(seed)` as lowercase hex: published before the hand, checked after it."""
    return hashlib.sha256(seed).hexdigest()


_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


def _hmac_pads(seed: bytes) -> tuple[Any, Any]:
    """The inner and outer SHA-256 states of HMAC keyed by `seed` (RFC 2104), made once a shuffle."""
    key = hashlib.sha256(seed).digest() if len(seed) > 64 else seed
    key = key.ljust(64, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


@cache
def _swaps(n: int) -> tuple[tuple[int, bytes, int], ...]:
    """For a list of `n` items, each step of the shuffle: position, HMAC message, modulus."""
    return tuple((i, b"r:%d" % i, i + 1) for i in range(n - 1, 0, -1))


def shuffle(items: Sequence[T], seed: bytes) -> tuple[T, ...]:
    """Fisher-Yates from the back, position `i` swapped with `HMAC(seed, "r:i") mod (i+1)`.

    The HMAC is computed from pads prepared once per seed: the same digest as `hmac.new`, in
    half the time, which matters because every hand of every match and rollout deals. The
    messages and moduli of each step are prepared once per list length.
    """
    order = list(items)
    inner, outer = _hmac_pads(seed)
    inner_copy = inner.copy
    outer_copy = outer.copy
    from_bytes = int.from_bytes
    for i, message, modulus in _swaps(len(order)):
        h = inner_copy()
        h.update(message)
        o = outer_copy()
        o.update(h.digest())
        j = from_bytes(o.digest(), "big") % modulus
        order[i], order[j] = order[j], order[i]
    return tuple(order)


#: The HMAC pads of the last few masters: a match deals every hand from one master.
_MASTER_PADS: dict[bytes, tuple[Any, Any]] = {}


def hand_seed(master: bytes, hand: int) -> bytes:
    """Seed of hand `hand` (0-based, redeals included) of a match started from `master`.

    `HMAC_SHA256(master, "hand:<hand>")`, from the master's pads kept between hands.
    """
    pads = _MASTER_PADS.get(master)
    if pads is None:
        if len(_MASTER_PADS) >= 256:
            _MASTER_PADS.clear()
        pads = _MASTER_PADS[master] = _hmac_pads(master)
    h = pads[0].copy()
    h.update(b"hand:%d" % hand)
    o = pads[1].copy()
    o.update(h.digest())
    seed: bytes = o.digest()
    return seed


def new_secret() -> bytes:
    """32 bytes from the operating system's secure generator, for live play."""
    return secrets.token_bytes(SEED_BYTES)


def master_seed(seed: bytes | int | str | None) -> bytes:
    """The match's master secret: the caller's seed for reproducible runs, else a fresh secret.

    Live matches (`seed=None`) draw the master from `secrets.token_bytes(32)` and keep it in the
    state, so each hand seed is unpredictable yet `apply` stays a pure function of the state.
    Integers and strings are accepted for convenience in tests and simulations.
    """
    if seed is None:
        return new_secret()
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise ValueError("seed must be bytes, an int, a str or None")
    if isinstance(seed, int):
        return seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "big")
    if isinstance(seed, str):
        return seed.encode("utf-8")
    raise ValueError("seed must be bytes, an int, a str or None")


def deal(order: Sequence[T], players: int, hand_size: int) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """Seat `k` takes `order[k*h:(k+1)*h]`; the rest, in order, is the boneyard."""
    if players * hand_size > len(order):
        raise ValueError(f"cannot deal {hand_size} tiles to {players} players from {len(order)}")
    hands = tuple(tuple(order[k * hand_size:(k + 1) * hand_size]) for k in range(players))
    return hands, tuple(order[players * hand_size:])
