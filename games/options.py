"""Every game's options, from the one declaration each game makes (`Rules.option_schema`):
what `GET /api/games/` serves, the OpenAPI schema of a room's `players` and `options`, and the
checks that report every refused option at once.

The declaration gives each option's type, range or choices and default. Some rules tie the
options to the player count and to each other (a double-six set seats four at Draw; four
hands of 12 do not fit in it); `combinations` finds them by asking the engine, player count by
player count and set by set, so the schema says exactly what `new_match` accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from games.core.options import Option, OptionError, option_errors
from games.core.text import gettext_noop
from games.engine import get_rules, names

__all__ = ["TABLE_OPTIONS", "Option", "OptionError", "combinations", "describe", "engine_options", "errors",
           "game_names", "game_schema", "schema_of", "table_options"]

#: Options of the table rather than of the rules: every game has them, declared here once;
#: the server reads them, and the engine is never given them (`engine_options`), so a match's
#: options and its record hold the rules alone.
TABLE_OPTIONS: tuple[Option, ...] = (
    Option("hints", False, choices=(False, True),
           label=gettext_noop("Hints: a Hint button shows what the Hard AI would play"),
           choice_labels=(gettext_noop("Off"), gettext_noop("On")),
           help=gettext_noop("the seat to move may ask for the Hard AI's move and why (for learning)")),
)
_TABLE_NAMES = frozenset(opt.name for opt in TABLE_OPTIONS)


def schema_of(game: str) -> tuple[Option, ...]:
    """Every option a room of `game` takes: the game's own declaration, then the table's."""
    return (*get_rules(game).option_schema, *TABLE_OPTIONS)


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """A room's options less the table's: what `new_match` is given."""
    return {name: value for name, value in options.items() if name not in _TABLE_NAMES}


def table_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The table's options of a room, each checked value or its default (null keeps it)."""
    given = options or {}
    return {opt.name: opt.default if given.get(opt.name) is None else opt.check(given[opt.name])
            for opt in TABLE_OPTIONS}


def game_names() -> list[str]:
    return names()


def describe(game: str, min_players: int = 1, max_players: int = 1 << 30) -> dict[str, Any]:
    """One game and its options, as JSON-safe data; the player range is the game's within
    `min_players`..`max_players` (what a room of the server seats)."""
    rules = get_rules(game)
    low, high = max(rules.min_players, min_players), min(rules.max_players, max_players)
    return {
        "name": game,
        "min_players": low,
        "max_players": high,
        "options": [opt.describe() for opt in schema_of(game)],
        "combinations": combinations(game, low, high),
    }


def errors(game: str, options: object) -> list[OptionError]:
    """Every option that is refused on its own: unknown, of the wrong type, out of range."""
    return option_errors(game, schema_of(game), options)


def _accepts(game: str, players: int, options: Mapping[str, Any]) -> bool:
    try:
        get_rules(game).new_match(players, engine_options(options), seed=bytes(32))
    except OptionError:
        return False
    return True


def _largest(game: str, players: int, base: dict[str, Any], opt: Option) -> int | None:
    """The largest value of integer option `opt` the engine accepts with `base`, or None when
    it accepts none (the accepted values of an option run from its minimum up)."""
    low = opt.minimum if opt.minimum is not None else 0
    high = opt.maximum if opt.maximum is not None else 1 << 20
    if not _accepts(game, players, {**base, opt.name: low}):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if _accepts(game, players, {**base, opt.name: middle}):
            low = middle
        else:
            high = middle - 1
    return low


@cache
def combinations(game: str, min_players: int, max_players: int) -> list[dict[str, Any]]:
    """The player counts and option values the engine accepts together, as a list of
    `{"players": [low, high], "set": value or None, "options": {name: allowed}}`, where
    `allowed` is `{"choices": [...]}` or `{"minimum", "maximum"}`, each with `"null"` (null
    accepted, meaning the default). A game without a `set` option has `"set": None`."""
    schema = schema_of(game)
    set_option = next((opt for opt in schema if opt.name == "set"), None)
    sets: tuple[Any, ...] = set_option.choices or () if set_option is not None else (None,)
    out: list[dict[str, Any]] = []
    for top in sets:
        for players in range(min_players, max_players + 1):
            base: dict[str, Any] = {} if top is None else {"set": top}
            if not _accepts(game, players, base):
                # a count the default deal table lacks may still be dealt a hand size given
                needs = next((opt for opt in schema if opt.nullable and opt.minimum is not None
                              and _accepts(game, players, {**base, opt.name: opt.minimum})), None)
                if needs is None:
                    continue
                base = {**base, needs.name: needs.minimum}
            allowed: dict[str, Any] = {}
            for opt in schema:
                if opt.name == "set":
                    continue
                rest = {k: v for k, v in base.items() if k != opt.name}
                if opt.requires is not None:
                    rest[opt.requires] = True  # the values it allows once the option it refines is on
                null = _accepts(game, players, {**rest, opt.name: None})
                if opt.choices is not None:
                    choices = [c for c in opt.choices if _accepts(game, players, {**rest, opt.name: c})]
                    allowed[opt.name] = {"choices": choices, "null": null}
                else:
                    largest = _largest(game, players, rest, opt)
                    allowed[opt.name] = {"minimum": opt.minimum, "maximum": largest, "null": null}
            if out and out[-1]["set"] == top and out[-1]["options"] == allowed \
                    and out[-1]["players"][1] == players - 1:
                out[-1]["players"][1] = players
            else:
                out.append({"players": [players, players], "set": top, "options": allowed})
    return out


def _requirements(schema: Any, props: dict[str, Any]) -> list[dict[str, Any]]:
    """An option that refines another (`Option.requires`) takes a value other than its default
    only with that option on: one `anyOf` per such option, in OpenAPI 3.0's words."""
    out: list[dict[str, Any]] = []
    for opt in schema:
        if opt.requires is None or opt.name not in props or callable(opt.default):
            continue
        out.append({"anyOf": [
            {"properties": {opt.requires: {"type": "boolean", "enum": [True]}}, "required": [opt.requires]},
            {"properties": {opt.name: {**props[opt.name], "enum": [opt.default, None], "nullable": True}}},
        ]})
    return out


def game_schema(game: str, min_players: int, max_players: int) -> list[dict[str, Any]]:
    """The OpenAPI 3.0 schemas of `{"players": n, "options": {...}}` for `game`, one per
    combination: exactly what the engine accepts for a new room (each option alone and the
    options together)."""
    declared = {opt.name: opt for opt in schema_of(game)}
    branches: list[dict[str, Any]] = []
    for combo in combinations(game, min_players, max_players):
        low, high = combo["players"]
        props: dict[str, Any] = {}
        required: list[str] = []
        if combo["set"] is not None:
            opt = declared["set"]
            values = [combo["set"]]
            if combo["set"] == opt.default:
                values.append(None)
            else:
                required.append("set")
            props["set"] = {**opt.json_schema(), "enum": values, "nullable": None in values}
        for name, allowed in combo["options"].items():
            opt = declared[name]
            schema = opt.json_schema()
            if "choices" in allowed:
                schema["enum"] = [*allowed["choices"], *([None] if allowed["null"] else [])]
            else:
                schema["maximum"] = allowed["maximum"]
                if allowed["maximum"] is None or allowed["maximum"] < (opt.minimum or 0):
                    schema = {**schema, "enum": [None]}
                    schema.pop("maximum")
            schema["nullable"] = allowed["null"]
            if not allowed["null"]:
                required.append(name)
                if schema.get("enum"):
                    schema["enum"] = [v for v in schema["enum"] if v is not None]
            props[name] = {k: v for k, v in schema.items() if v is not None or k == "default"}
        options: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        if required:
            options["required"] = required
        needs = _requirements(declared.values(), props)
        if needs:
            options["allOf"] = needs
        branches.append({
            "players": {"type": "integer", "minimum": low, "maximum": high},
            "options": options,
            "description": f"{low} to {high} players"
            + (f" on the double-{combo['set']} set" if combo["set"] else ""),
        })
    return branches
