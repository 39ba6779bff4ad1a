"""AI seats, stand-ins for humans who dropped, and the turn timer: all through action_submit.

A move is due for the seat to move when it is an AI seat (after a short human-like pause),
when its human has been gone longer than the room's grace period (a Hard AI plays for them
until they return), or when the room's turn timer runs out (the Hard AI plays a default
move). Triggers are scheduled after every commit, but they can be lost (a process
restarts), so connecting, `sync` and a periodic sweep check again. Each attempt names the
version it was computed for, so a duplicate trigger is refused as stale and does nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.core.actions import normalise_action
from games.engine import IllegalAction, get_rules
from lobby import realtime, selectors
from lobby.errors import LobbyError, RoomNotFoundError
from lobby.models import Match, Room, Seat
from lobby.runtime import runtime
from lobby.services import action_submit, connection_close, connections_reassert, events, rooms_expire

logger = logging.getLogger(__name__)

STANDIN_LEVEL = "hard"

@dataclass(frozen=True, slots=True)
class Due:
    at: datetime
    actor: str
    level: str


def bot_seed(master: bytes, version: int) -> bytes:
    """The seed of the AI decision at `version`: reproducible from the match's master seed."""
    return hmac.new(master, f"ai:{version}".encode("ascii"), hashlib.sha256).digest()


def action_choose(game: str, level: str, seed: bytes, view: dict[str, Any]) -> dict[str, Any]:
    """The AI's action for `view`; a seeded uniform choice of the legal actions where the
    AI package is missing or fails, so a table never stalls on a bot."""
    try:
        from games.ai import make_bot

        action: dict[str, Any] = make_bot(game, level, seed=seed).choose(view)
        return action
    except ImportError:
        pass
    except Exception:
        logger.exception("the %s %s AI failed; playing a random legal action", level, game)
    return dict(random.Random(seed).choice(view["legal"]))


def move_due(room: Room, seat: Seat, match: Match) -> Due | None:
    """When and by whom the seat to move is played for, or None: a human who is here."""
    pause = timedelta(seconds=settings.AI_MOVE_DELAY)
    if seat.ai_level:
        return Due(match.moved_at + pause, "ai", seat.ai_level)
    candidates = []
    deadline = selectors.standin_deadline(room, seat)
    if deadline is not None:
        candidates.append(Due(max(deadline, match.moved_at + pause), "standin", STANDIN_LEVEL))
    if room.turn_seconds:
        candidates.append(Due(match.moved_at + timedelta(seconds=room.turn_seconds), "timer", STANDIN_LEVEL))
    return min(candidates, key=lambda d: d.at) if candidates else None


def _due_now(code: str) -> tuple[Room, Match, Seat, Due] | None:
    try:
        room = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return None
    match = selectors.match_current(room)
    if match is None or match.is_over or match.to_move is None:
        return None
    seats = list(room.seats.all())
    if selectors.table_paused(seats, timezone.now()):
        return None
    seat = next(s for s in seats if s.index == match.to_move)
    due = move_due(room, seat, match)
    return None if due is None else (room, match, seat, due)


def room_check(code: str) -> None:
    """Schedule the move that is due in this room, once per version in this process."""
    found = _due_now(code)
    if found is not None:
        room, match, _seat, due = found
        _schedule(room.code, match, due)


def due_schedule(room: Room, match: Match, seat: Seat | None) -> None:
    """Schedule what is due for `seat`, the seat to move, from rows the caller holds."""
    due = None if seat is None or match.is_over else move_due(room, seat, match)
    if due is not None:
        _schedule(room.code, match, due)


def _schedule(code: str, match: Match, due: Due) -> None:
    key = (code, match.number, match.version, due.actor)
    if not runtime().scheduled.take(key):
        return
    delay = (due.at - timezone.now()).total_seconds()
    runtime().background().call_later(delay, _turn, key)


def _on_match_moved(sender: object, *, room: Room, match: Match, mover: Seat | None, **_: Any) -> None:
    due_schedule(room, match, mover)


def _on_seat_left(sender: object, *, code: str, deadlines: list[float], **_: Any) -> None:
    room_check(code)
    for delay in deadlines:
        room_check_at(code, delay)


def receivers_connect() -> None:
    """Schedule what is due after the services' commits (`services.events`); once, when
    the app is ready."""
    events.match_moved.connect(_on_match_moved, dispatch_uid="lobby-bots-match-moved")
    events.seat_left.connect(_on_seat_left, dispatch_uid="lobby-bots-seat-left")


def room_check_at(code: str, delay: float) -> None:
    """At a deadline (a grace period running out): tell the table, then check the room."""
    runtime().background().call_later(delay + 0.05, _deadline_passed, code)


def _deadline_passed(code: str) -> None:
    try:
        realtime.room_publish(code, selectors.room_info(selectors.room_get_by_code(code)))
    except RoomNotFoundError:
        return
    room_check(code)


def _turn(key: tuple[str, int, int, str]) -> None:
    runtime().scheduled.release(key)
    code, number, version, _actor = key
    found = _due_now(code)
    if found is None:
        return
    room, match, seat, due = found
    if match.number != number or match.version != version:
        return
    if due.at > timezone.now() + timedelta(milliseconds=20):
        room_check(code)
        return
    _play(room, match, seat.index, due)


def _play(room: Room, match: Match, seat: int, due: Due) -> None:
    rules = get_rules(match.game)
    view = rules.view(selectors.match_state(match), seat)
    action = action_choose(match.game, due.level, bot_seed(bytes(match.seed), match.version), view)
    try:
        legal = normalise_action(action) in view["legal"]
    except IllegalAction:
        legal = False
    if not legal:
        logger.error(
            "the %s AI chose %r in room %s; playing its first legal action", due.level, action, room.code
        )
        action = view["legal"][0]
    try:
        action_submit(room.code, seat, action, expected_version=match.version, actor=due.actor)
    except (LobbyError, IllegalAction) as exc:
        logger.debug("AI move in room %s not needed: %s", room.code, exc)  # someone moved first


def sweeper_ensure() -> None:
    """Start this process's periodic sweep once (LOBBY_SWEEP_SECONDS = 0 turns it off)."""
    runtime().sweeper_ensure(sweep_round)


#: Seconds between two runs of the room expiry in one process.
EXPIRE_EVERY = 3600.0


def sweep_round(expire: bool | None = None) -> None:
    """One round of the periodic sweep: vouch for this process's sockets, close the seat
    sockets of processes gone, bind again what this process holds, find due moves, and
    (`expire`; by default on the first round and then hourly) delete idle rooms and the
    rows of processes long gone. Each step is logged and skipped on failure, so one fault
    never stops the others."""
    process = runtime()
    steps: list[Callable[[], object]] = [
        process.presence.renew,
        sockets_reconcile,
        lambda: connections_reassert(process.presence.held_seats()),
        sweep,
    ]
    if expire or (expire is None and process.expiry_due(EXPIRE_EVERY)):
        steps += [rooms_expire, process.presence.processes_forget]
    for step in steps:
        try:
            step()
        except Exception:
            logger.exception("a sweep step failed")
        finally:
            close_old_connections()


def sockets_reconcile() -> int:
    """Close, as disconnected, the seat sockets no live process holds; returns how many."""
    held = list(Seat.objects.exclude(channel="").values_list("room__code", "channel", "process"))
    dead = set(runtime().presence.channels_dead([(channel, process) for _code, channel, process in held]))
    for code, channel, _process in held:
        if channel in dead:
            connection_close(code, channel)
    return len(dead)


def sweep() -> int:
    """Check every room where a move may be due: the seat to move is an AI or a human with
    no socket, or a turn timer runs, and the match is not paused. Returns how many rooms
    were checked."""
    now = timezone.now()
    recent = now - timedelta(days=2)
    mover = Seat.objects.filter(room=OuterRef("room"), index=OuterRef("to_move")).filter(
        ~Q(ai_level="") | (Q(channel="") & ~Q(token_hash=""))
    )
    matches = Match.objects.filter(to_move__isnull=False, moved_at__gte=recent).filter(
        Exists(mover) | Q(room__turn_seconds__isnull=False)
    )
    if settings.LOBBY_PAUSE_SECONDS > 0:
        # `selectors.pause_at` in SQL: a human connected, or one who left too lately.
        humans = Seat.objects.filter(room=OuterRef("room")).exclude(token_hash="")
        left_after = now - timedelta(seconds=settings.LOBBY_PAUSE_SECONDS)
        here = humans.filter(
            ~Q(channel="") | Q(disconnected_at__isnull=True) | Q(disconnected_at__gt=left_after)
        )
        matches = matches.filter(Exists(here) | ~Exists(humans))
    codes = list(matches.values_list("room__code", flat=True))
    for code in codes:
        room_check(code)
    return len(codes)
