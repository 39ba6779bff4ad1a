"""Reads: rooms by code, the public room info, the current state and each seat's view."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.engine import get_rules
from games.options import engine_options
from lobby.errors import RoomNotFoundError
from lobby.models import ActionRecord, Match, Room, Seat
from lobby.runtime import runtime


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: The refusal of a room code that names no room (a wrong code or a closed room alike).
NO_SUCH_ROOM = gettext_noop("no such room")


def room_get_by_code(code: str, *, lock: bool = False) -> Room:
    """The room, or RoomNotFoundError with nothing that tells a wrong code from a closed room."""
    rooms: QuerySet[Room] = Room.objects.select_for_update() if lock else Room.objects.all()
    try:
        return rooms.get(code=code)
    except Room.DoesNotExist:
        raise RoomNotFoundError(NO_SUCH_ROOM) from None


def seat_for_token(room: Room, token: str | None, seats: list[Seat] | None = None) -> Seat | None:
    """The seat `token` holds, looked up among `seats` when the caller has read them."""
    if not token:
        return None
    hashed = token_hash(token)
    if seats is not None:
        return next((seat for seat in seats if seat.token_hash == hashed), None)
    return room.seats.filter(token_hash=hashed).first()


def match_current(room: Room) -> Match | None:
    return room.matches.order_by("-number").first()


def match_state(match: Match) -> Any:
    """The state at `match.version`: from the memo, then Redis (an entry at most a few
    versions old, the actions after it replayed), else replayed from the whole log."""
    code = match.room.code
    states = runtime().states
    state = states.memo_get(code, match.number, match.version)
    if state is not None:
        return state
    rules = get_rules(match.game)
    found = states.dump_get(code, match.number, match.version)
    if found is not None:
        state = match_replay(match, from_version=found[0], state=rules.load(found[1]))
    else:
        state = match_replay(match)
        states.dump_put(code, match.number, match.version, rules.dump(state))
    states.memo_put(code, match.number, match.version, state)
    return state


def match_replay(match: Match, *, from_version: int = 0, state: Any = None) -> Any:
    """Rebuild the state from the master seed and the action log (checked, step by step),
    or from `state` at `from_version` with the actions after it."""
    rules = get_rules(match.game)
    if state is None:
        state, from_version = rules.new_match(match.players, match.options, seed=bytes(match.seed)), 0
    if from_version == match.version:
        return state
    records = ActionRecord.objects.filter(match=match, seq__gt=from_version, seq__lte=match.version)
    for action in records.order_by("seq").values_list("action", flat=True):
        state = rules.apply(state, action)
    return state


def seat_view_get(code: str, seat: int | None) -> tuple[int, dict[str, Any] | None]:
    """The current version and the view of `seat` (None: a spectator); no match: (0, None)."""
    _room, _match, version, view = table_snapshot(code, seat)
    return version, view


def table_snapshot(code: str, seat: int | None) -> tuple[Room, Match | None, int, dict[str, Any] | None]:
    """The room, its current match, the version and the seat's view, all of one match."""
    room = room_get_by_code(code)
    match = match_current(room)
    if match is None:
        return room, None, 0, None
    return room, match, match.version, get_rules(match.game).view(match_state(match), seat)


def teams_of(game: str, players: int, options: dict[str, Any]) -> list[list[int]] | None:
    """The seats of each team when the game is played in partnership, else None: the lobby
    draws the teams before the match, as the engine will deal them."""
    teams = _teams(game, players, json.dumps(engine_options(options), sort_keys=True))
    return None if teams is None else [list(team) for team in teams]


@functools.lru_cache(maxsize=256)
def _teams(game: str, players: int, options: str) -> list[list[int]] | None:
    rules = get_rules(game)
    view = rules.view(rules.new_match(players, json.loads(options), seed=bytes(32)), None)
    teams = view.get("teams")
    if not isinstance(teams, list) or all(len(team) == 1 for team in teams):
        return None
    return [list(team) for team in teams]


def standin_deadline(room: Room, seat: Seat) -> Any:
    """When an AI starts playing for a human who dropped, or None while they are here."""
    if not seat.is_human or seat.is_connected or seat.disconnected_at is None:
        return None
    return seat.disconnected_at + timedelta(seconds=room.grace_seconds)


def pause_at(seats: Iterable[Seat]) -> datetime | None:
    """When a table that no human is connected to pauses: `LOBBY_PAUSE_SECONDS` after the
    last of them left. None while one is connected (or the pause is off): then AI seats,
    stand-ins and the turn timer play on. Paused, nobody is played for, so a table every
    human has left does not burn the server's time to its end."""
    if settings.LOBBY_PAUSE_SECONDS <= 0:
        return None
    humans = [seat for seat in seats if seat.is_human]
    if not humans or any(seat.is_connected or seat.disconnected_at is None for seat in humans):
        return None
    left = max(seat.disconnected_at for seat in humans if seat.disconnected_at is not None)
    return left + timedelta(seconds=settings.LOBBY_PAUSE_SECONDS)


def table_paused(seats: Iterable[Seat], now: datetime) -> bool:
    at = pause_at(seats)
    return at is not None and at <= now


def room_info(room: Room, match: Match | None = None, seats: list[Seat] | None = None) -> dict[str, Any]:
    """Everything the room page shows, for anyone holding the link. No token, no tile.

    `match` and `seats` (in index order) save queries when the caller holds them already."""
    now = timezone.now()
    seat_rows = list(room.seats.order_by("index") if seats is None else seats)
    match = match or match_current(room)
    paused = match is not None and not match.is_over and table_paused(seat_rows, now)
    rows = []
    for seat in seat_rows:
        deadline = standin_deadline(room, seat)
        rows.append(
            {
                "seat": seat.index,
                "name": seat.name,
                "ai": seat.ai_level or None,
                "human": seat.is_human,
                "free": seat.is_free,
                "connected": seat.is_connected if seat.is_human else None,
                "standin_at": deadline.isoformat() if deadline else None,
                "standin": bool(deadline and deadline <= now and not paused),
            }
        )
    match_info = None
    if match is not None:
        turn_deadline = None
        if room.turn_seconds and not match.is_over and not paused:
            turn_deadline = (match.moved_at + timedelta(seconds=room.turn_seconds)).isoformat()
        match_info = {
            "number": match.number,
            "version": match.version,
            "over": match.is_over,
            "to_move": match.to_move,
            "turn_deadline": turn_deadline,
            "result": match.result,
        }
    return {
        "code": room.code,
        "link": f"/r/{room.code}",
        "game": room.game,
        "players": room.players,
        "options": room.options,
        "resolved_options": room.resolved,
        "grace_seconds": room.grace_seconds,
        "turn_seconds": room.turn_seconds,
        "host_seat": room.host_seat,
        "teams": teams_of(room.game, room.players, room.options),
        "revision": room.revision,
        "started": match is not None,
        "playing": match is not None and not match.is_over,
        "paused": paused,
        "match": match_info,
        "seats": rows,
    }
