"""Rooms nobody has used for `LOBBY_ROOM_IDLE_DAYS` are deleted, with their seats, matches
and action logs: links are shared once, for an evening, and a server that kept every room
forever would grow without end. The sweep runs it hourly (`bots.sweep_round`, and
`manage.py lobby_sweep`).

Idle means: no change to the room (`Room.active_at`: seats, connections, options,
starts), no move in any of its matches (`Match.moved_at`), and no socket holding a seat
now. Each room is deleted in its own transaction with its row locked, and checked again
under the lock, so a player joining at that moment either comes first (the room stays)
or finds no room (a 404, a 4404 close).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime, timedelta

import redis
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from lobby.models import Match, Room, Seat
from lobby.runtime import runtime

logger = logging.getLogger(__name__)

#: Rooms listed per query; each is deleted in a transaction of its own.
BATCH = 100


def rooms_idle(now: datetime) -> QuerySet[Room]:
    """The rooms idle since before `now - LOBBY_ROOM_IDLE_DAYS`."""
    cutoff = now - timedelta(days=settings.LOBBY_ROOM_IDLE_DAYS)
    moved = Match.objects.filter(room=OuterRef("pk"), moved_at__gte=cutoff)
    held = Seat.objects.filter(room=OuterRef("pk")).exclude(channel="")
    return Room.objects.filter(active_at__lt=cutoff).exclude(Exists(moved)).exclude(Exists(held))


def rooms_expire() -> int:
    """Delete every idle room (none when `LOBBY_ROOM_IDLE_DAYS` is 0); returns how many."""
    if settings.LOBBY_ROOM_IDLE_DAYS <= 0:
        return 0
    deleted = 0
    while True:
        codes = list(rooms_idle(timezone.now()).values_list("code", flat=True)[:BATCH])
        gone = sum(_room_expire(code) for code in codes)
        deleted += gone
        if len(codes) < BATCH or not gone:
            break
    if deleted:
        logger.info("deleted %d idle rooms", deleted)
    return deleted


def _room_expire(code: str) -> int:
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None or not rooms_idle(timezone.now()).filter(pk=room.pk).exists():
            return 0
        numbers = list(room.matches.values_list("number", flat=True))
        room.delete()  # its seats, matches and action records with it (CASCADE)
    for number in numbers:
        # The cached states expire by themselves (LOBBY_STATE_TTL): a Redis away now
        # only leaves them a little longer.
        with contextlib.suppress(redis.RedisError):
            runtime().states.forget(code, number)
    return 1
