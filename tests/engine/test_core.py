"""Tiles, action normalising and option checking shared by every game."""

import json

import pytest

from games.core.actions import normalise_action
from games.core.errors import IllegalAction, MalformedAction
from games.core.options import Option, resolve_options
from games.core.tiles import Tile, full_set, make_tile, parse_tile, pip_total, tile_index


def test_tiles_are_canonical_and_serialise_as_lists() -> None:
    assert make_tile(5, 3) == Tile(3, 5)
    assert json.dumps(Tile(3, 5)) == "[3, 5]"
    assert parse_tile([6, 1]) == Tile(1, 6)


def test_tile_index_matches_canonical_order() -> None:
    for top in (6, 9, 12, 15, 18):
        assert [tile_index(t, top) for t in full_set(top)] == list(range(len(full_set(top))))


def test_double_blank_can_count_fifty() -> None:
    hand = [Tile(0, 0), Tile(2, 3)]
    assert pip_total(hand) == 5
    assert pip_total(hand, double_blank=50) == 55


@pytest.mark.parametrize(
    "raw",
    [None, 3, "play", [], {}, {"type": "fly"}, {"type": 3}, {"type": "play"},
     {"type": "play", "tile": [1]}, {"type": "play", "tile": "1-2"}, {"type": "play", "tile": [1, True]},
     {"type": "play", "tile": [1, -2]}, {"type": "play", "tile": [1, 2], "end": 4},
     {"type": "draw", "seat": 1}, {"type": "bid", "value": "30"}, {"type": "trump", "suit": 7}],
)
def test_malformed_actions_are_refused_with_a_message(raw: object) -> None:
    with pytest.raises(MalformedAction) as err:
        normalise_action(raw)
    assert str(err.value)
    assert isinstance(err.value, IllegalAction)


def test_actions_are_normalised() -> None:
    assert normalise_action({"type": "play", "tile": [5, 2], "end": "left"}) == {
        "type": "play", "tile": [2, 5], "end": "left"}
    assert normalise_action({"type": "trump", "suit": "nello"}) == {"type": "trump", "suit": "nello"}


def test_options_name_the_bad_option() -> None:
    schema = [Option("set", 6, choices=(6, 9, 12)), Option("target", None, minimum=1, nullable=True)]
    assert resolve_options("draw", schema, {}, 2) == {"set": 6, "target": None}
    with pytest.raises(ValueError, match="'set'"):
        resolve_options("draw", schema, {"set": 7}, 2)
    with pytest.raises(ValueError, match="'colour'"):
        resolve_options("draw", schema, {"colour": 1}, 2)
    with pytest.raises(ValueError, match="'target'"):
        resolve_options("draw", schema, {"target": 0}, 2)
    with pytest.raises(ValueError, match="'set'"):
        resolve_options("draw", schema, {"set": True}, 2)
