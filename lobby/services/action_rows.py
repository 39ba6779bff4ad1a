"""The rows an action reads and writes, in SQL written once.

An action is the server's hot path. Built through the ORM, its four statements cost more
CPU to compile than the game's rules and every view together, so they are spelled out
here, for SQLite and PostgreSQL alike, and return the same model instances the ORM would.
Everything else (room changes, seats, replays) stays on the ORM.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import connection

from lobby.errors import RoomNotFoundError
from lobby.models import ActionRecord, Match, Room, Seat

_ROOM = Room._meta.db_table
_MATCH = Match._meta.db_table
_SEAT = Seat._meta.db_table
_ACTION = ActionRecord._meta.db_table

# `seen_seq`: the version this seat's client id made if it was accepted before.
# `ai_may_play`: whether any seat is an AI or a human with no socket; if none is, only a
# turn timer can make a move due, and the seat to move need not be read.
_MATCH_SQL = f"""
SELECT m.*,
  EXISTS (SELECT 1 FROM {_SEAT} s WHERE s.room_id = m.room_id
          AND (s.ai_level <> '' OR (s.channel = '' AND s.token_hash <> ''))) AS ai_may_play,
  (SELECT a.seq FROM {_ACTION} a WHERE a.match_id = m.id AND a.seat = %s
          AND a.client_id = %s AND a.client_id <> '' LIMIT 1) AS seen_seq
FROM {_MATCH} m WHERE m.room_id = %s ORDER BY m.number DESC LIMIT 1
"""


def _json(value: Any) -> str:
    return "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else value


def room_locked(code: str) -> Room:
    """The room by code with its row locked for this transaction (SQLite: the IMMEDIATE
    transaction already holds the database's write lock)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    rooms = list(Room.objects.raw(f"SELECT * FROM {_ROOM} WHERE code = %s{lock}", [code]))
    if not rooms:
        raise RoomNotFoundError("no such room")
    return rooms[0]


def match_for_action(room: Room, seat: int, client_id: str) -> Match | None:
    """The room's current match, with `seen_seq` and `ai_may_play` read in the same query."""
    matches = list(Match.objects.raw(_MATCH_SQL, [seat, client_id, room.pk]))
    if not matches:
        return None
    match = matches[0]
    match.ai_may_play = bool(match.ai_may_play)  # type: ignore[attr-defined]
    match.room = room
    return match


def action_append(
    match: Match, seat: int, action: Any, *, client_id: str, actor: str, now: datetime
) -> None:
    """Append the action at `match.version` to the log and store the match's new columns."""
    stamp = connection.ops.adapt_datetimefield_value(now)
    result = None if match.result is None else json.dumps(match.result)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_ACTION} (match_id, seq, seat, action, client_id, actor, created_at)"
            f" VALUES (%s, %s, %s, {_json('%s')}, %s, %s, %s)",
            [match.pk, match.version, seat, json.dumps(action), client_id, actor, stamp],
        )
        cursor.execute(
            f"UPDATE {_MATCH} SET version = %s, to_move = %s, moved_at = %s, result = {_json('%s')}"
            " WHERE id = %s",
            [match.version, match.to_move, stamp, result, match.pk],
        )
    match.moved_at = now
