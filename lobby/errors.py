"""Refusals of the server itself (the rules kernel raises its own `IllegalAction`).

Each carries the wire code that `lobby.protocol.error_of` reports, so the code is written
down once, next to the refusal that uses it.
"""

from __future__ import annotations


class LobbyError(Exception):
    """A refusal that changes nothing; the message is for a player to read."""

    code = "internal_error"


class MalformedError(LobbyError):
    code = "malformed"


class BadOptionError(LobbyError):
    """An engine option (or the player count) out of range; `option` names it, `reason` is
    the engine's code for why (`games.core.options.OPTION_CODES`) when it gave one."""

    code = "bad_option"

    def __init__(self, message: str, option: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.reason = reason


class UnauthorizedError(LobbyError):
    code = "unauthorized"


class RoomNotFoundError(LobbyError):
    code = "not_found"


class ConflictError(LobbyError):
    """The room is not in a state that allows this now (full, started, not filled, ...)."""

    code = "conflict"


class NotYourTurnError(LobbyError):
    code = "not_your_turn"


class StaleVersionError(LobbyError):
    code = "stale_version"


class RateLimitedError(LobbyError):
    code = "rate_limited"


class HintsOffError(LobbyError):
    """A hint asked for in a room whose `hints` option is off."""

    code = "hints_off"


class IdReusedError(LobbyError):
    """An action id this seat already used for another action: ids are bound to actions."""

    code = "id_reused"


# The API's refusals as problem details (RFC 9457) ---------------------------------------

#: The media type of every refusal under /api/.
PROBLEM_CONTENT_TYPE = "application/problem+json"


def problem(
    status: int, code: str, detail: str, errors: list[dict[str, str]] | None = None
) -> dict[str, object]:
    """A refusal's body: `type` (about:blank: the status says what kind), `title` (the status
    phrase), `status`, `detail` for people, the stable `code`, and for a request that fails
    validation `errors`, each `{"field", "code", "detail"}` (docs/api.md)."""
    from http import HTTPStatus

    body: dict[str, object] = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors
    return body
