"""The record of a match: each finished hand's revealed seed and its actions in order.

Anyone with the room link may read it, so it holds only what the table has already
revealed: a hand enters the record once it is over (its seed is published at its end), and
the hand being played never does, not even its first actions. An independent referee deals
each hand from its seed with the published shuffle and replays the actions through the
rules; the hands in order rebuild the match (docs/protocol.md, "Match records").
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext_noop

from games.core.fairness import commitment
from games.engine import get_rules
from games.replay import finished_hands, hand_positions
from lobby import selectors
from lobby.errors import RoomNotFoundError
from lobby.models import ActionRecord, Match, Room


class MatchNotFoundError(RoomNotFoundError):
    """No match of that number in the room (the same 404 as an unknown room)."""


def match_get(code: str, number: int) -> tuple[Room, Match]:
    room = selectors.room_get_by_code(code)
    match = room.matches.filter(number=number).first()
    if match is None:
        raise MatchNotFoundError(gettext_noop("this room has no match %(number)s"), {"number": number})
    return room, match


def match_hands(match: Match) -> tuple[list[dict[str, Any]], Any]:
    """Every finished hand of the match as `{"seed", "commitment", "actions"}`, and the
    state at the match's version. Replayed from the master seed through the checked
    `apply`, so a record is exactly what the server played."""
    rules = get_rules(match.game)
    start = rules.new_match(match.players, match.options, seed=bytes(match.seed))
    played = ActionRecord.objects.filter(match=match, seq__lte=match.version).order_by("seq")
    cut, state = finished_hands(rules, start, list(played.values_list("seat", "action")))
    hands: list[dict[str, Any]] = [{"actions": hand.actions} for hand in cut]
    revealed = rules.view(state, None).get("revealed", [])
    for number, hand in enumerate(hands):
        seed = revealed[number]
        hand["seed"] = seed
        hand["commitment"] = commitment(bytes.fromhex(seed))
    return hands, state


def match_record(code: str, number: int) -> dict[str, Any]:
    """The public record of match `number` (0-based) of the room, kept in the cache by the
    match's version: replaying a long match costs tens of milliseconds, and anyone with the
    link may ask as often as they like."""
    room, match = match_get(code, number)
    key = f"record:{room.code}:{match.number}:{match.version}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        found = _record_build(room, match)
        cache.set(key, found, timeout=3600)
    return found


def _record_build(room: Room, match: Match) -> dict[str, Any]:
    hands, state = match_hands(match)
    seats = match.seats or [
        {"name": seat.name, "ai": seat.ai_level or None} for seat in room.seats.order_by("index")
    ]
    return {
        "code": room.code,
        "number": match.number,
        "game": match.game,
        "players": match.players,
        "options": get_rules(match.game).view(state, None).get("options", match.options),
        "seats": seats,
        "hands": [{"seed": h["seed"], "commitment": h["commitment"], "actions": h["actions"]} for h in hands],
        "result": match.result if match.is_over else None,
    }


class HandNotFoundError(RoomNotFoundError):
    """No finished hand of that number in the match (the hand being played included)."""


def hand_positions_get(code: str, number: int, hand: int) -> dict[str, Any]:
    """Every position of finished hand `hand` of match `number`, every hand face up (the
    replay page). Only a hand of the record is replayed, so the hand being played is never
    shown. A finished hand never changes: kept in the cache by match and hand, and built
    from the record (itself cached by the match's version)."""
    record = match_record(code, number)
    if not 0 <= hand < len(record["hands"]):
        raise HandNotFoundError(gettext_noop("match %(number)s has no finished hand %(hand)s"),
                                {"number": number, "hand": hand})
    room, match = match_get(code, number)
    key = f"positions:{room.code}:{match.pk}:{hand}:{record['hands'][hand]['seed']}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        found = _positions_build(match, record, hand)
        cache.set(key, found, timeout=3600)
    return found


def _positions_build(match: Match, record: dict[str, Any], hand: int) -> dict[str, Any]:
    rules = get_rules(match.game)
    state = rules.new_match(match.players, match.options, seed=bytes(match.seed))
    for earlier in record["hands"][:hand]:
        for _seat, action in earlier["actions"]:
            state = rules.apply(state, action)
    played = record["hands"][hand]
    replayed = hand_positions(rules, state, played["actions"])
    return {
        "code": record["code"],
        "number": record["number"],
        "hand": hand,
        "hands": len(record["hands"]),
        "game": record["game"],
        "players": record["players"],
        "seats": record["seats"],
        "seed": played["seed"],
        "commitment": played["commitment"],
        **replayed,
    }
