"""Suits, following and trick winners, each case taken from the rules text."""

from __future__ import annotations

import pytest

from games.core.tiles import full_set
from games.texas42.tricks import (
    DOUBLES,
    TRUMPS,
    count_of,
    follows,
    led_suit,
    legal_plays,
    rank,
    trick_points,
    winning_index,
)

from .test_texas42_support import tile, tiles


def winner(trick: str, trump: int | str | None) -> str:
    played = tiles(trick)
    best = played[winning_index(played, trump)]
    return f"{best.high}-{best.low}" if best.high != best.low else f"{best.low}-{best.low}"


def test_count_is_thirty_five_on_five_tiles_and_the_hand_holds_forty_two() -> None:
    counted = {f"{t.low}-{t.high}": count_of(t) for t in full_set(6) if count_of(t)}
    assert counted == {"0-5": 5, "1-4": 5, "2-3": 5, "4-6": 10, "5-5": 10}
    assert sum(counted.values()) + 7 == 42
    assert trick_points(tiles("6-4 5-5 3-2 1-1")) == 26


def test_a_tile_with_a_trump_end_is_a_trump_and_nothing_else() -> None:
    # "The 6-3 is a three when threes are trumps, a six when sixes are trumps, and a six the rest."
    assert led_suit(tile("6-3"), 3) == TRUMPS
    assert led_suit(tile("6-3"), 6) == TRUMPS
    assert led_suit(tile("6-3"), 5) == 6
    assert not follows(tile("6-3"), 6, 3)


def test_a_lead_holding_a_trump_calls_for_trumps() -> None:
    # Sixes trumps: 6-4 leads trumps, so 6-1 must follow and 4-2 may not be played instead.
    assert legal_plays(tiles("4-2 6-1 4-4"), [tile("6-4")], 6) == tiles("6-1")


def test_every_non_trump_tile_carrying_the_led_number_follows() -> None:
    # Threes trumps: 6-4 leads sixes; 6-1 must be played if held, 4-2 need not.
    assert legal_plays(tiles("4-2 6-1 5-5"), [tile("6-4")], 3) == tiles("6-1")
    assert legal_plays(tiles("4-2 2-2 5-5"), [tile("6-4")], 3) == tiles("4-2 2-2 5-5")


def test_a_tile_carrying_the_trump_number_does_not_follow_an_off_suit() -> None:
    # Threes trumps, sixes led: 6-3 is a trump, so its holder is void in sixes and plays anything.
    assert legal_plays(tiles("6-3 4-2 1-1"), [tile("6-5")], 3) == tiles("6-3 4-2 1-1")


def test_suit_order_runs_from_the_double_down_to_the_blank() -> None:
    # "With fives as trumps the order runs 5-5, 6-5, 5-4, 5-3, 5-2, 5-1, 5-0."
    order = sorted(tiles("5-0 5-3 6-5 5-1 5-5 5-4 5-2"), key=lambda t: -rank(t, TRUMPS, 5))
    assert order == tiles("5-5 6-5 5-4 5-3 5-2 5-1 5-0")


def test_the_lowest_trump_beats_the_double_of_the_led_suit() -> None:
    assert winner("5-5 6-5 2-0 5-4", 2) == "2-0"


def test_the_double_of_the_led_suit_wins_an_untrumped_trick() -> None:
    assert winner("6-5 6-4 6-6 3-1", 2) == "6-6"


def test_off_suit_tiles_never_win_however_heavy() -> None:
    # Fours trumps: 1-0 leads ones (its higher end); 6-6, 2-0 and 5-5 are off suit.
    assert winner("1-0 6-6 2-0 5-5", 4) == "1-0"


def test_the_highest_trump_wins_among_trumps() -> None:
    assert winner("3-1 3-2 3-3 6-3", 3) == "3-3"
    assert winner("6-5 4-0 6-6 4-4", 4) == "4-4"


def test_follow_me_has_no_trumps_and_doubles_high_in_their_own_suit() -> None:
    assert legal_plays(tiles("6-1 4-3 2-2"), [tile("4-1")], None) == tiles("4-3")
    assert winner("4-1 4-4 6-6 4-3", None) == "4-4"
    assert winner("6-2 2-2 6-0 3-3", None) == "6-2"


def test_doubles_trump_makes_the_doubles_a_suit_ranked_by_number() -> None:
    assert led_suit(tile("2-2"), DOUBLES) == TRUMPS
    assert legal_plays(tiles("5-5 2-1 6-2"), [tile("2-2")], DOUBLES) == tiles("5-5")
    # A non-double leads its higher end; the doubles no longer belong to it.
    assert legal_plays(tiles("6-6 6-1 2-2"), [tile("6-5")], DOUBLES) == tiles("6-1")
    assert winner("6-5 6-4 0-0 6-1", DOUBLES) == "0-0"
    assert winner("6-5 1-1 0-0 6-6", DOUBLES) == "6-6"


@pytest.mark.parametrize("trump", [0, 3, 6, DOUBLES, None])
def test_a_void_hand_may_play_anything_and_a_lead_is_free(trump: int | str | None) -> None:
    hand = tiles("1-1 1-2 1-3")
    assert legal_plays(hand, [], trump) == hand
    led = tile("6-5") if trump != 6 else tile("5-4")
    assert legal_plays(hand, [led], trump) == hand
