"""Seats: joining, AI seats, freeing a seat, and the sockets that hold a seat."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from lobby import realtime, selectors
from lobby.errors import BadOptionError, ConflictError, UnauthorizedError
from lobby.models import Room, Seat
from lobby.services.common import (
    AI_LEVELS,
    host_verify,
    kicked_notify,
    name_clean,
    not_playing_verify,
    room_changed,
    room_locked,
    token_new,
)


def seat_claim(code: str, name: str) -> tuple[int, str]:
    """Seat a human in the first free seat; returns the seat and its token."""
    clean = name_clean(name)
    token = token_new()
    with transaction.atomic():
        room = room_locked(code)
        not_playing_verify(room)
        seat = room.seats.filter(ai_level="", token_hash="").order_by("index").first()
        if seat is None:
            raise ConflictError("the room is full: open the link without joining to watch")
        seat.name = clean
        seat.token_hash = selectors.token_hash(token)
        seat.channel = ""
        seat.disconnected_at = None
        seat.save(update_fields=["name", "token_hash", "channel", "disconnected_at"])
        room_changed(room)
    return seat.index, token


def _seat_get(room: Room, index: object) -> Seat:
    if type(index) is not int:
        raise BadOptionError(f"a seat is a whole number, not {index!r}", "seat")
    seat = room.seats.filter(index=index).first()
    if seat is None:
        raise BadOptionError(f"this room has seats 0 to {room.players - 1}, not {index}", "seat")
    return seat


def seat_ai_set(code: str, token: str | None, index: int, level: str) -> int:
    """The host puts an AI of `level` in a free or AI seat."""
    if level not in AI_LEVELS:
        raise BadOptionError(f"AI level must be one of {', '.join(AI_LEVELS)}, not {level!r}", "ai")
    with transaction.atomic():
        room = room_locked(code)
        host_verify(room, token)
        not_playing_verify(room)
        seat = _seat_get(room, index)
        if seat.is_human:
            raise ConflictError(f"seat {seat.index} is taken by {seat.name}: remove them first")
        seat.ai_level = level
        seat.name = f"{level.capitalize()} AI"
        seat.save(update_fields=["ai_level", "name"])
        room_changed(room)
    return seat.index


def seat_clear(code: str, token: str | None, index: int) -> None:
    """The host removes an AI or kicks a human; a player may also leave their own seat."""
    with transaction.atomic():
        room = room_locked(code)
        caller = selectors.seat_for_token(room, token)
        seat = _seat_get(room, index)
        if caller is None or (caller.index not in (room.host_seat, seat.index)):
            raise UnauthorizedError("only the host, or the seat's own player, can free a seat")
        if seat.index == room.host_seat:
            raise ConflictError("the host's seat cannot be freed")
        not_playing_verify(room)
        old_channel = seat.channel
        seat.name = ""
        seat.ai_level = ""
        seat.token_hash = ""
        seat.channel = ""
        seat.disconnected_at = None
        seat.save(update_fields=["name", "ai_level", "token_hash", "channel", "disconnected_at"])
        if old_channel:
            transaction.on_commit(lambda: kicked_notify(code, [old_channel]))
        room_changed(room)


def connection_open(code: str, token: str | None, channel: str) -> Seat | None:
    """Bind a new socket: its seat (None for a spectator), taking over from an older one.

    UnauthorizedError for a token that holds no seat here: a forged token is not a spectator.
    """
    if not token:
        selectors.room_get_by_code(code)  # spectators take no lock
        return None
    with transaction.atomic():
        room = room_locked(code)
        seat = selectors.seat_for_token(room, token)
        if seat is None:
            raise UnauthorizedError("this token holds no seat in this room")
        old = seat.channel
        seat.channel = channel
        seat.disconnected_at = None
        seat.save(update_fields=["channel", "disconnected_at"])
        if old and old != channel:
            transaction.on_commit(lambda: realtime.connection_notify(code, old, "lobby.replaced"))
        room_changed(room)
    return seat


def connection_close(code: str, seat: int, channel: str) -> None:
    """The seat's socket closed; an older socket closing after a takeover changes nothing."""
    with transaction.atomic():
        room = room_locked(code)
        updated = room.seats.filter(index=seat, channel=channel).update(
            channel="", disconnected_at=timezone.now()
        )
        if not updated:
            return
        grace = room.grace_seconds

        def later() -> None:
            from lobby import bots

            bots.room_check(code)
            bots.room_check_at(code, grace)

        transaction.on_commit(later)
        room_changed(room)
