"""Seats: joining, AI seats, arranging the table, freeing a seat, and the sockets that
hold a seat."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from lobby import realtime, selectors
from lobby.errors import BadOptionError, ConflictError, RoomNotFoundError, UnauthorizedError
from lobby.models import Match, Room, Seat
from lobby.runtime import runtime
from lobby.services import events
from lobby.services.common import (
    AI_LEVELS,
    host_verify,
    kicked_notify,
    name_clean,
    name_distinct,
    not_playing_verify,
    room_changed,
    room_locked,
    token_new,
)

#: A seat number the room does not have (the body's, or the path's).
NO_SUCH_SEAT = gettext_noop("this room has seats 0 to %(last)s, not %(seat)s")

#: What a seat holds; moving a player moves all of it, so the token follows its player.
_OCCUPANT_FIELDS = ("name", "ai_level", "token_hash", "channel", "process", "disconnected_at")


def seat_claim(code: str, name: str, index: int | None = None) -> tuple[int, str]:
    """Seat a human in free seat `index`, or in the first free seat; returns the seat and
    its token. A name another seat shows already gets a number (Ann, Ann 2)."""
    clean = name_clean(name)
    token = token_new()
    with transaction.atomic():
        room = room_locked(code)
        not_playing_verify(room)
        seats = list(room.seats.order_by("index"))
        if index is None:
            seat = next((s for s in seats if s.is_free), None)
            if seat is None:
                raise ConflictError(gettext_noop("the room is full: open the link without joining to watch"))
        else:
            seat = _seat_of(room, seats, index, "seat")
            if not seat.is_free:
                raise ConflictError(gettext_noop("seat %(seat)s is taken: choose a free seat"),
                                    {"seat": seat.index})
        seat.name = name_distinct(clean, (s.name for s in seats if s.index != seat.index))
        seat.token_hash = selectors.token_hash(token)
        seat.channel = ""
        seat.disconnected_at = None
        seat.save(update_fields=["name", "token_hash", "channel", "disconnected_at"])
        room_changed(room)
    return seat.index, token


def _seat_of(room: Room, seats: list[Seat], index: object, field: str) -> Seat:
    """Seat `index` of the room, or BadOptionError naming `field` (the body's or the path's)."""
    if type(index) is not int:
        raise BadOptionError(gettext_noop("a seat is a whole number, not %(value)s"), field,
                             params={"value": repr(index)})
    seat = next((s for s in seats if s.index == index), None)
    if seat is None:
        raise BadOptionError(NO_SUCH_SEAT, field, params={"last": room.players - 1, "seat": index})
    return seat


def _seat_get(room: Room, index: object) -> Seat:
    return _seat_of(room, list(room.seats.order_by("index")), index, "seat")


def seat_ai_set(code: str, token: str | None, index: int, level: str | None) -> int:
    """The host puts an AI of `level` in a free or AI seat, or (`level` None) opens an AI
    seat for a player again."""
    if level is not None and level not in AI_LEVELS:
        raise BadOptionError(gettext_noop("AI level must be one of %(levels)s, not %(value)s"), "ai",
                             params={"levels": ", ".join(AI_LEVELS), "value": repr(level)})
    with transaction.atomic():
        room = room_locked(code)
        seats = list(room.seats.order_by("index"))
        host_verify(room, token, seats)
        not_playing_verify(room)
        seat = _seat_of(room, seats, index, "seat")
        if seat.is_human:
            raise ConflictError(gettext_noop("seat %(seat)s is taken by %(name)s: remove them first"),
                                {"seat": seat.index, "name": seat.name})
        if level is None:
            seat.ai_level, seat.name = "", ""
        else:
            others = (s.name for s in seats if s.index != seat.index)
            seat.ai_level = level
            seat.name = name_distinct(f"{level.capitalize()} AI", others)
        seat.save(update_fields=["ai_level", "name"])
        room_changed(room)
    return seat.index


def seat_move(code: str, token: str | None, index: int, to: int) -> Room:
    """Swap what seats `index` and `to` hold (a player, an AI or nothing), so the host
    decides who partners whom. A player may also move itself to a free seat.

    The host's seat follows the host. Each moved player's socket is told its new seat
    through the room's own event stream, which the match start's first views follow, so
    no socket acts for its old seat."""
    with transaction.atomic():
        room = room_locked(code)
        seats = list(room.seats.order_by("index"))
        caller = selectors.seat_for_token(room, token, seats)
        here = _seat_of(room, seats, index, "seat")
        there = _seat_of(room, seats, to, "move_to")
        if caller is None:
            raise UnauthorizedError(gettext_noop("only the host, or the seat's own player, can move a seat"))
        if caller.index != room.host_seat:
            if caller.index != here.index:
                raise UnauthorizedError(gettext_noop("only the host can move another player"))
            if not there.is_free:
                raise ConflictError(
                    gettext_noop("seat %(seat)s is taken: only the host can swap two players"),
                    {"seat": there.index})
        not_playing_verify(room)
        if here.index == there.index:
            return room
        for field in _OCCUPANT_FIELDS:
            first, second = getattr(here, field), getattr(there, field)
            setattr(here, field, second)
            setattr(there, field, first)
        here.save(update_fields=list(_OCCUPANT_FIELDS))
        there.save(update_fields=list(_OCCUPANT_FIELDS))
        if room.host_seat in (here.index, there.index):
            room.host_seat = there.index if room.host_seat == here.index else here.index
            Room.objects.filter(pk=room.pk).update(host_seat=room.host_seat)
        moved = [(s.channel, s.index) for s in (here, there) if s.channel]
        transaction.on_commit(lambda: reseated_notify(code, moved))
        room_changed(room)
    return room


def reseated_notify(code: str, moved: list[tuple[str, int]]) -> None:
    for connection, seat in moved:
        realtime.connection_notify(code, connection, "lobby.reseated", seat=seat)


def seat_clear(code: str, token: str | None, index: int) -> None:
    """The host removes an AI or kicks a human; a player may also leave their own seat."""
    with transaction.atomic():
        room = room_locked(code)
        caller = selectors.seat_for_token(room, token)
        seat = _seat_get(room, index)
        if caller is None or (caller.index not in (room.host_seat, seat.index)):
            raise UnauthorizedError(gettext_noop("only the host, or the seat's own player, can free a seat"))
        if seat.index == room.host_seat:
            raise ConflictError(gettext_noop("the host's seat cannot be freed"))
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
        seats = list(room.seats.all())
        seat = selectors.seat_for_token(room, token, seats)
        if seat is None:
            raise UnauthorizedError(gettext_noop("this token holds no seat in this room"))
        old = seat.channel
        if old and old != channel:
            transaction.on_commit(lambda: realtime.connection_notify(code, old, "lobby.replaced"))
        _seat_bind(room, seats, seat, channel)
    return seat


def _seat_bind(room: Room, seats: list[Seat], seat: Seat, channel: str) -> None:
    """Inside a write with the room locked: `channel` holds the seat from now on. A socket of
    this process is noted with the seat, so the process can re-assert it (`presence.py`).

    A player coming back to a paused match resumes it: the turn clock starts again (the
    match's `moved_at`), so neither the turn timer nor a stand-in's long-passed deadline
    plays for the seat to move the moment the table wakes."""
    now = timezone.now()
    if selectors.table_paused(seats, now):
        Match.objects.filter(room=room, to_move__isnull=False).update(moved_at=now)
    presence = runtime().presence
    mine = presence.seat_bound(channel, room.code, seat.token_hash)
    seat.channel = channel
    seat.process = presence.name if mine else ""
    seat.disconnected_at = None
    seat.save(update_fields=["channel", "process", "disconnected_at"])
    room_changed(room)


def connections_reassert(held: list[tuple[str, str, str]]) -> int:
    """Bind again each seat that a socket of this process holds (`held`: room code, token
    hash, channel) but that the database shows nobody at: another process took this one
    for dead (it stalled past the presence timeout). Returns how many seats were bound."""
    wanted = {(code, token_hash): channel for code, token_hash, channel in held}
    hashes = sorted({token_hash for _code, token_hash in wanted})
    lost: list[tuple[str, str]] = []
    for start in range(0, len(hashes), 500):
        batch = hashes[start : start + 500]
        lost += Seat.objects.filter(channel="", token_hash__in=batch).values_list("room__code", "token_hash")
    bound = 0
    for code, token_hash in lost:
        channel = wanted.get((code, token_hash))
        if channel is not None and _seat_rebind(code, token_hash, channel):
            bound += 1
    return bound


def _seat_rebind(code: str, token_hash: str, channel: str) -> bool:
    with transaction.atomic():
        try:
            room = room_locked(code)
        except RoomNotFoundError:
            return False
        seats = list(room.seats.all())
        seat = next((s for s in seats if s.token_hash == token_hash and not s.channel), None)
        # Still held, checked under the room's lock: a socket closing leaves `presence`
        # before it frees its seat, so a close never lands before this bind.
        if seat is None or not runtime().presence.holds(channel):
            return False
        _seat_bind(room, seats, seat, channel)
    return True


def connection_close(code: str, channel: str) -> None:
    """The seat's socket closed; an older socket closing after a takeover changes nothing.

    Found by its channel, not its seat number: a player moved to another seat takes its
    channel along, and a socket that missed the notice still frees the right seat."""
    with transaction.atomic():
        room = room_locked(code)
        updated = room.seats.filter(channel=channel).update(
            channel="", process="", disconnected_at=timezone.now()
        )
        if not updated:
            return
        grace = room.grace_seconds
        # The last player gone: when the match pauses, the table is told (`pause_at`).
        pause = settings.LOBBY_PAUSE_SECONDS
        last = pause > 0 and not room.seats.exclude(token_hash="").exclude(channel="").exists()

        deadlines = [grace, pause] if last else [grace]
        transaction.on_commit(lambda: events.seat_left.send(sender=Seat, code=code, deadlines=deadlines))
        room_changed(room)
