"""RoomConsumer: one WebSocket at a table. It binds the seat when the socket connects, parses
frames, calls services and forwards what the room publishes. No rules logic lives here.

Nothing a socket reads can hold up an action: the database and Redis calls of sockets
without a seat, and every socket's snapshot (a connect, a `sync`), take at most
`gated_calls()` of the process's database threads at once (the rest wait on the event
loop, not in the threads' queue ahead of an action); a spectator's snapshot comes from the
room hub while a database read of the room is at most `SHARE_SECONDS` old; and an address
whose socket was closed for flooding is refused before any of that
(`FloodPenalties.penalized`). A crowd of spectators, a flood, or every seat of a slow table
asking for `sync` at once then delays reads, never the moves that would make them moot.

Each socket has a language, its page's (`lobby/languages.py`), chosen when it connects: every
text this consumer words for it (an error's `message`, a hint's `why`, a refusal) is worded
in that language, each frame handled under `translation.override`; two sockets of one room
in two languages each read their own.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from lobby import bots, hints, protocol, realtime, selectors, services, socket_caps
from lobby.client_address import socket_address
from lobby.errors import RateLimitedError, RoomNotFoundError, UnauthorizedError
from lobby.hub import Latest
from lobby.languages import language_of_scope
from lobby.runtime import runtime

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORIZED = 4401
CLOSE_REPLACED = 4000
CLOSE_KICKED = 4003
#: Kept sending past its rate limit: a client that floods is told once, then let go.
CLOSE_FLOODING = socket_caps.CLOSE_FLOODING
CLOSE_INTERNAL = 1011
ROOM_EVENTS = frozenset(
    {"lobby.views", "lobby.room", "lobby.chat", "lobby.replaced", "lobby.kicked", "lobby.reseated"}
)


class TokenBucket:
    """`rate` tokens a second up to `burst`: a per-connection flood guard."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: How old a database read of a room may be for a spectator's snapshot to come from the hub
#: instead: a spectator may see the room info up to this much older than the database (the
#: room's events since the read are in it), and a room costs the database one spectator
#: read per this many seconds however many spectators ask.
SHARE_SECONDS = 1.0
PONG = '{"type":"pong"}'


def _db(fn: Any) -> Any:
    """`fn` to be awaited on a database thread: many sockets' calls run in parallel, each
    thread with its own connection (`db_threads.py`)."""
    return functools.partial(runtime().db_threads().run, fn)


def gated_calls() -> int:
    """How many database-thread calls that are not a seat's own writes (spectators' calls,
    snapshots) may be under way at once: a third of the threads, so a crowd of them leaves
    the rest to the seated players' actions."""
    return max(1, int(settings.LOBBY_DB_THREADS) // 3)


def _snapshot(code: str, seat: int | None) -> tuple[dict[str, Any], int, int, dict[str, Any] | None]:
    """Room info, match number, version and this seat's view (None before the first match).

    Three queries (room, match, seats) and the view from the cached state; the seats read
    for the room info also tell whether a move is due, so a lost trigger is found again."""
    room, match, version, view = selectors.table_snapshot(code, seat)
    seats = list(room.seats.order_by("index"))
    if match is not None and match.to_move is not None:
        bots.due_schedule(room, match, next((s for s in seats if s.index == match.to_move), None))
    return selectors.room_info(room, match, seats), -1 if match is None else match.number, version, view


def _revision(room: dict[str, Any]) -> int:
    return int(room.get("revision", 0))


async def _gated(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn` on a database thread, once a place under the limit on gated calls is free."""
    async with runtime().read_gate(gated_calls()):
        return await _db(fn)(*args, **kwargs)


class RoomConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    #: No channel layer of its own: the room hub of the process delivers to every socket.
    channel_layer_alias = "sockets-take-nothing-from-the-layer"
    code: str = ""
    connection: str = ""
    joined: bool = False
    welcomed: bool = False
    seat: int | None = None
    name: str = ""
    #: (match number, version) of the newest state sent: never send an older one.
    sent: tuple[int, int] = (-1, -1)
    bound: bool = False
    #: While this connection's action or snapshot is under way, the newest frame that came
    #: meanwhile: it goes out after the ack or the snapshot, so versions never go back.
    holding: bool = False
    held: tuple[tuple[int, int], str] | None = None
    #: The newest room info sent (its revision), and one that came while holding.
    room_sent: int = -1
    held_room: dict[str, Any] | None = None
    accepted: bool = False
    #: This process keeps a presence key for the socket (seat sockets only).
    present: bool = False
    #: Set once the socket's places, presence and seat binding have been given back.
    released: bool = False
    #: The client's address (the caps and the flood penalty count it); a seat token came.
    address: str = socket_caps.UNKNOWN_ADDRESS
    seated: bool = False
    #: The socket holds places under the caps.
    claimed: bool = False
    #: The language this socket's texts are worded in (its page's), set as it connects.
    language: str = "en"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The consumer's whole life; whatever ends it (a close, an error that escaped, a
        cancellation by the server), the socket's seat, presence and places are given back,
        so no seat stays "connected" for a socket that is gone."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels 4.2+ hops to a thread to close stale database connections before every
        # message; this consumer does its database work explicitly in `_db` instead. Only
        # the socket's own messages come here; room events come from the hub.
        kind = str(message["type"])
        handler = getattr(self, kind.replace(".", "_"), None) if kind.startswith("websocket.") else None
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            # Frames answer their own errors (`websocket_receive`); this is a fault of the
            # connect itself (the database or Redis away): the client may retry (1011).
            logger.exception("a socket of room %s failed on %s", self.code, kind)
            with translation.override(self.language):
                said = gettext("the server could not open this table now: try again")
            await self._refuse("internal_error", said, CLOSE_INTERNAL)

    @classmethod
    async def encode_json(cls, content: dict[str, Any]) -> str:
        """Acks, errors and room frames in the encoding of the states (orjson, UTF-8)."""
        return realtime.frame_text(content)

    # Connection -------------------------------------------------------------------------
    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.language = language_of_scope(self.scope)
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.connection = f"conn.{uuid.uuid4().hex}"
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        if token:
            self.messages = TokenBucket(settings.LOBBY_MESSAGE_RATE, settings.LOBBY_MESSAGE_BURST)
        else:
            self.messages = TokenBucket(settings.LOBBY_SPECTATOR_RATE, settings.LOBBY_SPECTATOR_BURST)
        self.chats = TokenBucket(settings.LOBBY_CHAT_RATE, settings.LOBBY_CHAT_BURST)
        self.syncs = TokenBucket(settings.LOBBY_SYNC_RATE, settings.LOBBY_SYNC_BURST)
        self.strikes = TokenBucket(settings.LOBBY_FLOOD_RATE, settings.LOBBY_FLOOD_BURST)
        self.address = socket_address(self.scope, settings.NUM_PROXIES)
        self.seated = bool(token)
        refusal = runtime().penalties.penalized(self.address)
        if refusal is None:
            spectator_of = None if token else self.code
            refusal = await self._call(runtime().caps.claim, self.connection, self.address, spectator_of)
            self.claimed = refusal is None
        if refusal is not None:
            with translation.override(self.language):
                said = refusal.said()
            await self._refuse(refusal.error_code, said, refusal.close_code, reason=True)
            return
        if token:
            # Before the seat records this channel, so no sweep ever sees it without a key.
            self.present = True
            await _db(runtime().presence.add)(self.connection)
        try:
            if token or not self._shared_snapshot():
                seat = await self._call(services.connection_open, self.code, token, self.connection)
            else:
                seat = None  # the room was read moments ago: it is there
        except RoomNotFoundError:
            # Accepted, then closed with 4404: a browser sees the code and stops, where a
            # handshake refused (HTTP 403) looks like a network fault it retries forever.
            with translation.override(self.language):
                said = gettext("there is no room at this link")
            await self._refuse("not_found", said, CLOSE_NOT_FOUND)
            return
        except UnauthorizedError as exc:
            with translation.override(self.language):
                said = exc.said()
            await self._refuse("unauthorized", said, CLOSE_UNAUTHORIZED)
            return
        self.seat = None if seat is None else seat.index
        self.name = "" if seat is None else seat.name
        self.bound = True
        # Joined before the snapshot is read, so no later change is missed; what the hub
        # brings before the welcome is out waits (a state) or is superseded by the
        # snapshot's own room frame (room info).
        await runtime().hub().join(self.code, self)
        self.joined = True
        await self.accept()
        self.accepted = True
        bots.sweeper_ensure()
        await self.send_json(protocol.welcome_frame(self.seat, self.code))
        self.welcomed = True
        await self._send_snapshot(with_room=True)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        await self._release()
        raise StopConsumer()

    async def _refuse(self, code: str, message: str, close_code: int, *, reason: bool = False) -> None:
        """Accept (if not yet), say why in an `error` frame and close with `close_code`: a
        browser reads a close code, never why a handshake failed. With `reason`, the close
        frame says it too (a cap or a flood), where the server passes a reason on (daphne 4
        does not: the `error` frame is what says it there). The places, presence and seat
        binding this socket took are given back now."""
        with contextlib.suppress(Exception):
            if not self.accepted:
                self.accepted = True
                await self.accept()
            await self.send_json(protocol.error_frame(code, message))
            # A close frame's reason is at most 123 bytes of UTF-8.
            said = message.encode("utf-8", "replace")[:123].decode("utf-8", "ignore") if reason else None
            await self.close(code=close_code, reason=said)
        await self._release()

    async def _release(self) -> None:
        """Leave the hub, drop the presence key, unbind the seat (which starts its grace
        period) and give back the socket's places under the caps; once, each step on its
        own, so one failing never skips the others."""
        if self.released or not self.connection:
            return
        self.released = True
        if self.joined:
            self.joined = False
            try:
                await runtime().hub().leave(self.code, self)
            except Exception:
                logger.exception("could not leave the hub of room %s", self.code)
        steps: list[Any] = [runtime().presence.remove] if self.present else []
        if self.seat is not None and self.bound:
            steps.append(functools.partial(services.connection_close, self.code))
        if self.claimed:
            steps.append(runtime().caps.release)
        for step in steps:
            try:
                await self._call(step, self.connection)
            except Exception:
                logger.exception("could not record a disconnect in room %s", self.code)

    async def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """`fn` on a database thread; for a socket without a seat token, within the limit
        on gated calls under way."""
        if self.seated:
            return await _db(fn)(*args, **kwargs)
        return await _gated(fn, *args, **kwargs)

    def _shared_snapshot(self) -> Latest | None:
        """For a spectator, what the hub holds of the room when a database read confirmed
        it within `SHARE_SECONDS`."""
        if self.seat is not None:
            return None
        latest = runtime().hub().latest_of(self.code)
        return latest if latest is not None and latest.fresh(SHARE_SECONDS) else None

    async def _send_snapshot(self, with_room: bool) -> None:
        """The room and this seat's state now; a newer state arriving meanwhile follows it.
        A spectator's comes from the hub while a read of the room is recent; one read from
        the database is left with the hub for the next spectators."""
        async with self._holding():
            shared = self._shared_snapshot()
            if shared is not None and shared.room is not None:
                if with_room:
                    await self._room_forward(shared.room)
                if shared.frame is not None and shared.stamp >= self.sent:
                    self.sent = shared.stamp
                    await self.send(text_data=shared.frame)
                return
            read_at = time.monotonic()
            room_info, number, version, view = await _gated(_snapshot, self.code, self.seat)
            frame = None if view is None else realtime.frame_text(protocol.state_frame(version, view))
            if self.seat is None:
                stamp = None if view is None else (number, version)
                runtime().hub().snapshot_noted(self.code, read_at, room_info, stamp, frame)
            if with_room:
                await self._room_forward(room_info)
            if frame is not None and (number, version) >= self.sent:
                self.sent = (number, version)
                await self.send(text_data=frame)

    # Client frames ----------------------------------------------------------------------
    async def websocket_receive(self, message: dict[str, Any]) -> None:
        """Answer one frame, in this socket's language. Nothing a client sends can escape from
        here: every refusal and every fault becomes an `error` reply that names the frame's id
        when it had one."""
        if self.released:
            return  # closed by the server (a cap, a flood): frames still in flight are dropped
        with translation.override(self.language):
            await self._receive(message)

    async def _receive(self, message: dict[str, Any]) -> None:
        text = message.get("text")
        msg_id: str | None = None
        try:
            if not self.messages.take():
                msg_id = protocol.frame_id(text)
                raise RateLimitedError(gettext_noop("too many messages: slow down"))
            if text is None:
                raise protocol.InboundError(gettext_noop("frames are JSON text, not binary"))
            if len(text) > settings.LOBBY_MAX_FRAME:
                msg_id = protocol.frame_id(text)
                raise protocol.InboundError(gettext_noop("a frame is at most %(length)s characters"), None,
                                            {"length": settings.LOBBY_MAX_FRAME})
            inbound = protocol.parse_inbound(text, settings.LOBBY_CHAT_MAX_LENGTH)
            if isinstance(inbound, protocol.ActionMessage):
                msg_id = inbound.id
                await self._action(inbound)
            elif isinstance(inbound, protocol.SyncMessage):
                if not self.syncs.take():
                    raise RateLimitedError(
                        gettext_noop("too many sync requests: the table sends every change anyway"))
                await self._send_snapshot(with_room=True)
            elif isinstance(inbound, protocol.ChatMessage):
                await self._chat(inbound)
            elif isinstance(inbound, protocol.HintMessage):
                msg_id = inbound.id
                await self._hint(inbound)
            else:
                await self.send(text_data=PONG)
        except Exception as exc:
            if isinstance(exc, protocol.InboundError) and exc.id is not None:
                msg_id = exc.id
            code, text_out = protocol.error_of(exc)
            await self._reply_error(code, text_out, msg_id)
            if code == "rate_limited" and not self.strikes.take():
                said = gettext("this connection kept sending past its rate limit")
                runtime().penalties.penalize(self.address)
                await self._refuse("rate_limited", said, CLOSE_FLOODING, reason=True)

    async def _reply_error(self, code: str, message: str, msg_id: str | None) -> None:
        try:
            await self.send_json(protocol.error_frame(code, message, msg_id))
        except Exception:
            # The socket is closing, or the reply cannot be written: the frame is dropped,
            # never the consumer.
            logger.warning("could not answer a frame of room %s with %r", self.code, code, exc_info=True)

    async def _action(self, inbound: protocol.ActionMessage) -> None:
        if self.seat is None:
            raise UnauthorizedError(gettext_noop("spectators cannot act: join a seat with its token"))
        # The state an action makes can reach the hub before the database call returns
        # here: it is held back, so this connection always reads its ack first.
        async with self._holding():
            ack = await _db(services.action_submit)(
                self.code,
                self.seat,
                inbound.action,
                client_id=inbound.id,
                expected_version=inbound.version,
                actor="seat",
            )
            await self.send_json(protocol.ack_frame(inbound.id, ack.version))

    @contextlib.asynccontextmanager
    async def _holding(self) -> AsyncIterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            held, self.held = self.held, None
            if held is not None:
                await self._forward(*held)
            held_room, self.held_room = self.held_room, None
            if held_room is not None:
                await self._room_forward(held_room)

    async def _hint(self, inbound: protocol.HintMessage) -> None:
        """Hard's move for this seat, to this connection only (`lobby/hints.py`)."""
        if self.seat is None:
            raise UnauthorizedError(gettext_noop("spectators cannot ask for hints: join a seat"))
        asked = await _db(hints.hint_view)(self.code, self.seat)
        hint = await hints.hints().answer(asked)
        # Worded here, in this socket's language: the hint kept is the same for every asker.
        await self.send_json(protocol.hint_frame(inbound.id, hint.action, hint.why()))

    async def _chat(self, inbound: protocol.ChatMessage) -> None:
        if self.seat is None:
            raise UnauthorizedError(gettext_noop("spectators cannot chat: join a seat"))
        if not self.chats.take():
            raise RateLimitedError(gettext_noop("too many chat messages: wait a moment"))
        frame = protocol.chat_frame(
            self.seat, self.name, inbound.text, inbound.phrase, timezone.now().isoformat()
        )
        await realtime.room_send(self.code, {"type": "lobby.chat", "code": self.code, "chat": frame})

    # Room events (from the hub) ---------------------------------------------------------
    async def hub_event(self, event: dict[str, Any]) -> None:
        kind = str(event.get("type"))
        if kind not in ROOM_EVENTS:
            logger.error("dropped a room event of unknown type %r", kind)
            return
        if not self.welcomed and kind in ("lobby.room", "lobby.chat"):
            return
        await getattr(self, kind.replace(".", "_"))(event)

    async def lobby_views(self, event: dict[str, Any]) -> None:
        """Forward this seat's own frame of a new version, never another seat's."""
        frames = event.get("frames")
        frame = frames.get(realtime.frame_key(self.seat)) if isinstance(frames, dict) else None
        if not isinstance(frame, str):
            logger.error("a views event of room %s carried no frame for seat %r", self.code, self.seat)
            return
        stamp = (int(event["match"]), int(event["version"]))
        if self.holding or not self.welcomed:
            if self.held is None or stamp > self.held[0]:
                self.held = (stamp, frame)
            return
        await self._forward(stamp, frame)

    async def _forward(self, stamp: tuple[int, int], frame: str) -> None:
        if stamp > self.sent:
            self.sent = stamp
            await self.send(text_data=frame)

    async def lobby_room(self, event: dict[str, Any]) -> None:
        """The room info; one that comes during an action or a snapshot follows it, so a
        snapshot read before a change never lands after that change's own frame."""
        room: dict[str, Any] = event["room"]
        if self.holding:
            if self.held_room is None or _revision(room) >= _revision(self.held_room):
                self.held_room = room
            return
        await self._room_forward(room)

    async def _room_forward(self, room: dict[str, Any]) -> None:
        """Send the room info unless this socket already has a newer revision of it (an
        equal one may say more: a deadline passed, the same rows read again later)."""
        if _revision(room) >= self.room_sent:
            self.room_sent = _revision(room)
            await self.send_json(protocol.room_frame(room))

    async def lobby_chat(self, event: dict[str, Any]) -> None:
        await self.send_json(event["chat"])

    async def lobby_replaced(self, event: dict[str, Any]) -> None:
        self.bound = False
        with translation.override(self.language):
            said = gettext("this seat was opened on another connection")
        await self.send_json({"type": "replaced", "message": said})
        await self.close(code=CLOSE_REPLACED)

    async def lobby_reseated(self, event: dict[str, Any]) -> None:
        """The host moved this player to another seat (before a match): act and chat for
        the new one, and tell the client in a fresh welcome."""
        seat = event.get("seat")
        if self.seat is None or type(seat) is not int:
            return
        self.seat = seat
        await self.send_json(protocol.welcome_frame(self.seat, self.code))

    async def lobby_kicked(self, event: dict[str, Any]) -> None:
        self.bound = False
        with translation.override(self.language):
            said = gettext("the host freed this seat")
        await self.send_json({"type": "kicked", "message": said})
        await self.close(code=CLOSE_KICKED)
