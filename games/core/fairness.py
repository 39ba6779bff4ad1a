"""The fair shuffle of SPEC §2: commitment, HMAC-driven Fisher-Yates, deal, hand seeds.

This module is the only source of chance in the kernel. Everything else is a function of the
seeds it produces, which is what makes every hand reproducible and checkable by players.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
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


def shuffle(items: Sequence[T], seed: bytes) -> tuple[T, ...]:
    """Fisher-Yates from the back, position `i` swapped with `HMAC(seed, "r:i") mod (i+1)`.

    The HMAC is computed from pads prepared once per seed: the same digest as `hmac.new`, in
    half the time, which matters because every hand of every AI rollout deals.
    """
    order = list(items)
    inner, outer = _hmac_pads(seed)
    for i in range(len(order) - 1, 0, -1):
        h = inner.copy()
        h.update(b"r:%d" % i)
        o = outer.copy()
        o.update(h.digest())
        j = int.from_bytes(o.digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def hand_seed(master: bytes, hand: int) -> bytes:
    """Seed of hand `hand` (0-based, redeals included) of a match started from `master`."""
    return hmac.new(master, b"hand:" + str(hand).encode("ascii"), hashlib.sha256).digest()


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
