"""Room options: each game declares a schema, and unknown or out-of-range values are refused.

The error always names the option, because the server passes it to the host as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Option:
    """One option: allowed values (`choices`) or an integer range, and its default.

    `default` may be a function of the player count, for rules such as "100 for two players,
    61 for three or four".
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    help: str = ""

    def check(self, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise ValueError(f"option {self.name!r} may not be null")
        if self.choices is not None:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return value
            allowed = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if type(value) is not int:
            raise ValueError(f"option {self.name!r} must be a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default


def resolve_options(
    game: str,
    schema: Sequence[Option],
    options: Mapping[str, Any] | None,
    players: int,
    derive: Callable[[dict[str, Any], int], None] | None = None,
) -> dict[str, Any]:
    """Every option of `schema` with its checked value, defaults filled in.

    A value of `None` keeps the default where the option is not nullable by itself. `derive`
    may fill the remaining defaults that depend on other options, and may raise `ValueError`.
    """
    if not isinstance(options, Mapping) and options is not None:
        raise ValueError("options must be a JSON object")
    given = dict(options or {})
    known = {opt.name: opt for opt in schema}
    for name in given:
        if name not in known:
            raise ValueError(f"unknown option {name!r} for {game}: expected {', '.join(known)}")
    out: dict[str, Any] = {}
    for opt in schema:
        if opt.name in given and given[opt.name] is not None:
            out[opt.name] = opt.check(given[opt.name])
        else:
            out[opt.name] = opt.default_for(players)
    if derive is not None:
        derive(out, players)
    return out


def verify_players(game: str, players: object, minimum: int, maximum: int) -> int:
    """The player count, or `ValueError` naming the `players` option."""
    if type(players) is not int:
        raise ValueError(f"option 'players' must be a whole number, not {players!r}")
    if not minimum <= players <= maximum:
        raise ValueError(f"option 'players' for {game} must be {minimum} to {maximum}, not {players}")
    return players
