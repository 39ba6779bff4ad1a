"""The rows an action reads and writes, in SQL written once, and its transaction.

An action is the server's hot path. Built through the ORM, its statements cost more CPU
to compile than the game's rules and every view together, so they are spelled out here,
for SQLite and PostgreSQL alike, and give the same model instances the ORM would.

On PostgreSQL an action whose state this process holds (`held_rows`: the room's last
change was made here, as when a room's sockets are routed to one process) is one round
trip, `append_if_current`: `BEGIN`, the room's lock, the append with the match's new
columns written only if the match is still at the version the action was applied to, and
`COMMIT`. Reading nothing back but one flag, it takes half the CPU of the two round trips,
in PostgreSQL and in this process (a probe of the statements alone). Any other action is
two round trips: `BEGIN`, the room's lock and the read of its match travel as one message,
and the append, the match's new columns and `COMMIT` as the other (Django's client-side
binding lets one execute carry several statements). Through `transaction.atomic()` the
same work took six, each a wait on another process and a hand-over of the interpreter's
lock, which on a loaded machine cost more than the work. The lock and the read stay two
statements in that message: a read joined to the locking statement would, after waiting
for the lock, see the match as it was before the other writer committed. SQLite, or a
caller already inside a transaction, runs the same statements inside
`transaction.atomic()`.

On that path the statements are prepared once per connection (`PREPARE`, sent in front
of its first action's message) and then run by name: PostgreSQL parses and plans them once,
which takes a third off its CPU per action. On a session that lost them (a pooler,
`DISCARD ALL`), holds them without this process knowing, or holds plans gone stale, they are
deallocated and the action begins again, preparing them afresh.
"""

from __future__ import annotations

import contextlib
import json
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from django.db import DatabaseError, IntegrityError, connection, models, transaction

from lobby.errors import RoomNotFoundError
from lobby.models import ActionRecord, Match, Room, Seat

M = TypeVar("M", bound=models.Model)

_ROOM = Room._meta.db_table
_MATCH = Match._meta.db_table
_SEAT = Seat._meta.db_table
_ACTION = ActionRecord._meta.db_table


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f"{alias}.{f.column}" for f in model._meta.concrete_fields)


_ROOM_SQL = f"SELECT {_columns(Room, 'r')} FROM {_ROOM} r WHERE r.code = %s"

# `ai_may_play`: whether any seat is an AI or a human with no socket; if none is, only a
# turn timer can make a move due, and the seat to move need not be read.
_AI_MAY_PLAY = f"""EXISTS (SELECT 1 FROM {_SEAT} s WHERE s.room_id = {{room}}
          AND (s.ai_level <> '' OR (s.channel = '' AND s.token_hash <> '')))"""

# `seen_seq`: the version this seat's client id made if it was accepted before, and
# `seen_action`: the action it was accepted with (an id is bound to its action).
_SEEN = f"""(SELECT a.{{column}} FROM {_ACTION} a WHERE a.match_id = m.id AND a.seat = %s
          AND a.client_id = %s AND a.client_id <> '' LIMIT 1)"""
_MATCH_SQL = f"""
SELECT {_columns(Match, "m")},
  {_AI_MAY_PLAY.format(room="m.room_id")} AS ai_may_play,
  {_SEEN.format(column="seq")} AS seen_seq,
  {_SEEN.format(column="action")} AS seen_action
FROM {_MATCH} m WHERE m.room_id = (SELECT id FROM {_ROOM} WHERE code = %s)
ORDER BY m.number DESC LIMIT 1
"""

_INSERT_SQL = (
    f"INSERT INTO {_ACTION} (match_id, seq, seat, action, client_id, actor, created_at)"
    " VALUES (%s, %s, %s, {json}, %s, %s, %s)"
)
_REVISION_SQL = f"UPDATE {_ROOM} SET revision = %s WHERE id = %s"

# The match's new columns and the action, only if the match is still at the version the
# action was applied to; a row back (with `ai_may_play`) when they were written.
_APPEND_SQL = f"""
WITH m AS (UPDATE {_MATCH} SET version = %s, to_move = %s, moved_at = %s, result = CAST(%s AS jsonb)
           WHERE id = %s AND version = %s RETURNING id)
INSERT INTO {_ACTION} (match_id, seq, seat, action, client_id, actor, created_at)
SELECT m.id, %s, %s, CAST(%s AS jsonb), %s, %s, %s FROM m
RETURNING (SELECT {_AI_MAY_PLAY.format(room="%s")})
"""
_UPDATE_SQL = (
    f"UPDATE {_MATCH} SET version = %s, to_move = %s, moved_at = %s, result = {{json}} WHERE id = %s"
)


def _numbered(sql: str) -> str:
    """`%s` placeholders as `$1`, `$2`... in order: the parameters of a `PREPARE`."""
    parts = sql.split("%s")
    return "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, 1))


_PREPARED = {
    "lobby_action_room": _ROOM_SQL + " FOR UPDATE",
    "lobby_action_match": _MATCH_SQL,
    "lobby_action_insert": _INSERT_SQL.format(json="CAST(%s AS jsonb)"),
    "lobby_action_update": _UPDATE_SQL.format(json="CAST(%s AS jsonb)"),
    "lobby_action_lock": f"SELECT 1 FROM {_ROOM} WHERE id = %s FOR UPDATE",
    "lobby_action_append": _APPEND_SQL,
}
_PREPARE = "".join(f"PREPARE {name} AS {_numbered(sql)}; " for name, sql in _PREPARED.items())


#: Each prepared statement run by name, its parameters left to bind.
_EXECUTE = {
    name: f"EXECUTE {name}({', '.join(['%s'] * sql.count('%s'))})" for name, sql in _PREPARED.items()
}
_BEGIN = f"BEGIN; {_EXECUTE['lobby_action_room']}; {_EXECUTE['lobby_action_match']}"
_APPEND = f"BEGIN; {_EXECUTE['lobby_action_lock']}; {_EXECUTE['lobby_action_append']}; COMMIT"
#: Raw connections whose session holds the prepared statements.
_prepared_on: weakref.WeakSet[Any] = weakref.WeakSet()
#: Missing, already there, or planned for another shape of a table: deallocating cures each.
_STATEMENTS_AMISS = frozenset({"26000", "42P05", "0A000"})

Converters = list[tuple[Any, list[Callable[..., Any]]]]
_converters_found: dict[tuple[str, type[models.Model]], Converters] = {}


def _converters(model: type[models.Model]) -> Converters:
    """Per column, what the ORM's compiler would apply to a raw value (the backend's, then
    the field's own `from_db_value`), with the column expression they are given."""
    key = (connection.vendor, model)
    found = _converters_found.get(key)
    if found is None:
        found = []
        for f in model._meta.concrete_fields:
            col = f.get_col(model._meta.db_table)
            found.append((col, [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]))
        _converters_found[key] = found
    return found


def _instance(model: type[M], row: tuple[Any, ...]) -> M:
    """The model instance of the row's first columns, exactly as a query would load it."""
    values = []
    for raw, (col, converters) in zip(row, _converters(model)):
        value = raw
        for convert in converters:
            value = convert(value, col, connection)
        values.append(value)
    return model.from_db(connection.alias, [f.attname for f in model._meta.concrete_fields], values)


def _room_of(rows: list[tuple[Any, ...]]) -> Room:
    if not rows:
        raise RoomNotFoundError("no such room")
    return _instance(Room, rows[0])


def _match_of(rows: list[tuple[Any, ...]], room: Room) -> Match | None:
    if not rows:
        return None
    row = rows[0]
    match = _instance(Match, row)
    width = len(Match._meta.concrete_fields)
    match.ai_may_play = bool(row[width])  # type: ignore[attr-defined]
    match.seen_seq = row[width + 1]  # type: ignore[attr-defined]
    seen = row[width + 2]
    # PostgreSQL's driver gives jsonb decoded; SQLite gives the stored text.
    match.seen_action = json.loads(seen) if isinstance(seen, str) else seen  # type: ignore[attr-defined]
    match.room = room
    return match


def _json(value: Any) -> str:
    return "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else value


@dataclass
class ActionRows:
    """The locked room and its current match; `append` writes the action (on PostgreSQL
    with the commit, when the block ends without an error)."""

    room: Room
    match: Match | None
    deferred: bool
    writes: list[tuple[str, list[Any]]] = field(default_factory=list)

    def append(
        self, match: Match, seat: int, action: Any, *, client_id: str, actor: str, now: datetime
    ) -> None:
        """Append the action at `match.version` to the log and store the match's new columns."""
        insert, update = (
            (_EXECUTE["lobby_action_insert"], _EXECUTE["lobby_action_update"]) if self.deferred
            else (_INSERT_SQL.format(json=_json("%s")), _UPDATE_SQL.format(json=_json("%s")))
        )
        record, columns = _bound(match, seat, action, client_id=client_id, actor=actor, now=now)
        self._write(insert, [match.pk, *record])
        self._write(update, columns)
        match.moved_at = now

    def room_revised(self) -> None:
        """Count a change of the room info (`Room.revision`) with the action."""
        self.room.revision += 1
        self._write(_REVISION_SQL, [self.room.revision, self.room.pk])

    def _write(self, sql: str, params: list[Any]) -> None:
        if self.deferred:
            self.writes.append((sql, params))
            return
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def prepared_path() -> bool:
    """PostgreSQL with client-side binding (Django's default, which lets one execute carry
    several statements), and no transaction already open around the call: the path of the
    prepared statements, where `append_if_current` can be used."""
    options = connection.settings_dict.get("OPTIONS") or {}
    return (
        connection.vendor == "postgresql"
        and not options.get("server_side_binding")
        and not connection.in_atomic_block
    )


@contextlib.contextmanager
def locked(code: str, seat: int, client_id: str) -> Iterator[ActionRows]:
    """The room by code with its row locked until the block ends, and its current match
    with `seen_seq`, `seen_action` and `ai_may_play`. Leaving the block commits what was
    appended; an error rolls everything back. Raises RoomNotFoundError."""
    if not prepared_path():
        with transaction.atomic():
            lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
            with connection.cursor() as cursor:
                cursor.execute(_ROOM_SQL + lock, [code])
                room = _room_of(cursor.fetchall())
                cursor.execute(_MATCH_SQL, [seat, client_id, seat, client_id, code])
                match = _match_of(cursor.fetchall(), room)
            yield ActionRows(room, match, deferred=False)
        return
    cursor = _begun(_BEGIN, [code, seat, client_id, seat, client_id, code])
    with cursor:
        try:
            cursor.nextset()
            room = _room_of(cursor.fetchall())
            cursor.nextset()
            rows = ActionRows(room, _match_of(cursor.fetchall(), room), deferred=True)
            yield rows
            if rows.writes:
                cursor.execute(
                    "; ".join(sql for sql, _ in rows.writes) + "; COMMIT",
                    [param for _, params in rows.writes for param in params],
                )
            else:
                cursor.execute("ROLLBACK")
        except BaseException:
            _rollback(cursor)
            raise


def append_if_current(
    match: Match, seat: int, action: Any, *, client_id: str, actor: str, now: datetime
) -> bool | None:
    """Append the action at `match.version` and store the match's new columns, in one round
    trip with the room locked, if the stored match is still at the version before: the
    state the action was applied to, as this process holds it, is then the stored one.

    Returns `ai_may_play` when written. None when nothing was: the match moved on, or
    this seat's `client_id` was accepted before (the caller then takes the locked path,
    which answers either). Only on the path `prepared_path` selects."""
    record, columns = _bound(match, seat, action, client_id=client_id, actor=actor, now=now)
    room = match.room_id
    try:
        cursor = _begun(_APPEND, [room, *columns, match.version - 1, *record, room])
    except IntegrityError:
        return None
    with cursor:
        cursor.nextset()  # past BEGIN, to the lock's row
        cursor.nextset()
        rows = cursor.fetchall()
    if not rows:
        return None
    match.moved_at = now
    return bool(rows[0][0])


def _bound(
    match: Match, seat: int, action: Any, *, client_id: str, actor: str, now: datetime
) -> tuple[list[Any], list[Any]]:
    """The action's row but its match, and the match's new columns with its id last, as the
    statements bind them."""
    stamp = connection.ops.adapt_datetimefield_value(now)
    result = None if match.result is None else json.dumps(match.result)
    record = [match.version, seat, json.dumps(action), client_id, actor, stamp]
    return record, [match.version, match.to_move, stamp, result, match.pk]


def _begun(sql: str, params: list[Any]) -> Any:
    """A cursor at the first result of `sql` (prepared statements run by name). A session
    whose prepared statements are amiss gets them afresh, once: nothing was written in it."""
    try:
        return _begin(sql, params)
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) not in _STATEMENTS_AMISS:
            raise
    _statements_forget()
    return _begin(sql, params)


def _statements_forget() -> None:
    """Drop the session's prepared statements, so the next action prepares them afresh; a
    session that cannot is closed for good (a pool would otherwise lend it again)."""
    session = connection.connection
    _prepared_on.discard(session)
    try:
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")
    except DatabaseError:
        if session is not None:
            session.close()
        connection.close()


def _begin(sql: str, params: list[Any]) -> Any:
    cursor = connection.cursor()
    session = connection.connection
    prepare = session not in _prepared_on
    try:
        cursor.execute((_PREPARE if prepare else "") + sql, params)
    except BaseException:
        _rollback(cursor)
        cursor.close()
        raise
    _prepared_on.add(session)
    for _ in range(len(_PREPARED) * prepare):
        cursor.nextset()
    return cursor


def _rollback(cursor: Any) -> None:
    """End the open transaction after an error; a connection that cannot is closed, so
    the next call opens a fresh one."""
    try:
        if connection.connection is not None and connection.connection.info.transaction_status != 0:
            cursor.execute("ROLLBACK")
    except DatabaseError:
        connection.close()
