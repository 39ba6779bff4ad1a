"""Every write: rooms, seats, matches and actions, each in one transaction.

The room's row is locked (`select_for_update`; SQLite serialises IMMEDIATE transactions)
for every write, so a room has exactly one writer at a time across any number of server
processes. Publishing, caching and AI scheduling happen after the commit, so nothing
outside the database ever sees a change that could still roll back.
"""

from lobby.services.common import (
    AI_LEVELS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME_MAX_LENGTH,
    name_clean,
    options_resolve,
)
from lobby.services.expiry import rooms_expire
from lobby.services.matches import Ack, action_submit, match_start
from lobby.services.rooms import CODE_ALPHABET, CODE_LENGTH, code_new, room_create, room_update
from lobby.services.seats import (
    connection_close,
    connection_open,
    connections_reassert,
    seat_ai_set,
    seat_claim,
    seat_clear,
    seat_move,
)

__all__ = [
    "AI_LEVELS",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME_MAX_LENGTH",
    "Ack",
    "action_submit",
    "code_new",
    "connection_close",
    "connection_open",
    "connections_reassert",
    "match_start",
    "name_clean",
    "options_resolve",
    "room_create",
    "room_update",
    "rooms_expire",
    "seat_ai_set",
    "seat_claim",
    "seat_clear",
    "seat_move",
]
