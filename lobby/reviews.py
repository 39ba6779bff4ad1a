"""Reviews of finished hands: for each decision of a seat with a choice, the Hard AI's move
from that seat's view then, what the move played cost by Hard's estimate, and why
(`games.ai.advice.review_hand`; docs/protocol.md, "Reviews").

A hand is reviewed once it is over: when a move ends a hand, the hand is queued for every
human seat of the match, and asking for a seat's review queues what is missing (an AI's
seat, a hand a restarted process never got to). A process runs one review job at a time, on
a thread of its own: the reviews someone asked for first, the hands queued as they ended in
a quiet moment of the process. The search itself runs in a worker process, so the event
loop, the bots and the players' actions never wait for a review (nor share its interpreter
lock), at the idle scheduling policy (`lobby/review_worker.py`), so a review takes only
processor time the server does not want. Each reviewed hand is kept in the database
(`Review`), once for all processes, with the facts each sentence of why is made from: the
sentence is worded when the review is read, in the reader's language.
"""

from __future__ import annotations

import concurrent.futures
import heapq
import itertools
import logging
import multiprocessing
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connections
from django.utils.translation import gettext_noop

from games.ai.advice import HandToReview, review_hand
from lobby import match_records, review_worker, selectors, wording
from lobby.errors import RoomNotFoundError, UnauthorizedError
from lobby.models import ActionRecord, Match, Review
from lobby.runtime import runtime
from lobby.services import events

logger = logging.getLogger(__name__)

class Computing(Exception):
    """The review is being worked out: ask again (202)."""


#: Queue order: a review someone asked for (a person is waiting) before hands queued as they ended.
ASKED, AFTER_HAND = 0, 1
#: A hand queued as it ended starts only once this process has used at most this share of one
#: core over `QUIET_SECONDS`: a few family tables cost the server a percent or two of a core,
#: a server carrying a load is well above it. Busy, it waits for a quiet moment (the search
#: itself runs elsewhere at the idle policy, but it still shares the machine's caches and
#: memory with the server: measured in docs/benchmarks.md, "Play while reviews run").
BUSY_SHARE = 0.1
#: How many matches' finished-hand counts a process keeps (`Reviews.seen`). A match that ends
#: in another process leaves its count here; the oldest go, and a match whose count went is
#: only asked again for its finished hands, which the jobs skip as already reviewed.
SEEN_MATCHES = 2048
QUIET_SECONDS = 0.5
Key = tuple[int, int, int]  # match id, seat, hand


class Reviews:
    """This process's review queue: one job at a time on a thread of its own, each searched in
    one worker process; the reviews someone asked for go first."""

    def __init__(self) -> None:
        self._worker: concurrent.futures.ProcessPoolExecutor | None = None
        #: Jobs by (priority, arrival, key); an entry whose priority its key no longer has
        #: (asked for since it was queued) is skipped.
        self._heap: list[tuple[int, int, Key]] = []
        self._arrivals = itertools.count()
        #: Each queued or running job's priority.
        self._pending: dict[Key, int] = {}
        self._running: Key | None = None
        self._closing = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        #: Finished hands seen per match in this process (the moves' signal), least recently
        #: moved first; at most `SEEN_MATCHES`.
        self.seen: dict[int, int] = {}
        self._seen_lock = threading.Lock()

    def saw(self, match_id: int, hands: int | None) -> int | None:
        """Record `hands` finished hands of a match (None: it is over, forget it); the count
        recorded before, if any."""
        with self._seen_lock:
            before = self.seen.pop(match_id, None)
            if hands is not None:
                self.seen[match_id] = hands
                while len(self.seen) > SEEN_MATCHES:
                    del self.seen[next(iter(self.seen))]
        return before

    def want(self, match_id: int, seat: int, hands: list[int], *, asked: bool = False) -> None:
        """Queue the review of these hands of `seat`, unless queued already.

        Hands queued as they end wait only while fewer than `LOBBY_REVIEW_BACKLOG` jobs do:
        on a server busier than its one review job can follow, the queue would otherwise grow
        for as long as the load lasts. A hand left out is reviewed when someone asks for it
        (`asked`: always queued, and ahead of every hand queued as it ended, so the person
        asking waits for their own review only), so the cap costs that person a wait, never a
        review."""
        priority = ASKED if asked else AFTER_HAND
        with self._changed:
            if self._closing:
                return
            fresh = [h for h in hands if self._pending.get((match_id, seat, h), AFTER_HAND + 1) > priority
                     and (match_id, seat, h) != self._running]
            if not asked:
                fresh = fresh[:max(0, settings.LOBBY_REVIEW_BACKLOG - len(self._pending))]
            was_empty = not self._heap
            for hand in fresh:
                key = (match_id, seat, hand)
                self._pending[key] = priority
                heapq.heappush(self._heap, (priority, next(self._arrivals), key))
            if fresh and self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="lobby-review", daemon=True)
                self._thread.start()
            if fresh and (asked or was_empty):
                self._changed.notify_all()  # not for each hand that ends: it would cut the quiet wait short

    def _serve(self) -> None:
        while True:
            with self._changed:
                while not self._closing and not self._heap:
                    self._changed.wait()
                if self._closing:
                    return
                if self._heap[0][0] == AFTER_HAND and self._busy():
                    continue
                priority, _, key = heapq.heappop(self._heap)
                if self._pending.get(key) != priority:
                    continue  # asked for since: its earlier entry went first
                self._running = key
            try:
                self._job(*key)
            finally:
                with self._changed:
                    self._pending.pop(key, None)
                    self._running = None
                    self._changed.notify_all()

    def _busy(self) -> bool:
        """Whether this process is too busy for a hand queued as it ended, measured over the
        next `QUIET_SECONDS` (its CPU time, every thread's, against the wall clock). Called
        with the lock held; the wait releases it, and a review someone asks for meanwhile
        ends the wait and goes first."""
        wall, cpu = time.monotonic(), time.process_time()
        self._changed.wait(QUIET_SECONDS)
        if self._closing or self._heap[0][0] == ASKED:
            return True  # look again: that one goes first
        spent = time.monotonic() - wall
        return spent < QUIET_SECONDS / 2 or (time.process_time() - cpu) > BUSY_SHARE * spent

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
        with self._changed:
            return self._changed.wait_for(lambda: not self._pending, timeout)

    def shutdown(self) -> None:
        """Drop what is queued, let the running job end, and stop the worker."""
        with self._changed:
            self._closing = True
            self._heap.clear()
            self._pending = {k: p for k, p in self._pending.items() if k == self._running}
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join()
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
    """Every reviewed decision of `seat` in the finished hands of match `number`, in order,
    each `why` in the active language (the request's).

    Seat `seat`'s token may ask at any time, anyone once the match is over; otherwise
    `UnauthorizedError` (the API answers 403 to another seat's token, 401 without one). An
    unknown match or seat is `RoomNotFoundError`; `Computing` while a hand is still being
    reviewed (its job is queued)."""
    room, match = match_records.match_get(code, number)
    if not 0 <= seat < match.players:
        raise RoomNotFoundError(gettext_noop("match %(number)s has no seat %(seat)s"),
                                {"number": number, "seat": seat})
    if not match.is_over:
        holder = selectors.seat_for_token(room, token)
        if holder is None or holder.index != seat:
            raise UnauthorizedError(
                gettext_noop("before the match is over, only that seat's own token sees its review"))
    finished = len(match_records.match_record(code, number)["hands"])
    rows = {r.hand: r.items for r in Review.objects.filter(match=match, seat=seat, hand__lt=finished)}
    missing = [h for h in range(finished) if h not in rows]
    if missing:
        reviews().want(match.pk, seat, missing, asked=True)
        raise Computing
    names = [str(s.get("name") or "") for s in match.seats or ()]
    return [item_worded(item, names) for hand in range(finished) for item in rows[hand]]


def item_worded(item: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A stored review decision as the API gives it: `why` worded from its facts in the active
    language, the facts left out. A decision kept before its facts were (`why` alone, in
    English) is given as kept."""
    out = {key: value for key, value in item.items() if key != "facts"}
    facts = item.get("facts")
    if isinstance(facts, dict):
        try:
            out["why"] = wording.advice_why(facts, str(item.get("unit") or "points"), names)
        except (KeyError, TypeError, ValueError, IndexError):
            logger.exception("could not word a review decision from its facts")
    return out


def _on_match_moved(sender: object, *, match: Match, hands: int | None = None, **_: Any) -> None:
    """A move that ends a hand queues that hand's review for every human seat."""
    if hands is None or not settings.LOBBY_REVIEW_AFTER_HAND:
        return
    queue = reviews()
    seen = queue.saw(match.pk, None if match.is_over else hands)
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
