"""Matches: dealing one, and every action played in it."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import secrets
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import psycopg
from django.db import IntegrityError, connection, transaction
from django.db.models import Field, JSONField, Model, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.core.actions import normalise_action
from games.engine import IllegalAction, get_rules
from games.options import engine_options
from lobby import realtime, selectors, state_cache
from lobby.errors import (
    ConflictError,
    IdReusedError,
    LobbyError,
    NotYourTurnError,
    RoomNotFoundError,
    StaleVersionError,
)
from lobby.models import ActionRecord, Match, Room, Seat
from lobby.protocol import MATCH_OVER
from lobby.runtime import runtime
from lobby.selectors import NO_SUCH_ROOM
from lobby.services import events
from lobby.services.common import PLAYING, host_verify, room_changed, room_info_send, room_locked


@dataclass(frozen=True, slots=True)
class Ack:
    version: int
    duplicate: bool


def match_start(code: str, token: str | None, *, rematch: bool = False) -> Match:
    """Deal a new match once every seat is filled; after a match this is the rematch."""
    with transaction.atomic():
        room = room_locked(code)
        seats = list(room.seats.all())
        host_verify(room, token, seats)
        previous = selectors.match_current(room)
        if previous is not None and not previous.is_over:
            raise ConflictError(PLAYING)
        if rematch and previous is None:
            raise ConflictError(gettext_noop("no match has been played in this room yet: start one"))
        free = [s.index for s in seats if s.is_free]
        if free:
            raise ConflictError(
                gettext_noop("seat %(seat)s is free: fill every seat (a player or an AI) first"),
                {"seat": free[0]})
        now = timezone.now()
        # A player who never opened the table counts as gone from the start, so the grace
        # period (then a stand-in AI) covers them too.
        absent = [s for s in seats if s.token_hash and not s.channel and s.disconnected_at is None]
        if absent:
            Seat.objects.filter(pk__in=[s.pk for s in absent]).update(disconnected_at=now)
            for seat in absent:
                seat.disconnected_at = now
        rules = get_rules(room.game)
        seed = secrets.token_bytes(32)
        options = engine_options(room.options)
        state = rules.new_match(room.players, options, seed=seed)
        match = Match.objects.create(
            room=room,
            number=0 if previous is None else previous.number + 1,
            game=room.game,
            players=room.players,
            options=options,
            seed=seed,
            seats=[{"name": s.name, "ai": s.ai_level or None} for s in sorted(seats, key=lambda s: s.index)],
            version=0,
            to_move=rules.to_move(state),
            moved_at=now,
            result=rules.result(state),
        )
        _state_changed(room, match, state, seats=seats)
        room_changed(room, match, seats)
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
    then nothing was written. A `client_id` already accepted for this seat with the same
    action is acknowledged with the version it made, and not applied again; with another
    action it raises IdReusedError.

    When this process made the room's last change (`StateCache.held_get`), the action is
    checked and applied to the match row and state it holds, without reading the match:
    the append of the action at the next sequence number fails (the log's `(match, seq)`
    is unique) exactly when the match has gone on since, and a reused id fails on its own
    unique index. Any refusal or failure there is answered again from the database, so
    what the held rows say never decides a refusal.
    """
    write = functools.partial(
        _action_write, code, seat, action, client_id=client_id, expected_version=expected_version, actor=actor
    )
    held = runtime().states.held_get(code)
    if held is not None:
        try:
            return write(held=held)
        except (LobbyError, IllegalAction, IntegrityError):
            pass  # the held rows may be behind: the database answers
    return write(held=None)


def _action_write(
    code: str,
    seat: int,
    action: object,
    *,
    client_id: str,
    expected_version: int | None,
    actor: str,
    held: state_cache.Held | None,
) -> Ack:
    """One transaction with the room's row locked: the guards, the rules, the append of the
    action and the match's new columns. `held`: the match row and its state as this
    process committed them, used instead of reading the match."""
    outermost = not connection.in_atomic_block
    sql = _action_sql(connection.vendor)
    with transaction.atomic(), _pipelined(outermost=outermost):
        with connection.cursor() as cursor:
            cursor.execute(sql.room_lock, [code])
            locked = cursor.fetchone()
        if locked is None:
            raise RoomNotFoundError(NO_SUCH_ROOM)
        room_id, revision = locked
        state: Any = None
        if held is not None and held.match.room_id == room_id and held.revision == revision:
            # Every change of the room counts a revision: the held room is the room now.
            room = copy.copy(held.match.room)
            match, state = copy.copy(held.match), held.state
            match.room = room
        else:
            room = Room.objects.get(pk=room_id)
            held = None
            current = _match_current_with_seen(room, seat, client_id)
            if current is None:
                raise ConflictError(gettext_noop("the match has not started yet"))
            match = current
            seen = getattr(match, "seen_seq", None)
            if seen is not None:
                if not _same_action(getattr(match, "seen_action", None), action):
                    raise IdReusedError(
                        gettext_noop("the id %(id)s was already used for another action: send a fresh id"),
                        {"id": repr(client_id)},
                    )
                return Ack(seen, duplicate=True)
        if expected_version is not None and expected_version != match.version:
            raise StaleVersionError(
                gettext_noop("the table is at version %(version)s, not %(expected)s: sync first"),
                {"version": match.version, "expected": expected_version},
            )
        if match.is_over:
            raise IllegalAction(MATCH_OVER)
        if match.to_move != seat:
            raise NotYourTurnError(gettext_noop("it is seat %(seat)s's turn, not yours"),
                                   {"seat": match.to_move})
        rules = get_rules(match.game)
        canonical = normalise_action(action)
        if state is None:
            state = selectors.match_state(match)
        # Every change of a seat counts a revision of the room, so what was true of the
        # seats at the held revision is true now.
        if held is not None:
            ai_may_play = held.ai_may_play
        else:
            ai_may_play = room.seats.filter(_AI_MAY_PLAY).exists()
        state = rules.apply(state, canonical)
        now = timezone.now()
        before = match.version
        match.version += 1
        match.to_move = rules.to_move(state)
        match.result = rules.result(state)
        match.moved_at = now
        # The match's columns first, then the append: on PostgreSQL the append's answer
        # (the new row's id) brings the update's with it, in one round trip. Both are the
        # statements built once from the models (`_action_sql`), their values prepared by
        # the models' fields as the ORM would.
        match_values = (match.version, match.to_move, now, match.result, match.pk, before)
        action_values = (match.pk, match.version, seat, canonical, client_id, actor, now)
        with connection.cursor() as cursor:
            cursor.execute(sql.match_update, _prepared(sql.match_fields, match_values))
        with connection.cursor() as cursor:
            cursor.execute(sql.action_insert, _prepared(sql.action_fields, action_values))
            if sql.insert_returns:
                cursor.fetchone()
        # The room info shows the match's end, and with a turn timer each deadline.
        room_shown = match.is_over or bool(room.turn_seconds)
        if room_shown:
            room.revision += 1
            Room.objects.filter(pk=room.pk).update(revision=room.revision)
    # Committed: what follows reads and publishes, as an `on_commit` would.
    _state_changed(room, match, state, ai_may_play)
    if room_shown:
        room_info_send(room, match)
    return Ack(match.version, duplicate=False)


class _ActionSql(NamedTuple):
    """The action's statements, built once per database vendor from the models' tables and
    columns: the room's lock, the match's update and the action's append."""

    room_lock: str
    match_update: str
    match_fields: tuple[Field[Any, Any], ...]
    action_insert: str
    action_fields: tuple[Field[Any, Any], ...]
    insert_returns: bool


def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[Field[Any, Any], ...]:
    return tuple(cast("Field[Any, Any]", model._meta.get_field(name)) for name in names)


@functools.cache
def _action_sql(vendor: str) -> _ActionSql:
    """Compiled once, not at every action (compiling the three querysets cost more CPU than
    the rest of the write). The lock is `select_for_update(no_key=True)`'s on PostgreSQL:
    it excludes every other writer of the room, which locks it too; SQLite has no row
    locks, and its IMMEDIATE transactions take the write lock at their start instead."""
    quote = connection.ops.quote_name

    def columns(fields: tuple[Field[Any, Any], ...]) -> list[str]:
        return [quote(str(f.column)) for f in fields]

    room_id, room_revision, room_code = columns(_fields(Room, ("id", "revision", "code")))
    room_lock = f"SELECT {room_id}, {room_revision} FROM {quote(Room._meta.db_table)} WHERE {room_code} = %s"
    features = connection.features
    if features.has_select_for_update:
        room_lock += " " + connection.ops.for_update_sql(no_key=features.has_select_for_no_key_update)
    match_fields = _fields(Match, ("version", "to_move", "moved_at", "result"))
    match_id, match_version = columns(_fields(Match, ("id", "version")))
    sets = ", ".join(f"{column} = %s" for column in columns(match_fields))
    match_update = (
        f"UPDATE {quote(Match._meta.db_table)} SET {sets} WHERE {match_id} = %s AND {match_version} = %s"
    )
    match_fields += _fields(Match, ("id", "version"))
    action_fields = _fields(
        ActionRecord, ("match", "seq", "seat", "action", "client_id", "actor", "created_at")
    )
    names, marks = ", ".join(columns(action_fields)), ", ".join("%s" for _ in action_fields)
    action_insert = f"INSERT INTO {quote(ActionRecord._meta.db_table)} ({names}) VALUES ({marks})"
    # Read back, so that on PostgreSQL's pipeline a refused append (a unique index) is
    # raised here, through Django's errors, and not at the commit.
    insert_returns = bool(connection.features.can_return_columns_from_insert)
    if insert_returns:
        action_insert += " RETURNING " + columns(_fields(ActionRecord, ("id",)))[0]
    return _ActionSql(room_lock, match_update, match_fields, action_insert, action_fields, insert_returns)


def _prepared(fields: tuple[Field[Any, Any], ...], values: tuple[object, ...]) -> list[Any]:
    """The values as the fields prepare them for this database (JSON, datetimes)."""
    return [field.get_db_prep_save(value, connection) for field, value in zip(fields, values, strict=True)]


def _pipelined(*, outermost: bool) -> contextlib.AbstractContextManager[object]:
    """On PostgreSQL, the transaction's statements in psycopg's pipeline mode (entered
    after `transaction.atomic()`, which opened the connection): a statement whose rows are not read yet
    does not wait for its answer, so `BEGIN` travels with the room's lock, and the match's
    update with the action's append. Inside a transaction already open (a test's), the
    statements go one by one."""
    if not outermost or connection.vendor != "postgresql" or not psycopg.Pipeline.is_supported():
        return contextlib.nullcontext()
    return cast("contextlib.AbstractContextManager[object]", connection.connection.pipeline())


#: The seats that may be played for: an AI, or a human with no socket. If no seat of a
#: room is one, only a turn timer can make a move due, and the seat to move need not be read.
_AI_MAY_PLAY = ~Q(ai_level="") | (Q(channel="") & ~Q(token_hash=""))


def _match_current_with_seen(room: Room, seat: int, client_id: str) -> Match | None:
    """The room's current match, read after its lock, with `seen_seq` and `seen_action`: the
    version this seat's `client_id` made and the action it was accepted with, if it was."""
    matches = Match.objects.filter(room=room).order_by("-number")
    if client_id:
        seen = ActionRecord.objects.filter(match=OuterRef("pk"), seat=seat, client_id=client_id)
        matches = matches.annotate(
            seen_seq=Subquery(seen.values("seq")[:1]),
            seen_action=Subquery(seen.values("action")[:1], output_field=JSONField()),
        )
    match = matches.first()
    if match is not None:
        match.room = room
    return match


def _same_action(stored: object, action: object) -> bool:
    """Whether `action` is the action stored under an id: the same canonical form, as
    JSON gives it back. An id is bound to its action: resending it is a retry, which is
    acknowledged; the same id with another action is refused, never acknowledged as if
    it had been played."""
    try:
        canonical = normalise_action(action)
    except IllegalAction:
        return False
    return bool(json.loads(json.dumps(canonical)) == stored)


def _state_changed(
    room: Room, match: Match, state: Any, ai_may_play: bool = True, seats: list[Seat] | None = None
) -> None:
    """After the commit: cache the state, send every seat its view, and wake the AI (the
    seat to move is read, unless the caller holds `seats`, only when a move could be due:
    `ai_may_play`, an AI or a human with no socket, or a turn timer)."""
    code, number, version, game, players = room.code, match.number, match.version, match.game, match.players
    over = match.is_over
    mover = None
    if seats is not None:
        ai_may_play = any(s.ai_level or (s.token_hash and not s.channel) for s in seats)
        if match.to_move is not None:
            mover = next(s for s in seats if s.index == match.to_move)
    elif match.to_move is not None and (ai_may_play or room.turn_seconds):
        mover = room.seats.get(index=match.to_move)

    def after() -> None:
        rules = get_rules(game)
        states = runtime().states
        states.memo_put(code, number, version, state)
        states.held_put(code, state_cache.Held(match, state, room.revision, ai_may_play))
        views: dict[int | None, dict[str, Any]] = {s: rules.view(state, s) for s in range(players)}
        views[None] = rules.view(state, None)
        realtime.views_publish(code, number, version, views)
        hands = len(views[None].get("revealed") or ())
        events.match_moved.send(sender=Match, room=room, match=match, mover=mover, hands=hands)
        # Off the request's thread, and every few versions: the memo serves this process,
        # and another process replays the actions after the newest entry.
        if state_cache.dump_wanted(version, over):
            runtime().background().write(_dump_put, code, number, version, game, state)

    transaction.on_commit(after)


def _dump_put(code: str, number: int, version: int, game: str, state: Any) -> None:
    runtime().states.dump_put(code, number, version, get_rules(game).dump(state))
