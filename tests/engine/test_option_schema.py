"""The one declaration of each game's options: typed refusals, and a schema that says exactly
what the engine accepts."""

from __future__ import annotations

from typing import Any

import pytest

from games import options
from games.core.options import OPTION_CODES, Option, OptionError, resolve_options
from games.engine import get_rules, names


@pytest.mark.parametrize(
    ("game", "players", "given", "name", "code"),
    [
        ("draw", 2, {"colour": 1}, "colour", "unknown_option"),
        ("draw", 2, {"set": 7}, "set", "not_a_choice"),
        ("draw", 2, {"set": "6"}, "set", "wrong_type"),
        ("draw", 2, {"target": 0}, "target", "below_minimum"),
        ("draw", 2, {"target": 10001}, "target", "above_maximum"),
        ("draw", 2, {"hand_size": 2.0}, "hand_size", "wrong_type"),
        ("draw", 3, {"partnership": True}, "partnership", "does_not_fit"),
        ("draw", 2, {"hand_size": 15}, "hand_size", "does_not_fit"),
        ("draw", 5, {}, "players", "players"),
        ("texas42", 3, {}, "players", "players"),
        ("mexican_train", 2, {"set": 6, "rounds": 9}, "rounds", "does_not_fit"),
        ("chicken_foot", 8, {}, "set", "does_not_fit"),
        ("texas42", 4, {"nello_doubles": "low"}, "nello_doubles", "does_not_fit"),
        ("texas42", 4, {"nello": False, "nello_min_marks": 2}, "nello_min_marks", "does_not_fit"),
        ("texas42", 4, {"nello_doubles": "middle"}, "nello_doubles", "not_a_choice"),
        ("texas42", 4, {"plunge": 1}, "plunge", "wrong_type"),
        ("mexican_train", 3, {"double_blank": 30}, "double_blank", "not_a_choice"),
        ("mexican_train", 3, {"draw_until_play": "yes"}, "draw_until_play", "wrong_type"),
        ("chicken_foot", 3, {"opening_arms": 5}, "opening_arms", "not_a_choice"),
        ("chicken_foot", 3, {"opening_arms": "6"}, "opening_arms", "wrong_type"),
        ("fiveup", 3, {"partnership": True}, "partnership", "does_not_fit"),
        ("fiveup", 2, {"muggins": 1}, "muggins", "wrong_type"),
        ("fiveup", 2, {"target": 0}, "target", "below_minimum"),
        ("fiveup", 4, {"target": 1001}, "target", "above_maximum"),
        ("fiveup", 5, {}, "players", "players"),
    ],
)
def test_a_refused_option_is_an_option_error_with_its_name_and_code(game: str, players: int, given: dict[str, Any], name: str, code: str) -> None:
    with pytest.raises(OptionError) as refused:
        get_rules(game).new_match(players, given, seed=bytes(32))
    assert (refused.value.option, refused.value.code) == (name, code)
    assert refused.value.code in OPTION_CODES
    assert isinstance(refused.value, ValueError)
    # The English message is its template filled in: the server words the template for each reader.
    template, params = refused.value.template, refused.value.params
    assert "{" not in template and str(refused.value) == (template % params if params else template)


def test_every_option_refused_alone_is_reported_at_once() -> None:
    found = options.errors("draw", {"set": 7, "colour": 1, "target": "x", "spinner": True})
    assert {(e.option, e.code) for e in found} == {
        ("set", "not_a_choice"), ("colour", "unknown_option"), ("target", "wrong_type")}
    assert [(e.option, e.code) for e in options.errors("draw", [1])] == [("options", "not_an_object")]


def test_null_keeps_the_default() -> None:
    schema = [Option("set", 6, choices=(6, 9)), Option("target", None, minimum=1, nullable=True)]
    assert resolve_options("draw", schema, {"set": None, "target": None}, 2) == {"set": 6, "target": None}


@pytest.mark.parametrize("game", names())
def test_every_game_declares_its_options_once_with_what_the_form_needs(game: str) -> None:
    described = options.describe(game, 2, 10)
    assert described["options"], game
    for opt in described["options"]:
        assert opt["label"] and opt["kind"] in ("choice", "integer")
        if opt["kind"] == "choice":
            assert opt["default"] in [c["value"] for c in opt["choices"]]
        else:
            assert opt["minimum"] is not None and opt["maximum"] is not None


@pytest.mark.parametrize("game", names())
def test_each_combination_is_what_the_engine_accepts(game: str) -> None:
    """Each combination's edges are accepted and one past them refused."""
    rules = get_rules(game)
    for combo in options.combinations(game, 2, 10):
        base = {} if combo["set"] is None else {"set": combo["set"]}
        for players in combo["players"]:
            for name, allowed in combo["options"].items():
                needs = {k: v["minimum"] for k, v in combo["options"].items()
                         if k != name and not v["null"] and "minimum" in v}
                refines = next(o.requires for o in options.schema_of(game) if o.name == name)
                if refines is not None:
                    needs[refines] = True
                if "maximum" in allowed and allowed["maximum"] is not None:
                    rules.new_match(players, {**base, **needs, name: allowed["maximum"]}, seed=bytes(32))
                    declared = next(o for o in rules.option_schema if o.name == name)
                    if allowed["maximum"] < (declared.maximum or 0):
                        with pytest.raises(OptionError):
                            rules.new_match(players, {**base, **needs, name: allowed["maximum"] + 1},
                                            seed=bytes(32))
                for choice in allowed.get("choices", []):
                    given = {**base, **needs, name: choice}
                    rules.new_match(players, options.engine_options(given), seed=bytes(32))


def test_an_option_that_refines_another_is_free_once_that_one_is_on() -> None:
    """`nello_doubles` at its default needs nothing; another value needs `nello`, and the
    API's schema says so with an `anyOf` (so a schema-valid body is one the engine accepts)."""
    rules = get_rules("texas42")
    rules.new_match(4, {"nello_doubles": "high", "nello_min_marks": 0}, seed=bytes(32))
    rules.new_match(4, {"nello": True, "nello_doubles": "own_suit", "nello_min_marks": 2}, seed=bytes(32))
    (branch,) = options.game_schema("texas42", 4, 4)
    constrained = {next(iter(c["anyOf"][1]["properties"])) for c in branch["options"]["allOf"]}
    assert constrained == {"nello_doubles", "nello_min_marks"}
    assert options.describe("texas42")["options"][7]["requires"] == "nello"
