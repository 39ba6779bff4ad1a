"""Reviews of finished hands: for each decision of a seat with a choice, the Hard AI's move
from that seat's view then, what the move played cost by Hard's estimate, and why
(`games.ai.advice.review_hand`; docs/protocol.md, "Reviews").

A hand is reviewed once it is over: when a move ends a hand, the hand is queued for every
human seat of the match, and asking for a seat's review queues what is missing (an AI's
seat, a hand a restarted process never got to). A process runs one review job at a time, on
a thread of its own, and the search itself in a worker process of low priority, so the event
loop, the bots and the players' actions never wait for a review (nor share its interpreter
lock), and at the idle scheduling policy (`lobby/review_worker.py`), so a review takes only
processor time the server does not want. Each reviewed hand is kept in the database
(`Review`), once for all processes.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connections

from games.ai.advice import HandToReview, review_hand
from lobby import match_records, review_worker, selectors
from lobby.errors import RoomNotFoundError, UnauthorizedError
from lobby.models import ActionRecord, Match, Review
from lobby.runtime import runtime
from lobby.services import events

logger = logging.getLogger(__name__)

class Computing(Exception):
    """The review is being worked out: ask again (202)."""


class Reviews:
    """This process's review queue: one job at a time, each searched in one worker process."""

    def __init__(self) -> None:
        self.thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="lobby-review")
        self._worker: concurrent.futures.ProcessPoolExecutor | None = None
        self._pending: set[tuple[int, int, int]] = set()
        self._lock = threading.Lock()
        #: Finished hands seen per match in this process (the moves' signal).
        self.seen: dict[int, int] = {}

    def want(self, match_id: int, seat: int, hands: list[int], *, asked: bool = False) -> None:
        """Queue the review of these hands of `seat`, unless queued already.

        Hands queued as they end wait only while fewer than `LOBBY_REVIEW_BACKLOG` jobs do:
        on a server busier than its one review job can follow, the queue would otherwise grow
        for as long as the load lasts. A hand left out is reviewed when someone asks for it
        (`asked`, always queued), so the cap costs that person a wait, never a review."""
        with self._lock:
            fresh = [h for h in hands if (match_id, seat, h) not in self._pending]
            if not asked:
                fresh = fresh[:max(0, settings.LOBBY_REVIEW_BACKLOG - len(self._pending))]
            self._pending.update((match_id, seat, h) for h in fresh)
        for hand in fresh:
            self.thread.submit(self._job, match_id, seat, hand)

    def _job(self, match_id: int, seat: int, hand: int) -> None:
        close_old_connections()
        try:
            if not Review.objects.filter(match_id=match_id, seat=seat, hand=hand).exists():
                job = hand_job(match_id, seat, hand)
                items = self.worker().submit(review_hand, job).result()
                Review.objects.create(match_id=match_id, seat=seat, hand=hand, items=items)
        except IntegrityError:
            pass  # another process kept the same review first
        except BrokenProcessPool:
            logger.exception("the review worker stopped; the next job starts another")
            self._worker = None
        except Exception:
            logger.exception("the review of seat %s, hand %s of match %s failed", seat, hand, match_id)
        finally:
            with self._lock:
                self._pending.discard((match_id, seat, hand))
            connections.close_all()  # jobs are rare: no connection kept between them

    def worker(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._worker is None:
            self._worker = concurrent.futures.ProcessPoolExecutor(
                # Spawned, not forked (this process runs threads), and told only of games/:
                # the worker imports no Django.
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=review_worker.setup,
            )
        return self._worker

    def wait_idle(self, timeout: float) -> bool:
        """Whether every queued job finished within `timeout` seconds (tests)."""
        done = self.thread.submit(lambda: None)
        try:
            done.result(timeout)
        except concurrent.futures.TimeoutError:
            return False
        return True

    def shutdown(self) -> None:
        self.thread.shutdown(wait=True, cancel_futures=True)
        if self._worker is not None:
            self._worker.shutdown(wait=True, cancel_futures=True)


def hand_job(match_id: int, seat: int, hand: int) -> HandToReview:
    """What `review_hand` needs of finished hand `hand`: the match's rows as stored. The
    worker replays them; this process, which serves play, only reads."""
    match = Match.objects.get(pk=match_id)
    played = ActionRecord.objects.filter(match=match, seq__lte=match.version).order_by("seq")
    names = [str(s.get("name") or "") for s in match.seats or ()]
    return HandToReview(match.game, match.players, match.options, bytes(match.seed),
                        [list(pair) for pair in played.values_list("seat", "action")], seat, hand, names)


def review_get(code: str, number: int, seat: int, token: str | None) -> list[dict[str, Any]]:
    """Every reviewed decision of `seat` in the finished hands of match `number`, in order.

    Seat `seat`'s token may ask at any time, anyone once the match is over; otherwise
    `UnauthorizedError` (the API answers 403 to another seat's token, 401 without one). An
    unknown match or seat is `RoomNotFoundError`; `Computing` while a hand is still being
    reviewed (its job is queued)."""
    room, match = match_records.match_get(code, number)
    if not 0 <= seat < match.players:
        raise RoomNotFoundError(f"match {number} has no seat {seat}")
    if not match.is_over:
        holder = selectors.seat_for_token(room, token)
        if holder is None or holder.index != seat:
            raise UnauthorizedError("before the match is over, only that seat's own token sees its review")
    finished = len(match_records.match_record(code, number)["hands"])
    rows = {r.hand: r.items for r in Review.objects.filter(match=match, seat=seat, hand__lt=finished)}
    missing = [h for h in range(finished) if h not in rows]
    if missing:
        reviews().want(match.pk, seat, missing, asked=True)
        raise Computing
    return [item for hand in range(finished) for item in rows[hand]]


def _on_match_moved(sender: object, *, match: Match, hands: int | None = None, **_: Any) -> None:
    """A move that ends a hand queues that hand's review for every human seat."""
    if hands is None or not settings.LOBBY_REVIEW_AFTER_HAND:
        return
    queue = reviews()
    seen = queue.seen.pop(match.pk, None)
    if not match.is_over:
        queue.seen[match.pk] = hands
    if hands <= (seen or 0):
        return
    # First seen here (another process dealt it, or this one restarted): every finished
    # hand, of which the jobs skip those already kept.
    for seat, who in enumerate(match.seats or ()):
        if not who.get("ai"):
            queue.want(match.pk, seat, list(range(seen or 0, hands)))


def receivers_connect() -> None:
    """Queue reviews as hands end (`services.events`); once, when the app is ready."""
    events.match_moved.connect(_on_match_moved, dispatch_uid="lobby-reviews-match-moved")


def reviews() -> Reviews:
    """The process's review queue, a part of its runtime started on first use."""
    return runtime().part(Reviews)
