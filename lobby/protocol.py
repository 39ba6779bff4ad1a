"""The WebSocket wire format (docs/protocol.md): parsing what clients send, building what
the server sends, and the one mapping from exceptions to error codes.

Parsing is strict because every field a client sends is untrusted: an unknown type, a
missing id or an extra field is `malformed`, and nothing else happens. Frames are read
with orjson, which refuses what the server could not write back or store: a lone
surrogate (`"\\ud800"`, which UTF-8 cannot encode), `NaN`, nesting past 1024 levels.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import orjson
from django.utils.translation import gettext, gettext_noop

from games.engine import IllegalAction, MalformedAction
from lobby.errors import LobbyError, MalformedError

logger = logging.getLogger(__name__)

ERROR_CODES = (
    "malformed",
    "illegal_action",
    "not_your_turn",
    "stale_version",
    "unauthorized",
    "rate_limited",
    "id_reused",
    "hints_off",
    "internal_error",
)

#: Quick phrases a seat can send with one tap; the client shows the text.
PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "good_game": "Good game!",
    "well_played": "Well played!",
    "thanks": "Thanks!",
    "oops": "Oops!",
    "your_turn": "Your turn!",
    "one_more": "One more?",
}

MAX_ID_LENGTH = 64


@dataclass(frozen=True, slots=True)
class ActionMessage:
    id: str
    action: dict[str, Any]
    version: int | None


@dataclass(frozen=True, slots=True)
class SyncMessage:
    pass


@dataclass(frozen=True, slots=True)
class ChatMessage:
    text: str
    phrase: str | None


@dataclass(frozen=True, slots=True)
class PingMessage:
    pass


@dataclass(frozen=True, slots=True)
class HintMessage:
    """The seat to move asks what the Hard AI would play (room option `hints`)."""

    id: str


Inbound = ActionMessage | SyncMessage | ChatMessage | PingMessage | HintMessage

_FIELDS: dict[str, frozenset[str]] = {
    "action": frozenset({"type", "id", "action", "version"}),
    "sync": frozenset({"type"}),
    "chat": frozenset({"type", "text", "phrase"}),
    "ping": frozenset({"type"}),
    "hint": frozenset({"type", "id"}),
}


class InboundError(MalformedError):
    """A malformed frame; `id` is the client's action id when it could be read."""

    def __init__(self, message: str, id: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message, params)
        self.id = id


def parse_inbound(text: str, chat_max_length: int) -> Inbound:
    """One client frame as a message, or `InboundError` saying what is wrong with it."""
    data = _object_of(text)
    if data is None:
        raise InboundError(gettext_noop("a frame is one JSON object (UTF-8 text, no lone surrogates)"),
                           frame_id(text))
    msg_id = _id_of(data)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InboundError(gettext_noop("unknown message type %(kind)s: expected one of %(expected)s"),
                           msg_id, {"kind": repr(kind), "expected": ", ".join(_FIELDS)})
    extra = set(data) - _FIELDS[kind]
    if extra:
        raise InboundError(gettext_noop("a %(kind)s message has no field %(field)s"), msg_id,
                           {"kind": kind, "field": repr(sorted(extra)[0])})
    if kind == "action":
        if msg_id is None:
            raise InboundError(
                gettext_noop('an action needs an "id": a string of 1 to %(length)s characters'),
                None, {"length": MAX_ID_LENGTH})
        action = data.get("action")
        if not isinstance(action, dict):
            raise InboundError(gettext_noop('an action message needs an "action" object'), msg_id)
        version = data.get("version")
        if version is not None and (type(version) is not int or version < 0):
            raise InboundError(gettext_noop('"version" is a whole number of at least 0'), msg_id)
        return ActionMessage(msg_id, action, version)
    if kind == "hint":
        if msg_id is None:
            raise InboundError(gettext_noop('a hint needs an "id": a string of 1 to %(length)s characters'),
                               None, {"length": MAX_ID_LENGTH})
        return HintMessage(msg_id)
    if kind == "chat":
        return _parse_chat(data, chat_max_length)
    if kind == "ping":
        return PingMessage()
    return SyncMessage()


def frame_id(text: str | None) -> str | None:
    """The id of a frame refused before it was parsed (too big, too fast), when it has a
    readable one, so the refusal names the frame it answers."""
    if text is None:
        return None
    data = _object_of(text)
    if data is None:
        # Refused by orjson (a lone surrogate somewhere, NaN): the lenient reader may still
        # find a good id in it.
        try:
            loose = json.loads(text)
        except (ValueError, RecursionError):
            return None
        data = loose if isinstance(loose, dict) else None
    return None if data is None else _id_of(data)


def _object_of(text: str) -> dict[str, Any] | None:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _id_of(data: dict[str, Any]) -> str | None:
    raw_id = data.get("id")
    if not isinstance(raw_id, str) or not 0 < len(raw_id) <= MAX_ID_LENGTH:
        return None
    try:
        raw_id.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return raw_id


def _parse_chat(data: dict[str, Any], max_length: int) -> ChatMessage:
    phrase = data.get("phrase")
    if phrase is not None:
        if "text" in data:
            raise InboundError(gettext_noop('a chat message has a "text" or a "phrase", not both'))
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise InboundError(gettext_noop("unknown phrase %(phrase)s: expected one of %(expected)s"), None,
                               {"phrase": repr(phrase), "expected": ", ".join(PHRASES)})
        return ChatMessage(PHRASES[phrase], phrase)
    text = data.get("text")
    if not isinstance(text, str):
        raise InboundError(gettext_noop('a chat message needs a "text" string or a "phrase"'))
    clean = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not clean:
        raise InboundError(gettext_noop("a chat message cannot be empty"))
    if len(clean) > max_length:
        raise InboundError(gettext_noop("a chat message is at most %(length)s characters"), None,
                           {"length": max_length})
    return ChatMessage(clean, None)


def error_of(exc: BaseException) -> tuple[str, str]:
    """The wire code and message for an exception: the only place this mapping is made. The
    message is in the active language (the request's, or the socket's: `lobby/languages.py`).

    An unexpected exception is logged with its traceback and reported as `internal_error`
    without its text, which may hold server internals. The engine's own refusals keep its
    English words (its explanations of an illegal move are for the client's developer: the
    page offers only legal moves); a refusal the server words as one is translated.
    """
    if isinstance(exc, MalformedAction):
        return "malformed", str(exc)
    if isinstance(exc, IllegalAction):
        text = str(exc)
        return "illegal_action", gettext(text) if text == MATCH_OVER else text
    if isinstance(exc, LobbyError):
        return exc.code, exc.said()
    logger.error("unexpected error", exc_info=exc)
    return "internal_error", gettext("the server could not handle this message; nothing was changed")


#: The refusal of an action in a match that is over (`services.action_submit`): an
#: `IllegalAction`, as the engine's, in words of the server's.
MATCH_OVER = gettext_noop("the match is over: no more actions")


def state_frame(version: int, view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "state", "version": version, "view": view}


def ack_frame(msg_id: str, version: int) -> dict[str, Any]:
    return {"type": "ack", "id": msg_id, "version": version}


def hint_frame(msg_id: str, action: dict[str, Any], why: str) -> dict[str, Any]:
    """The answer to a `hint`, for the asking connection only."""
    return {"type": "hint", "id": msg_id, "action": action, "why": why}


def error_frame(code: str, message: str, msg_id: str | None = None) -> dict[str, Any]:
    """An error reply. Its texts are made writable first: a message may quote what a client
    sent, and one character UTF-8 cannot encode would make the reply itself fail."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": _writable(message)}
    if msg_id is not None:
        frame["id"] = _writable(msg_id)
    return frame


def _writable(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def room_frame(room: dict[str, Any]) -> dict[str, Any]:
    return {"type": "room", "room": room}


def chat_frame(seat: int, name: str, text: str, phrase: str | None, at: str) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": name, "text": text, "phrase": phrase, "at": at}


def welcome_frame(seat: int | None, code: str) -> dict[str, Any]:
    return {"type": "welcome", "room": code, "seat": seat}
