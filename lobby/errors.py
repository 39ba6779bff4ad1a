"""Refusals of the server itself (the rules kernel raises its own `IllegalAction`).

Each carries the wire code that `lobby.protocol.error_of` reports, so the code is written
down once, next to the refusal that uses it.

A refusal's message is for a player to read, in their language; it is often raised on a
database thread, which knows nobody's language. So it carries its English message marked for
the catalogs (`gettext_noop`, `%(name)s` placeholders) and the values to fill in, and is worded
where it is answered (`said`): in the request's language over HTTP, in the socket's over the
room socket. `str(exc)` stays the English text (logs, tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop


class LobbyError(Exception):
    """A refusal that changes nothing; the message is for a player to read.

    `message` is the English message with `%(name)s` placeholders filled from `params`."""

    code = "internal_error"

    def __init__(self, message: str = "", params: Mapping[str, Any] | None = None) -> None:
        self.template = message
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(message % self.params if self.params else message)

    def said(self) -> str:
        """The message in the active language."""
        return worded(self.template, self.params)


def worded(template: str, params: Mapping[str, Any] | None = None) -> str:
    """`template` (a message of the catalogs) in the active language, filled from `params`."""
    if not template:
        return template
    text = gettext(template)
    if not params:
        return text
    try:
        return text % dict(params)
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder
        return template % dict(params)


class MalformedError(LobbyError):
    code = "malformed"


class BadOptionError(LobbyError):
    """An engine option (or the player count) out of range; `option` names it, `reason` is
    the engine's code for why (`games.core.options.OPTION_CODES`) when it gave one."""

    code = "bad_option"

    def __init__(self, message: str, option: str | None = None, reason: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, params)
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

#: The status phrases a refusal's `title` gives (`http.HTTPStatus`'s own words), marked for
#: the catalogs: the title is in the request's language.
STATUS_TITLES = (
    gettext_noop("Bad Request"),
    gettext_noop("Unauthorized"),
    gettext_noop("Forbidden"),
    gettext_noop("Not Found"),
    gettext_noop("Method Not Allowed"),
    gettext_noop("Not Acceptable"),
    gettext_noop("Conflict"),
    gettext_noop("Request Entity Too Large"),
    gettext_noop("Content Too Large"),
    gettext_noop("Unsupported Media Type"),
    gettext_noop("Too Many Requests"),
    gettext_noop("Internal Server Error"),
)


def problem(
    status: int, code: str, detail: str, errors: list[dict[str, str]] | None = None
) -> dict[str, object]:
    """A refusal's body: `type` (about:blank: the status says what kind), `title` (the status
    phrase), `status`, `detail` for people, the stable `code`, and for a request that fails
    validation `errors`, each `{"field", "code", "detail"}` (docs/api.md)."""
    from http import HTTPStatus

    body: dict[str, object] = {
        "type": "about:blank",
        "title": gettext(HTTPStatus(status).phrase),
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors
    return body
