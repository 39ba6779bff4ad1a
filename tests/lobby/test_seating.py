"""Arranging the table before a match (docs/protocol.md, "Arrange the seats"): the host swaps
seats and sets AIs, players leave or move to a free seat, and every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from lobby.models import Room
from tests.lobby.helpers import Table, api, match_start_async, room_setup_async

pytestmark = pytest.mark.django_db


def table(
    client: Client, game: str = "draw", players: int = 4, options: dict[str, Any] | None = None
) -> tuple[str, str, str]:
    """A room with the host Ann in seat 0 and Bob in seat 1; returns code and both tokens."""
    body = {"game": game, "players": players, "options": options or {}, "name": "Ann"}
    made = api(client, "post", "/api/rooms/", body).json()
    bob = api(client, "post", f"/api/rooms/{made['code']}/seats/", {"name": "Bob"}).json()
    assert bob["seat"] == 1
    return made["code"], made["token"], bob["token"]


def seats(client: Client, code: str) -> list[tuple[str, str | None]]:
    room = api(client, "get", f"/api/rooms/{code}/").json()
    return [(s["name"], s["ai"]) for s in room["seats"]]


def patch_seat(client: Client, code: str, seat: int, body: Any, token: str | None) -> Any:
    return api(client, "patch", f"/api/rooms/{code}/seats/{seat}/", body, token)


def test_the_host_swaps_two_players_and_the_teams_follow_the_seats(client: Client) -> None:
    code, host, bob = table(client, options={"partnership": True})
    room = api(client, "get", f"/api/rooms/{code}/").json()
    assert room["teams"] == [[0, 2], [1, 3]]
    moved = patch_seat(client, code, 1, {"move_to": 2}, host)
    assert moved.status_code == 200, moved.content
    assert moved.json()["you"] == 0
    assert [s["name"] for s in moved.json()["seats"]] == ["Ann", "", "Bob", ""]
    # Bob's token follows Bob: it now holds seat 2, Ann's partner.
    assert api(client, "get", f"/api/rooms/{code}/", token=bob).json()["you"] == 2


def test_the_host_seat_follows_the_host_when_the_host_moves(client: Client) -> None:
    code, host, bob = table(client)
    assert patch_seat(client, code, 0, {"move_to": 1}, host).status_code == 200
    room = api(client, "get", f"/api/rooms/{code}/", token=host).json()
    assert room["host_seat"] == 1 and room["you"] == 1
    assert [s["name"] for s in room["seats"]][:2] == ["Bob", "Ann"]
    # Still the host: it can start arranging again from its new seat.
    assert patch_seat(client, code, 0, {"move_to": 3}, host).status_code == 200
    assert api(client, "get", f"/api/rooms/{code}/", token=bob).json()["you"] == 3


def test_the_host_sets_and_clears_an_ai_in_an_empty_seat(client: Client) -> None:
    code, host, _bob = table(client)
    assert patch_seat(client, code, 2, {"ai": "hard"}, host).status_code == 200
    assert patch_seat(client, code, 3, {"ai": "hard"}, host).status_code == 200
    assert seats(client, code)[2:] == [("Hard AI", "hard"), ("Hard AI 2", "hard")]
    assert patch_seat(client, code, 2, {"ai": "easy"}, host).status_code == 200
    assert seats(client, code)[2] == ("Easy AI", "easy")
    assert patch_seat(client, code, 2, {"ai": None}, host).status_code == 200
    room = api(client, "get", f"/api/rooms/{code}/").json()
    assert room["seats"][2]["free"] is True and room["seats"][2]["ai"] is None


def test_a_player_leaves_and_takes_another_free_seat(client: Client) -> None:
    code, _host, bob = table(client)
    assert patch_seat(client, code, 1, {"move_to": 3}, bob).status_code == 200
    assert api(client, "get", f"/api/rooms/{code}/", token=bob).json()["you"] == 3
    assert api(client, "delete", f"/api/rooms/{code}/seats/3/", token=bob).status_code == 204
    assert api(client, "get", f"/api/rooms/{code}/", token=bob).json()["you"] is None
    again = api(client, "post", f"/api/rooms/{code}/seats/", {"name": "Bob", "seat": 2})
    assert again.status_code == 201 and again.json()["seat"] == 2


def test_a_player_cannot_take_a_seat_someone_holds_nor_move_others(client: Client) -> None:
    code, host, bob = table(client)
    before = seats(client, code)
    assert patch_seat(client, code, 1, {"move_to": 0}, bob).status_code == 409
    assert patch_seat(client, code, 0, {"move_to": 2}, bob).status_code == 403
    assert patch_seat(client, code, 2, {"ai": "hard"}, bob).status_code == 403
    taken = api(client, "post", f"/api/rooms/{code}/seats/", {"name": "Cy", "seat": 1})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    assert seats(client, code) == before
    assert patch_seat(client, code, 1, {"ai": "hard"}, host).status_code == 409


@pytest.mark.parametrize(
    ("seat", "body", "status", "code_word"),
    [
        (7, {"move_to": 1}, 404, "not_found"),
        (1, {"move_to": 4}, 409, "conflict"),
        (1, {"move_to": 10}, 400, "invalid"),
        (1, {"move_to": -1}, 400, "invalid"),
        (1, {"move_to": "2"}, 400, "invalid"),
        (1, {"move_to": "two"}, 400, "invalid"),
        (1, {}, 400, "invalid"),
        (1, {"move_to": 2, "ai": "hard"}, 400, "invalid"),
        (2, {"ai": "grandmaster"}, 400, "invalid"),
        (1, [1, 2], 400, "invalid"),
    ],
)
def test_bad_seat_changes_get_a_clear_error_and_change_nothing(client: Client, seat: int, body: Any, status: int, code_word: str) -> None:
    code, host, _bob = table(client)
    before = seats(client, code)
    answer = patch_seat(client, code, seat, body, host)
    assert answer.status_code == status, answer.content
    if code_word is not None:
        assert answer.json()["code"] == code_word and answer.json()["detail"]
        assert seats(client, code) == before


def test_no_token_a_guest_token_or_a_forged_one_moves_nothing(client: Client) -> None:
    code, _host, bob = table(client)
    before = seats(client, code)
    for token in (None, "forged-token", bob):
        answer = patch_seat(client, code, 0, {"move_to": 2}, token)
        assert (answer.status_code, answer.json()["code"]) in {(401, "unauthorized"), (403, "forbidden")}
        assert api(client, "delete", f"/api/rooms/{code}/seats/0/", token=token).status_code in {401, 403, 409}
    assert seats(client, code) == before
    assert patch_seat(client, "nosuchroom2345", 0, {"move_to": 2}, bob).status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_seat_changes_answer_409_during_a_match_and_change_nothing() -> None:
    code, tokens = await room_setup_async("draw", 4, {"partnership": True}, humans=2)
    await match_start_async(code, tokens[0])

    def attempts() -> list[int]:
        client = Client()
        before = seats(client, code)
        statuses = [
            patch_seat(client, code, 1, {"move_to": 2}, tokens[0]).status_code,
            patch_seat(client, code, 3, {"ai": "easy"}, tokens[0]).status_code,
            patch_seat(client, code, 3, {"ai": None}, tokens[0]).status_code,
            api(client, "delete", f"/api/rooms/{code}/seats/1/", token=tokens[0]).status_code,
            patch_seat(client, code, 1, {"move_to": 3}, tokens[1]).status_code,
        ]
        assert seats(client, code) == before
        return statuses

    from channels.db import database_sync_to_async

    assert await database_sync_to_async(attempts)() == [409] * 5


def test_two_players_with_one_name_are_told_apart(client: Client) -> None:
    code, _host, _bob = table(client)
    third = api(client, "post", f"/api/rooms/{code}/seats/", {"name": "ann"})
    fourth = api(client, "post", f"/api/rooms/{code}/seats/", {"name": "Ann"})
    assert third.status_code == fourth.status_code == 201
    assert [name for name, _ai in seats(client, code)] == ["Ann", "Bob", "ann 2", "Ann 3"]


@pytest.mark.parametrize(
    "name",
    ["A" * 500, "\x07bell", "tab\there", "Ann\u202egnirts", "\x00", "   "],
)
def test_a_name_too_long_or_with_control_characters_is_refused(client: Client, name: str) -> None:
    code, _host, _bob = table(client)
    before = seats(client, code)
    answer = api(client, "post", f"/api/rooms/{code}/seats/", {"name": name})
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"]
    assert seats(client, code) == before
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": name})
    assert made.status_code == 400
    assert Room.objects.count() == 1


def test_the_schema_describes_the_seat_changes(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    seat = schema["paths"]["/api/rooms/{code}/seats/{seat}/"]
    assert {"patch", "delete"} <= set(seat)
    body = seat["patch"]["requestBody"]["content"]["application/json"]["schema"]
    assert [set(shape["properties"]) for shape in body["oneOf"]] == [{"move_to"}, {"ai"}]
    assert {"200", "401", "403", "404", "409"} <= set(seat["patch"]["responses"])


@pytest.mark.django_db(transaction=True)
async def test_a_swap_reaches_every_socket_and_the_moved_player_is_welcomed_to_its_new_seat() -> None:
    code, tokens = await room_setup_async("draw", 4, {"partnership": True}, humans=2)  # AIs in 2, 3
    host, bob, watcher = Table(code, tokens[0]), Table(code, tokens[1]), Table(code)
    for socket in (host, bob, watcher):
        assert (await socket.open())[0]
        await socket.until("room")

    def swap() -> int:
        return int(patch_seat(Client(), code, 1, {"move_to": 2}, tokens[0]).status_code)

    from channels.db import database_sync_to_async

    assert await database_sync_to_async(swap)() == 200
    welcome = await bob.until("welcome")
    assert welcome["seat"] == 2
    for socket in (host, bob, watcher):
        while True:
            room = (await socket.until("room"))["room"]
            if room["seats"][2]["name"] == "P1":
                break
        assert room["seats"][2]["connected"] is True and room["seats"][1]["ai"] == "hard"
    # The moved socket plays for its new seat once the match starts.
    await match_start_async(code, tokens[0])
    state = await bob.until("state")
    assert state["view"]["seat"] == 2 and "hand" in state["view"]
    for socket in (host, bob, watcher):
        await socket.close()
