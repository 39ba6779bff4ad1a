"""Matches: dealing one, and every action played in it."""

from __future__ import annotations

import copy
import json
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.core.actions import normalise_action
from games.engine import IllegalAction, get_rules
from lobby import realtime, selectors, state_cache
from lobby.background import background
from lobby.errors import ConflictError, IdReusedError, NotYourTurnError, StaleVersionError
from lobby.models import Match, Room, Seat
from lobby.services import action_rows
from lobby.services.common import host_verify, room_changed, room_info_send, room_locked
from lobby.services.held_rows import held_get, held_put


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
            raise ConflictError("a match is being played: wait until it is over")
        if rematch and previous is None:
            raise ConflictError("no match has been played in this room yet: start one")
        free = [s.index for s in seats if s.is_free]
        if free:
            raise ConflictError(f"seat {free[0]} is free: fill every seat (a player or an AI) first")
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
        state = rules.new_match(room.players, room.options, seed=seed)
        match = Match.objects.create(
            room=room,
            number=0 if previous is None else previous.number + 1,
            game=room.game,
            players=room.players,
            options=room.options,
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
    """
    if action_rows.prepared_path():
        ack = _submit_held(
            code, seat, action, client_id=client_id, expected_version=expected_version, actor=actor
        )
        if ack is not None:
            return ack
    with action_rows.locked(code, seat, client_id) as rows:
        room, match = rows.room, rows.match
        if match is None:
            raise ConflictError("the match has not started yet")
        seen = getattr(match, "seen_seq", None)
        if seen is not None:
            if not _same_action(getattr(match, "seen_action", None), action):
                raise IdReusedError(
                    f"the id {client_id!r} was already used for another action: send a fresh id"
                )
            return Ack(seen, duplicate=True)
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
        match.to_move = rules.to_move(state)
        match.result = rules.result(state)
        rows.append(match, seat, canonical, client_id=client_id, actor=actor, now=timezone.now())
        # The room info shows the match's end, and with a turn timer each deadline.
        room_shown = match.is_over or bool(room.turn_seconds)
        if room_shown:
            rows.room_revised()
    # Committed: what follows reads and publishes, as an `on_commit` would.
    due_possible = bool(getattr(match, "ai_may_play", True)) or bool(room.turn_seconds)
    _state_changed(room, match, state, due_possible)
    if room_shown:
        room_info_send(room, match)
    return Ack(match.version, duplicate=False)


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


def _submit_held(
    code: str, seat: int, action: object, *, client_id: str, expected_version: int | None, actor: str
) -> Ack | None:
    """The action checked and applied against the rows and state this process holds, and
    written in one round trip if the stored match is still at their version. None when
    the locked path must decide: nothing held, anything refused (the held state may be
    behind), the match or a turn timer to be shown, or the match moved on."""
    held = held_get(code)
    if held is None:
        return None
    room, match = held
    state = state_cache.memo_get(code, match.number, match.version)
    if (
        state is None
        or match.is_over
        or match.to_move != seat
        or room.turn_seconds
        or (expected_version is not None and expected_version != match.version)
    ):
        return None
    rules = get_rules(match.game)
    try:
        canonical = normalise_action(action)
        state = rules.apply(state, canonical)
    except IllegalAction:
        return None
    moved = copy.copy(match)
    moved.version += 1
    moved.to_move = rules.to_move(state)
    moved.result = rules.result(state)
    if moved.is_over:
        return None
    ai_may_play = action_rows.append_if_current(
        moved, seat, canonical, client_id=client_id, actor=actor, now=timezone.now()
    )
    if ai_may_play is None:
        return None
    _state_changed(room, moved, state, ai_may_play)
    return Ack(moved.version, duplicate=False)


def _state_changed(
    room: Room, match: Match, state: Any, due_possible: bool = True, seats: list[Seat] | None = None
) -> None:
    """After the commit: cache the state, send every seat its view, and wake the AI (the
    seat to move is read, unless the caller holds `seats`, only when `due_possible`: an AI
    or stand-in could play, or a timer)."""
    code, number, version, game, players = room.code, match.number, match.version, match.game, match.players
    over = match.is_over
    mover = None
    if match.to_move is not None and seats is not None:
        mover = next(s for s in seats if s.index == match.to_move)
    elif match.to_move is not None and due_possible:
        mover = room.seats.get(index=match.to_move)

    def after() -> None:
        from lobby import bots

        rules = get_rules(game)
        state_cache.memo_put(code, number, version, state)
        held_put(room, match)
        views: dict[int | None, dict[str, Any]] = {s: rules.view(state, s) for s in range(players)}
        views[None] = rules.view(state, None)
        realtime.views_publish(code, number, version, views)
        bots.due_schedule(room, match, mover)
        # Off the request's thread, and every few versions: the memo serves this process,
        # and another process replays the actions after the newest entry.
        if state_cache.dump_wanted(version, over):
            background().write(_dump_put, code, number, version, game, state)

    transaction.on_commit(after)


def _dump_put(code: str, number: int, version: int, game: str, state: Any) -> None:
    state_cache.dump_put(code, number, version, get_rules(game).dump(state))
