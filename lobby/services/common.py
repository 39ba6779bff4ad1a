"""What every write shares: the room lock, the host check, options checked by the engine,
names, tokens, and the after-commit notices of a changed room."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.core.options import OptionError
from games.engine import get_rules, names
from games.options import engine_options, table_options
from lobby import realtime, selectors
from lobby.errors import BadOptionError, ConflictError, UnauthorizedError
from lobby.models import Match, Room, Seat

AI_LEVELS = ("easy", "medium", "hard")
MIN_PLAYERS = 2
MAX_PLAYERS = 10
NAME_MAX_LENGTH = 40


def token_new() -> str:
    """A seat token: 256 random bits; only its sha256 is stored."""
    return secrets.token_urlsafe(32)


#: Joiners that emoji sequences and some scripts need; every other format character of the
#: basic plane (bidirectional overrides, invisible marks) could make one name pass for
#: another (beyond it: the tags of flag emoji, which a name may hold; docs/api.md).
_FORMAT_ALLOWED = frozenset({"\u200c", "\u200d"})


def _is_control(char: str) -> bool:
    category = unicodedata.category(char)
    return category in {"Cc", "Cs"} or (category == "Cf" and char not in _FORMAT_ALLOWED and char <= "\uffff")


def name_clean(name: object) -> str:
    """A player's name as shown at the table: spaces collapsed; control and invisible
    characters refused, not stripped, so the player learns why their name changed nothing."""
    if not isinstance(name, str):
        raise BadOptionError(gettext_noop("a name is a string"), "name")
    if any(_is_control(c) for c in name):
        raise BadOptionError(gettext_noop("a name cannot contain control or invisible characters"), "name")
    clean = " ".join(name.split())
    if not clean:
        raise BadOptionError(gettext_noop("a name cannot be empty"), "name")
    if len(clean) > NAME_MAX_LENGTH:
        raise BadOptionError(gettext_noop("a name is at most %(length)s characters"), "name",
                            params={"length": NAME_MAX_LENGTH})
    return clean


def name_distinct(name: str, taken: Iterable[str]) -> str:
    """`name`, or `name 2`, `name 3`, ... when another seat already shows it (letter case
    aside): two Anns at one table are told apart the same way on every screen."""
    used = {t.casefold() for t in taken if t}
    if name.casefold() not in used:
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        number += 1


def options_resolve(game: str, players: object, options: object) -> dict[str, Any]:
    """The engine's resolved options and the table's (`games.options.TABLE_OPTIONS`, which the
    engine is never given); BadOptionError naming the option refused."""
    try:
        rules = get_rules(game)
    except (ValueError, ImportError):
        raise BadOptionError(gettext_noop("unknown game %(game)s: expected one of %(expected)s"), "game",
                             params={"game": repr(game), "expected": ", ".join(names())}) from None
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptionError(
            gettext_noop("option 'players' must be %(minimum)s to %(maximum)s, not %(value)s"), "players",
            params={"minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS, "value": repr(players)},
        )
    if not isinstance(options, dict):
        raise BadOptionError(gettext_noop("options must be a JSON object"), "options")
    engine = engine_options(options)
    try:
        state = rules.new_match(players, engine, seed=bytes(32))
        table = table_options(options)
    except OptionError as exc:
        raise BadOptionError(exc.template, exc.option, exc.code, exc.params) from None
    resolved: dict[str, Any] = rules.view(state, None).get("options", engine)
    return {**resolved, **table}


#: The refusal of a change while a match is being played.
PLAYING = gettext_noop("a match is being played: wait until it is over")


def room_locked(code: str) -> Room:
    return selectors.room_get_by_code(code, lock=True)


def host_verify(room: Room, token: str | None, seats: list[Seat] | None = None) -> Seat:
    seat = selectors.seat_for_token(room, token, seats)
    if seat is None or seat.index != room.host_seat:
        raise UnauthorizedError(gettext_noop("only the host can do this: send the host's seat token"))
    return seat


def not_playing_verify(room: Room) -> None:
    match = selectors.match_current(room)
    if match is not None and not match.is_over:
        raise ConflictError(PLAYING)


def room_changed(room: Room, match: Match | None = None, seats: list[Seat] | None = None) -> None:
    """Inside a write's transaction, with the room locked: count the change
    (`Room.revision`), note when it was (`Room.active_at`) and send the room info once it
    commits (`room_info_send`)."""
    room.revision += 1
    room.active_at = timezone.now()
    Room.objects.filter(pk=room.pk).update(revision=room.revision, active_at=room.active_at)
    room_info_send(room, match, seats)


def room_info_send(room: Room, match: Match | None = None, seats: list[Seat] | None = None) -> None:
    """After the commit, the room info to every socket of the room. A caller that holds the
    room's current match (and its seats in index order) as committed passes them, and the
    info is built from them instead of read again: three queries fewer on a rematch."""
    code = room.code

    def publish() -> None:
        if match is None:
            info = selectors.room_info(selectors.room_get_by_code(code))
        else:
            info = selectors.room_info(room, match, seats)
        realtime.room_publish(code, info)

    transaction.on_commit(publish)


def kicked_notify(code: str, connections: list[str]) -> None:
    for connection in connections:
        realtime.connection_notify(code, connection, "lobby.kicked")
