"""Creating rooms and changing them between matches."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from lobby import selectors
from lobby.errors import ConflictError
from lobby.models import Room, Seat
from lobby.services.common import (
    host_verify,
    kicked_notify,
    name_clean,
    not_playing_verify,
    options_resolve,
    room_changed,
    room_locked,
    token_new,
)

#: No 0/o, 1/l/i: a code read aloud or copied by hand survives.
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
#: 14 characters of 31: 69 bits.
CODE_LENGTH = 14


def code_new() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def room_create(
    game: str,
    players: int,
    options: dict[str, Any],
    name: str,
    *,
    grace_seconds: int | None = None,
    turn_seconds: int | None = None,
) -> tuple[Room, str]:
    """A new room with the host in seat 0; returns it with the host's token."""

    resolved = options_resolve(game, players, options)
    host_name = name_clean(name)
    token = token_new()
    for _ in range(5):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=code_new(),
                    game=game,
                    players=players,
                    options=options,
                    resolved=resolved,
                    grace_seconds=settings.LOBBY_GRACE_SECONDS if grace_seconds is None else grace_seconds,
                    turn_seconds=turn_seconds or None,
                )
                Seat.objects.bulk_create(
                    [Seat(room=room, index=i) for i in range(1, players)]
                    + [Seat(room=room, index=0, name=host_name, token_hash=selectors.token_hash(token))]
                )
                return room, token
        except IntegrityError:
            continue
    raise ConflictError(gettext_noop("could not allocate a room code; try again"))


def room_update(code: str, token: str | None, changes: dict[str, Any]) -> Room:
    """The host changes players, options, grace or turn timer while no match is on."""
    with transaction.atomic():
        room = room_locked(code)
        host_verify(room, token)
        not_playing_verify(room)
        players = changes.get("players", room.players)
        options = changes.get("options", room.options)
        room.resolved = options_resolve(room.game, players, options)
        room.options = options
        if "grace_seconds" in changes:
            room.grace_seconds = changes["grace_seconds"]
        if "turn_seconds" in changes:
            room.turn_seconds = changes["turn_seconds"] or None
        if players != room.players:
            gone = list(
                room.seats.filter(index__gte=players).exclude(channel="").values_list("channel", flat=True)
            )
            transaction.on_commit(lambda: kicked_notify(code, gone))
            room.seats.filter(index__gte=players).delete()
            Seat.objects.bulk_create([Seat(room=room, index=i) for i in range(room.players, players)])
            room.players = players
        room.save()
        room_changed(room)
    return room
