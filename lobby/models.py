"""Rooms, seats, matches and the append-only action log that every state is replayed from."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone


class Room(models.Model):
    """A table reached by its link `/r/<code>`; it outlives its matches (rematches)."""

    code = models.CharField(max_length=32, unique=True)
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    #: Engine options as the host gave them; the engine resolves defaults at each start.
    options = models.JSONField(default=dict)
    #: The same options with every default filled in by the engine, for the room page.
    resolved = models.JSONField(default=dict)
    host_seat = models.PositiveSmallIntegerField(default=0)
    grace_seconds = models.PositiveIntegerField(default=60)
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    #: Counts the changes the room info shows, under the room's lock: a socket is never
    #: sent a room frame older than one it already has.
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The room's last change (seats, connections, options, starts); its matches' moves are
    #: `Match.moved_at`. A room idle long enough is deleted (`services/expiry.py`).
    active_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.game} room {self.code}"


class Seat(models.Model):
    """A place at the table: a human holding a token, an AI, or free (empty name, no AI)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40, blank=True, default="")
    ai_level = models.CharField(max_length=16, blank=True, default="")
    #: sha256 of the seat token; the token itself is never stored.
    token_hash = models.CharField(max_length=64, blank=True, default="", db_index=True)
    #: The channel of the newest connection; a newer one takes over.
    channel = models.CharField(max_length=128, blank=True, default="")
    #: The name of the server process holding that connection (`ServerProcess`), empty when
    #: unknown: its sweeps vouch for the socket (`lobby/presence.py`).
    process = models.CharField(max_length=32, blank=True, default="")
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["room", "index"], name="seat_unique_index"),)
        ordering = ("index",)

    def __str__(self) -> str:
        return f"seat {self.index} of {self.room_id}"

    @property
    def is_free(self) -> bool:
        return not self.ai_level and not self.token_hash

    @property
    def is_human(self) -> bool:
        return bool(self.token_hash)

    @property
    def is_connected(self) -> bool:
        return bool(self.channel)


class Match(models.Model):
    """One match of a room. Its master seed and the action log replay every state exactly."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    #: Server side only: `rules.new_match(players, options, seed=seed)` starts the replay.
    seed = models.BinaryField(max_length=32)
    #: Who sat where when the match was dealt (`[{"name", "ai"}]` by seat), for its record:
    #: the seats may be rearranged before the next match.
    seats = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    to_move = models.SmallIntegerField(null=True, blank=True)
    moved_at = models.DateTimeField()
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["room", "number"], name="match_unique_number"),)
        ordering = ("number",)

    def __str__(self) -> str:
        return f"match {self.number} of {self.room_id}"

    @property
    def is_over(self) -> bool:
        return self.to_move is None


class ActionRecord(models.Model):
    """One accepted action. Append-only: rows are written once and never changed."""

    #: No index of its own: the unique (match, seq) index leads with the match and serves
    #: every lookup by match, so a second index only cost each append a write.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    #: The client's action id (per seat), so a resent action is acknowledged, not reapplied.
    client_id = models.CharField(max_length=64, blank=True, default="")
    #: Who chose it: "seat" (the human), "ai", "standin" (AI for an absent human), "timer".
    actor = models.CharField(max_length=16, default="seat")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "seq"], name="action_unique_seq"),
            models.UniqueConstraint(
                fields=["match", "seat", "client_id"],
                condition=~models.Q(client_id=""),
                name="action_unique_client_id",
            ),
        )
        ordering = ("seq",)

    def __str__(self) -> str:
        return f"action {self.seq} of {self.match_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the action log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("the action log is append-only")


class ServerProcess(models.Model):
    """A server process that holds sockets, and when it last vouched for them.

    Each sweep of the process stamps `beat_at` with the database's clock; the seats record
    the process of their socket (`Seat.process`). In the database, not Redis, so losing
    Redis' data never makes a connected player look gone (`lobby/presence.py`)."""

    name = models.CharField(max_length=32, unique=True)
    #: Host name and process id, for an operator reading the table.
    label = models.CharField(max_length=255, blank=True, default="")
    started_at = models.DateTimeField(auto_now_add=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"server process {self.name} ({self.label})"


class Review(models.Model):
    """The Hard AI's review of one seat's decisions in one finished hand of a match, worked
    out in the background once the hand is over (`lobby/reviews.py`); a finished hand never
    changes, so neither does its review."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews", db_index=False)
    seat = models.PositiveSmallIntegerField()
    hand = models.PositiveIntegerField()
    #: `[{"hand", "move", "played", "best", "loss", "why", "unit", "facts"}]`, in the order
    #: played: `why` in English, `facts` what it is worded from again in a reader's language
    #: (`reviews.item_worded`; items kept before `facts` was have `why` alone).
    items = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "seat", "hand"], name="review_unique_hand"),
        )

    def __str__(self) -> str:
        return f"review of seat {self.seat}, hand {self.hand} of {self.match_id}"
