"""Every write: rooms, seats, matches and actions, each in one transaction.

The room's row is locked (`select_for_update`; SQLite serialises IMMEDIATE transactions)
for every write, so a room has exactly one writer at a time across any number of server
processes. Publishing, caching and AI scheduling happen after the commit, so nothing
outside the database ever sees a change that could still roll back.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core.actions import normalise_action
from games.engine import IllegalAction, get_rules, names
from lobby import realtime, selectors, state_cache
from lobby.errors import BadOptionError, ConflictError, NotYourTurnError, StaleVersionError, UnauthorizedError
from lobby.models import ActionRecord, Match, Room, Seat

#: No 0/o, 1/l/i: a code read aloud or copied by hand survives.
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
#: 14 characters of 31: 69 bits.
CODE_LENGTH = 14
AI_LEVELS = ("easy", "medium", "hard")
MIN_PLAYERS = 2
MAX_PLAYERS = 10
NAME_MAX_LENGTH = 40
_OPTION_NAME = re.compile(r"option '([^']+)'")


@dataclass(frozen=True, slots=True)
class Ack:
    version: int
    duplicate: bool


def _code_new() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _token_new() -> str:
    """A seat token: 256 random bits; only its sha256 is stored."""
    return secrets.token_urlsafe(32)


def name_clean(name: object) -> str:
    if not isinstance(name, str):
        raise BadOptionError("a name is a string", "name")
    clean = " ".join("".join(c if c.isprintable() else " " for c in name).split())
    if not clean:
        raise BadOptionError("a name cannot be empty", "name")
    if len(clean) > NAME_MAX_LENGTH:
        raise BadOptionError(f"a name is at most {NAME_MAX_LENGTH} characters", "name")
    return clean


def options_resolve(game: str, players: object, options: object) -> dict[str, Any]:
    """The engine's resolved options; BadOptionError naming the option the engine refused."""
    try:
        rules = get_rules(game)
    except (ValueError, ImportError):
        raise BadOptionError(f"unknown game {game!r}: expected one of {', '.join(names())}", "game") from None
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptionError(
            f"option 'players' must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}", "players"
        )
    if not isinstance(options, dict):
        raise BadOptionError("options must be a JSON object", "options")
    try:
        state = rules.new_match(players, options, seed=bytes(32))
    except ValueError as exc:
        found = _OPTION_NAME.search(str(exc))
        raise BadOptionError(str(exc), found.group(1) if found else "options") from None
    resolved: dict[str, Any] = rules.view(state, None).get("options", dict(options))
    return resolved


def _room_locked(code: str) -> Room:
    return selectors.room_get_by_code(code, lock=True)


def _host_verify(room: Room, token: str | None) -> Seat:
    seat = selectors.seat_for_token(room, token)
    if seat is None or seat.index != room.host_seat:
        raise UnauthorizedError("only the host can do this: send the host's seat token")
    return seat


def _not_playing_verify(room: Room) -> None:
    match = selectors.match_current(room)
    if match is not None and not match.is_over:
        raise ConflictError("a match is being played: wait until it is over")


def _room_changed(room: Room) -> None:
    code = room.code

    def publish() -> None:
        realtime.room_publish(code, selectors.room_info(selectors.room_get_by_code(code)))

    transaction.on_commit(publish)


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
    from django.conf import settings

    resolved = options_resolve(game, players, options)
    host_name = name_clean(name)
    token = _token_new()
    for _ in range(5):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=_code_new(),
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
    raise ConflictError("could not allocate a room code; try again")


def seat_claim(code: str, name: str) -> tuple[int, str]:
    """Seat a human in the first free seat; returns the seat and its token."""
    clean = name_clean(name)
    token = _token_new()
    with transaction.atomic():
        room = _room_locked(code)
        _not_playing_verify(room)
        seat = room.seats.filter(ai_level="", token_hash="").order_by("index").first()
        if seat is None:
            raise ConflictError("the room is full: open the link without joining to watch")
        seat.name = clean
        seat.token_hash = selectors.token_hash(token)
        seat.channel = ""
        seat.disconnected_at = None
        seat.save(update_fields=["name", "token_hash", "channel", "disconnected_at"])
        _room_changed(room)
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
        room = _room_locked(code)
        _host_verify(room, token)
        _not_playing_verify(room)
        seat = _seat_get(room, index)
        if seat.is_human:
            raise ConflictError(f"seat {seat.index} is taken by {seat.name}: remove them first")
        seat.ai_level = level
        seat.name = f"{level.capitalize()} AI"
        seat.save(update_fields=["ai_level", "name"])
        _room_changed(room)
    return seat.index


def seat_clear(code: str, token: str | None, index: int) -> None:
    """The host removes an AI or kicks a human; a player may also leave their own seat."""
    with transaction.atomic():
        room = _room_locked(code)
        caller = selectors.seat_for_token(room, token)
        seat = _seat_get(room, index)
        if caller is None or (caller.index not in (room.host_seat, seat.index)):
            raise UnauthorizedError("only the host, or the seat's own player, can free a seat")
        if seat.index == room.host_seat:
            raise ConflictError("the host's seat cannot be freed")
        _not_playing_verify(room)
        old_channel = seat.channel
        seat.name = ""
        seat.ai_level = ""
        seat.token_hash = ""
        seat.channel = ""
        seat.disconnected_at = None
        seat.save(update_fields=["name", "ai_level", "token_hash", "channel", "disconnected_at"])
        if old_channel:
            transaction.on_commit(lambda: _kicked_notify([old_channel]))
        _room_changed(room)


def _kicked_notify(channels: list[str]) -> None:
    for channel in channels:
        realtime.channel_notify(channel, {"type": "lobby.kicked"})


def room_update(code: str, token: str | None, changes: dict[str, Any]) -> Room:
    """The host changes players, options, grace or turn timer while no match is on."""
    with transaction.atomic():
        room = _room_locked(code)
        _host_verify(room, token)
        _not_playing_verify(room)
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
            transaction.on_commit(lambda: _kicked_notify(gone))
            room.seats.filter(index__gte=players).delete()
            Seat.objects.bulk_create([Seat(room=room, index=i) for i in range(room.players, players)])
            room.players = players
        room.save()
        _room_changed(room)
    return room


def match_start(code: str, token: str | None, *, rematch: bool = False) -> Match:
    """Deal a new match once every seat is filled; after a match this is the rematch."""
    with transaction.atomic():
        room = _room_locked(code)
        _host_verify(room, token)
        previous = selectors.match_current(room)
        if previous is not None and not previous.is_over:
            raise ConflictError("a match is being played: wait until it is over")
        if rematch and previous is None:
            raise ConflictError("no match has been played in this room yet: start one")
        free = [s.index for s in room.seats.all() if s.is_free]
        if free:
            raise ConflictError(f"seat {free[0]} is free: fill every seat (a player or an AI) first")
        # A player who never opened the table counts as gone from the start, so the grace
        # period (then a stand-in AI) covers them too.
        room.seats.exclude(token_hash="").filter(channel="", disconnected_at__isnull=True).update(
            disconnected_at=timezone.now()
        )
        rules = get_rules(room.game)
        seed = secrets.token_bytes(32)
        state = rules.new_match(room.players, room.options, seed=seed)
        match = Match.objects.create(
            room=room,
            number=0 if previous is None else previous.number + 1,
            game=room.game,
            players=room.players,
            options=room.options,
            seed=seed,
            version=0,
            to_move=rules.to_move(state),
            moved_at=timezone.now(),
            result=rules.result(state),
        )
        _state_changed(room, match, state)
        _room_changed(room)
    return match


def action_submit(
    code: str,
    seat: int,
    action: object,
    *,
    client_id: str = "",
    expected_version: int | None = None,
    actor: str = "seat",
) -> Ack:
    """Apply one action of `seat` (bound by the server, never read from a message).

    Raises NotYourTurnError, StaleVersionError, IllegalAction (MalformedAction) or ConflictError, and
    then nothing was written. A `client_id` already accepted for this seat is acknowledged
    with the version it made, and not applied again.
    """
    with transaction.atomic():
        room = _room_locked(code)
        match = selectors.match_current(room)
        if match is None:
            raise ConflictError("the match has not started yet")
        if client_id:
            seen = ActionRecord.objects.filter(match=match, seat=seat, client_id=client_id).first()
            if seen is not None:
                return Ack(seen.seq, duplicate=True)
        if expected_version is not None and expected_version != match.version:
            raise StaleVersionError(
                f"the table is at version {match.version}, not {expected_version}: sync first"
            )
        if match.is_over:
            raise IllegalAction("the match is over: no more actions")
        if match.to_move != seat:
            raise NotYourTurnError(f"it is seat {match.to_move}'s turn, not yours")
        rules = get_rules(match.game)
        canonical = normalise_action(action)
        state = rules.apply(selectors.match_state(match), canonical)
        match.version += 1
        ActionRecord.objects.create(
            match=match, seq=match.version, seat=seat, action=canonical, client_id=client_id, actor=actor
        )
        match.to_move = rules.to_move(state)
        match.moved_at = timezone.now()
        match.result = rules.result(state)
        match.save(update_fields=["version", "to_move", "moved_at", "result"])
        _state_changed(room, match, state)
        if match.is_over or room.turn_seconds:
            _room_changed(room)
    return Ack(match.version, duplicate=False)


def _state_changed(room: Room, match: Match, state: Any) -> None:
    """After the commit: cache the state, send every seat its view, and wake the AI."""
    code, number, version, game, players = room.code, match.number, match.version, match.game, match.players
    mover = None if match.to_move is None else room.seats.get(index=match.to_move)

    def after() -> None:
        from lobby import bots

        rules = get_rules(game)
        state_cache.memo_put(code, number, version, state)
        state_cache.dump_put(code, number, version, rules.dump(state))
        views: dict[int | None, dict[str, Any]] = {s: rules.view(state, s) for s in range(players)}
        views[None] = rules.view(state, None)
        realtime.views_publish(code, number, version, views)
        bots.due_schedule(room, match, mover)

    transaction.on_commit(after)


def connection_open(code: str, token: str | None, channel: str) -> Seat | None:
    """Bind a new socket: its seat (None for a spectator), taking over from an older one.

    UnauthorizedError for a token that holds no seat here: a forged token is not a spectator.
    """
    if not token:
        selectors.room_get_by_code(code)  # spectators take no lock
        return None
    with transaction.atomic():
        room = _room_locked(code)
        seat = selectors.seat_for_token(room, token)
        if seat is None:
            raise UnauthorizedError("this token holds no seat in this room")
        old = seat.channel
        seat.channel = channel
        seat.disconnected_at = None
        seat.save(update_fields=["channel", "disconnected_at"])
        if old and old != channel:
            transaction.on_commit(lambda: realtime.channel_notify(old, {"type": "lobby.replaced"}))
        _room_changed(room)
    return seat


def connection_close(code: str, seat: int, channel: str) -> None:
    """The seat's socket closed; an older socket closing after a takeover changes nothing."""
    with transaction.atomic():
        room = _room_locked(code)
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
        _room_changed(room)
