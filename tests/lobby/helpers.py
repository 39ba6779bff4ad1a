"""Shared steps of the lobby tests: the REST calls that set a table up, and a socket client."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar, cast

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

ORIGIN = (b"origin", b"http://localhost")

P = ParamSpec("P")
R = TypeVar("R")


def db_async(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """channels' `database_sync_to_async`, typed: channels ships no type hints."""
    return cast("Callable[P, Coroutine[Any, Any, R]]", database_sync_to_async(fn))


def api(client: Client, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    call = getattr(client, method)
    if body is None:
        return call(path, **headers)
    return call(path, json.dumps(body), content_type="application/json", **headers)


def room_setup(
    game: str, players: int, options: dict[str, Any], humans: int, ai: str = "hard"
) -> tuple[str, list[str]]:
    """A started room: `humans` human seats first, then AI seats; returns code and tokens."""
    client = Client()
    made = api(
        client, "post", "/api/rooms/", {"game": game, "players": players, "options": options, "name": "P0"}
    )
    assert made.status_code == 201, made.content
    code, tokens = made.json()["code"], [made.json()["token"]]
    for i in range(1, humans):
        joined = api(client, "post", f"/api/rooms/{code}/seats/", {"name": f"P{i}"})
        assert joined.status_code == 201, joined.content
        tokens.append(joined.json()["token"])
    for seat in range(humans, players):
        added = api(client, "post", f"/api/rooms/{code}/seats/", {"seat": seat, "ai": ai}, tokens[0])
        assert added.status_code == 201, added.content
    return code, tokens


def match_start(code: str, token: str) -> None:
    started = api(Client(), "post", f"/api/rooms/{code}/start/", token=token)
    assert started.status_code == 201, started.content


room_setup_async = database_sync_to_async(room_setup)
match_start_async = database_sync_to_async(match_start)


class Table:
    """One WebSocket connection, keeping every frame it received."""

    def __init__(self, code: str, token: str | None = None) -> None:
        path = f"/ws/rooms/{code}/" + (f"?token={token}" if token else "")
        self.ws = WebsocketCommunicator(application, path, headers=[ORIGIN])
        self.frames: list[dict[str, Any]] = []
        self.seat: int | None = None

    async def open(self) -> tuple[bool, Any]:
        connected, code = await self.ws.connect(timeout=10)
        if connected:
            welcome = await self.next()
            assert welcome["type"] == "welcome"
            self.seat = welcome["seat"]
        return connected, code

    async def next(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = await self.ws.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = await self.next(timeout)
            if frame["type"] == kind:
                return frame

    async def send(self, frame: Any) -> None:
        await self.ws.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def quiet(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        """Every frame that arrives until the socket stays quiet for `timeout`."""
        got = []
        # receive_nothing waits without cancelling the application, as a timed-out
        # receive would.
        while not await self.ws.receive_nothing(timeout, interval=0.01):
            got.append(await self.next())
        return got

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "state"]

    def latest_state(self) -> dict[str, Any] | None:
        states = self.states()
        return states[-1] if states else None

    async def close(self) -> None:
        await self.ws.disconnect()


# Checks over whole matches ---------------------------------------------------------------

#: View keys that hold numbers in pairs that are not tiles, or tiles of finished hands.
NON_TILE_KEYS = frozenset(
    {
        "last_hand",
        "teams",
        "scores",
        "ends",
        "hand_sizes",
        "revealed",
        "options",
        "result",
        "bids",
        "tricks_won",
        "points_taken",
        "winning_seats",
        "sitting_out",
        "resolved_options",
        "hand_points",
        "values",
        "points",
        # Chicken Foot's lead: the double that must open the round, public by rule.
        "lead",
    }
)


def tiles_in(value: Any, path: str = "") -> dict[tuple[int, int], str]:
    """Every [a, b] pair of whole numbers anywhere in `value` (outside NON_TILE_KEYS),
    with the path of one place it appears."""
    found: dict[tuple[int, int], str] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in NON_TILE_KEYS:
                found.update(tiles_in(item, f"{path}.{key}"))
    elif isinstance(value, list):
        if len(value) == 2 and all(type(x) is int for x in value):
            found[(min(value), max(value))] = path
        else:
            for i, item in enumerate(value):
                found.update(tiles_in(item, f"{path}[{i}]"))
    return found


def states_replayed(code: str) -> tuple[Any, dict[int, Any]]:
    """The rules and every state of the room's current match, by version, from the log."""
    from games.engine import get_rules
    from lobby.models import ActionRecord, Match

    match = Match.objects.filter(room__code=code).order_by("-number").first()
    assert match is not None
    rules = get_rules(match.game)
    state = rules.new_match(match.players, match.options, seed=bytes(match.seed))
    states = {0: state}
    for record in ActionRecord.objects.filter(match=match).order_by("seq"):
        state = rules.apply(state, record.action)
        states[record.seq] = state
    assert max(states) == match.version
    return rules, states


def verify_frames(frames: list[dict[str, Any]], seat: int | None, rules: Any, states: dict[int, Any]) -> int:
    """Every state frame is the fresh view of the stored state at its version, versions
    never go back (a `sync` repeats one), and no frame holds a tile of another seat's hand. Returns the frames seen."""
    last = -1
    checked = 0
    for frame in frames:
        if frame["type"] == "state":
            version = frame["version"]
            assert version >= last, f"version went from {last} to {version}"
            last = version
            state = states[version]
            assert frame["view"] == rules.view(state, seat)
            hidden: set[tuple[int, int]] = set()
            for other in range(rules.view(state, None)["players"]):
                if other != seat:
                    hidden.update(tuple(t) for t in rules.view(state, other)["hand"])
            seen = tiles_in(frame)
            leaked = {tile: seen[tile] for tile in hidden.intersection(seen)}
            assert not leaked, f"seat {seat} saw {leaked} of another hand at version {version}"
        else:
            assert not tiles_in(frame), f"a {frame['type']} frame holds tiles"
        checked += 1
    return checked


#: `Accept-Language` headers and the site's language for each: pages (LocaleMiddleware) and
#: room sockets (`lobby.languages`) must choose alike.
ACCEPT_LANGUAGE_CASES: list[tuple[str, str]] = [
    ("es-ES,es;q=0.9,en;q=0.8", "es"),
    ("es-MX", "es"),
    ("pt-BR,pt;q=0.9", "pt-br"),
    ("pt", "pt-br"),
    ("de-DE,de;q=0.9", "en"),
    ("de;q=0.9,es;q=0.5", "es"),
    ("", "en"),
    ("en-GB", "en"),
]
