"""Room options: each game declares them once, here in `games/`, and everything else reads the
declaration: the engine's checks, the API's schema and validation (`GET /api/games/`), and the
room form of the home page.

A refused option raises `OptionError`, which carries the option's name and a stable code, so
the server passes both to the client without reading the message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.text import gettext_noop

#: The codes an `OptionError` carries; they are part of the API (docs/api.md).
OPTION_CODES = (
    "unknown_option",  # a name the game does not have
    "not_an_object",  # `options` itself is not a JSON object
    "wrong_type",  # a string for a number, a number for a boolean, ...
    "not_a_choice",  # a value outside the option's choices
    "below_minimum",
    "above_maximum",
    "not_null",  # null where the option has no "the documents' default"
    "players",  # the player count is outside the game's range, or the set's
    "does_not_fit",  # a value allowed alone that the other options or the player count rule out
)


class OptionError(ValueError):
    """A refused option: `option` names it ("players" for the player count), `code` is one of
    `OPTION_CODES`. A `ValueError`, so callers that only need "refused" may catch that.

    `message` is English with `%(name)s` placeholders filled from `params`, marked for the
    catalogs: `str(exc)` is the English text, and the server words it for each reader
    (`template % params` through its own translation of `template`)."""

    def __init__(self, option: str, code: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        self.template = message
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(message % self.params if self.params else message)
        self.option = option
        self.code = code


@dataclass(frozen=True, slots=True)
class Source:
    """What one of the rules documents says about a contested rule."""

    source: str
    says: str


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its allowed values (`choices`) or an integer range, and its default.

    `default` may be a function of the player count, for rules such as "100 for two players,
    61 for three or four". A `nullable` option takes null for "what the documents say for this
    table" (`default_note` says what that is). The rest is for people: a `label` and the
    `choice_labels` (in the order of `choices`), `help`, the documents' positions when the rule
    is contested (`sources`), and the player counts the option applies to (`players`, None for
    every count).
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    help: str = ""
    label: str = ""
    choice_labels: tuple[str, ...] = ()
    default_note: str = ""
    sources: tuple[Source, ...] = ()
    players: tuple[int, ...] | None = None
    #: Whether the room form offers it (an option that changes nothing in a game, such as
    #: Block's boneyard reserve, is still accepted but not offered).
    shown: bool = True
    #: The yes/no option this one refines, which must be on for any value but the default
    #: (42's `nello_doubles` needs `nello`): otherwise `does_not_fit`, naming this option.
    requires: str | None = None

    @property
    def kind(self) -> str:
        """"choice" or "integer"."""
        return "choice" if self.choices is not None else "integer"

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise OptionError(self.name, "not_null", gettext_noop("option %(option)s may not be null"),
                              {"option": repr(self.name)})
        if self.choices is not None:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return value
            allowed = ", ".join(_show(c) for c in self.choices)
            code = "not_a_choice" if any(type(value) is type(c) for c in self.choices) else "wrong_type"
            raise OptionError(self.name, code,
                              gettext_noop("option %(option)s must be one of %(allowed)s, not %(value)s"),
                              {"option": repr(self.name), "allowed": allowed, "value": _show(value)})
        if type(value) is not int:
            raise OptionError(self.name, "wrong_type",
                              gettext_noop("option %(option)s must be a whole number, not %(value)s"),
                              {"option": repr(self.name), "value": _show(value)})
        if self.minimum is not None and value < self.minimum:
            raise OptionError(self.name, "below_minimum",
                              gettext_noop("option %(option)s must be at least %(minimum)s, not %(value)s"),
                              {"option": repr(self.name), "minimum": self.minimum, "value": value})
        if self.maximum is not None and value > self.maximum:
            raise OptionError(self.name, "above_maximum",
                              gettext_noop("option %(option)s must be at most %(maximum)s, not %(value)s"),
                              {"option": repr(self.name), "maximum": self.maximum, "value": value})
        return value

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def describe(self) -> dict[str, Any]:
        """The option as JSON-safe data: what `GET /api/games/` serves and the form is built from."""
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "label": self.label or self.name,
            "help": self.help,
            "default": None if callable(self.default) else self.default,
            "nullable": self.nullable,
        }
        if self.choices is not None:
            labels = self.choice_labels or tuple(_show(c) for c in self.choices)
            out["choices"] = [{"value": v, "label": text} for v, text in zip(self.choices, labels,
                                                                             strict=True)]
        else:
            out["minimum"] = self.minimum
            out["maximum"] = self.maximum
        if self.default_note:
            out["default_note"] = self.default_note
        if self.sources:
            out["sources"] = [{"source": s.source, "says": s.says} for s in self.sources]
        if self.players is not None:
            out["players"] = list(self.players)
        if self.requires is not None:
            out["requires"] = self.requires
        out["shown"] = self.shown
        return out

    def json_schema(self) -> dict[str, Any]:
        """The option's values as an OpenAPI 3.0 schema. Null is always accepted: it keeps the
        default (`resolve_options`), and for a `nullable` option it is the documents' default."""
        schema: dict[str, Any]
        if self.choices is not None:
            kinds = {type(c) for c in self.choices}
            schema = {"type": _TYPES[kinds.pop()] if len(kinds) == 1 else "string",
                      "enum": [*self.choices, None]}
        else:
            schema = {"type": "integer"}
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        schema["nullable"] = True
        if not callable(self.default):
            schema["default"] = self.default
        text = self.label or self.help
        if self.default_note:
            text += f" (null: {self.default_note})"
        if text:
            schema["description"] = text
        return schema


_TYPES = {bool: "boolean", int: "integer", str: "string"}


def _show(value: Any) -> str:
    """A value as JSON writes it, so the message reads the same as the request."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def option_errors(game: str, schema: Sequence[Option], options: object) -> list[OptionError]:
    """Every option refused on its own (unknown name, type, choice, range), not only the first:
    what the API reports at once. The rules that tie options together are `resolve_options`'."""
    if not isinstance(options, Mapping):
        return [OptionError("options", "not_an_object", gettext_noop("options must be a JSON object"))]
    known = {opt.name: opt for opt in schema}
    errors: list[OptionError] = []
    for name, value in options.items():
        opt = known.get(name)
        if opt is None:
            errors.append(OptionError(
                str(name), "unknown_option",
                gettext_noop("unknown option %(option)s for %(game)s: expected %(expected)s"),
                {"option": repr(str(name)), "game": game, "expected": ", ".join(known) or "none"}))
        elif value is not None:
            try:
                opt.check(value)
            except OptionError as exc:
                errors.append(exc)
    return errors


def resolve_options(
    game: str,
    schema: Sequence[Option],
    options: Mapping[str, Any] | None,
    players: int,
    derive: Callable[[dict[str, Any], int], None] | None = None,
) -> dict[str, Any]:
    """Every option of `schema` with its checked value, defaults filled in.

    A value of `None` keeps the default where the option is not nullable by itself. `derive`
    may fill the remaining defaults that depend on other options, and may raise `OptionError`.
    """
    if options is not None and not isinstance(options, Mapping):
        raise OptionError("options", "not_an_object", gettext_noop("options must be a JSON object"))
    errors = option_errors(game, schema, options or {})
    if errors:
        raise errors[0]
    given = dict(options or {})
    out: dict[str, Any] = {}
    for opt in schema:
        if opt.name in given and given[opt.name] is not None:
            out[opt.name] = opt.check(given[opt.name])
        else:
            out[opt.name] = opt.default_for(players)
    for opt in schema:
        if opt.requires is not None and out[opt.name] != opt.default_for(players) \
                and out.get(opt.requires) is not True:
            raise OptionError(
                opt.name, "does_not_fit",
                gettext_noop("option %(option)s is a choice of %(requires)s: it needs %(requires)s set to "
                             "true (or leave %(option)s at its default, %(default)s)"),
                {"option": repr(opt.name), "requires": repr(opt.requires),
                 "default": _show(opt.default_for(players))})
    if derive is not None:
        derive(out, players)
    return out


def verify_players(game: str, players: object, minimum: int, maximum: int) -> int:
    """The player count, or `OptionError` naming the `players` option."""
    if type(players) is not int:
        raise OptionError("players", "wrong_type",
                          gettext_noop("option 'players' must be a whole number, not %(value)s"),
                          {"value": _show(players)})
    if not minimum <= players <= maximum:
        raise OptionError("players", "players",
                          gettext_noop("option 'players' for %(game)s must be %(minimum)s to %(maximum)s, "
                                       "not %(value)s"),
                          {"game": game, "minimum": minimum, "maximum": maximum, "value": players})
    return players
