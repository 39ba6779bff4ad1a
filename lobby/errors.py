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
    """An engine option (or the player count) out of range; `option` names it."""

    code = "bad_option"

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


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


class IdReusedError(LobbyError):
    """An action id this seat already used for another action: ids are bound to actions."""

    code = "id_reused"
