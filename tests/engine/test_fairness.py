"""The fair shuffle (docs/engine.md, "Fair shuffle"): test vector, determinism, the deal and the hand seeds."""

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

from games.core.fairness import commitment, deal, hand_seed, master_seed, shuffle
from games.core.tiles import Tile, full_set

ZERO_SEED = bytes(32)


def test_commitment_of_the_spec_test_vector() -> None:
    assert commitment(ZERO_SEED) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


def test_shuffle_of_double_six_matches_the_spec_test_vector() -> None:
    expected = [
        (2, 2), (1, 5), (0, 0), (0, 6), (4, 5), (0, 1), (0, 5),
        (2, 3), (2, 5), (5, 6), (2, 4), (1, 3), (5, 5), (0, 3),
    ]
    order = shuffle(full_set(6), ZERO_SEED)
    assert [tuple(t) for t in order[:14]] == expected
    assert sorted(order) == list(full_set(6))


def test_shuffle_is_the_hmac_fisher_yates_of_spec() -> None:
    seed = b"\x01" * 32
    order = list(full_set(9))
    for i in range(len(order) - 1, 0, -1):
        digest = hmac.new(seed, f"r:{i}".encode("ascii"), hashlib.sha256).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert list(shuffle(full_set(9), seed)) == order


@given(st.binary(min_size=32, max_size=32), st.sampled_from([6, 9, 12, 15, 18]))
def test_shuffle_is_a_permutation_and_deterministic(seed: bytes, top: int) -> None:
    first = shuffle(full_set(top), seed)
    assert first == shuffle(full_set(top), seed)
    assert sorted(first) == list(full_set(top))


def test_deal_gives_contiguous_blocks_and_the_rest_in_order() -> None:
    order = shuffle(full_set(6), ZERO_SEED)
    hands, boneyard = deal(order, 2, 7)
    assert hands == (order[:7], order[7:14])
    assert boneyard == order[14:]


def test_hand_seed_is_hmac_of_master_and_hand_number() -> None:
    master = b"m" * 32
    expected = hmac.new(master, b"hand:3", hashlib.sha256).digest()
    assert hand_seed(master, 3) == expected
    assert len({hand_seed(master, h) for h in range(50)}) == 50


def test_live_matches_draw_a_fresh_secret_master() -> None:
    assert len(master_seed(None)) == 32
    assert master_seed(None) != master_seed(None)
    assert master_seed(b"abc") == b"abc"


def test_canonical_order_of_double_six() -> None:
    tiles = full_set(6)
    assert tiles[:8] == (Tile(0, 0), Tile(0, 1), Tile(0, 2), Tile(0, 3), Tile(0, 4), Tile(0, 5), Tile(0, 6), Tile(1, 1))
    assert tiles[-1] == Tile(6, 6)
    assert [len(full_set(n)) for n in (6, 9, 12, 15, 18)] == [28, 55, 91, 136, 190]
    assert [sum(t.pips for t in full_set(n)) for n in (6, 9, 12, 15, 18)] == [168, 495, 1092, 2040, 3420]


@given(st.binary(min_size=0, max_size=100))
def test_shuffle_equals_the_plain_hmac_definition_for_any_seed_length(seed: bytes) -> None:
    order = list(full_set(6))
    for i in range(len(order) - 1, 0, -1):
        j = int.from_bytes(hmac.new(seed, f"r:{i}".encode(), hashlib.sha256).digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert list(shuffle(full_set(6), seed)) == order
