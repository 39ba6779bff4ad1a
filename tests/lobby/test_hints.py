"""Hints over the room WebSocket, with real Redis and a real database: Hard's move for the
seat to move, from its own view, to its connection only; refused when the room's option is
off, out of turn, to a spectator, and past the rate limit."""

from __future__ import annotations

from typing import Any

import pytest

from games.ai.advice import advise
from games.engine import get_rules
from lobby.hints import HINT_SEED
from tests.ai.support import tiles_said
from tests.lobby.helpers import Table, match_start_async, room_setup_async, tiles_in

pytestmark = pytest.mark.django_db(transaction=True)


async def seated(game: str, players: int, options: dict[str, Any]) -> tuple[list[Table], Table]:
    """A started room of `players` humans, every seat and a spectator connected, each with
    its first state in hand."""
    code, tokens = await room_setup_async(game, players, options, players)
    tables = [Table(code, token) for token in tokens]
    spectator = Table(code)
    for table in [*tables, spectator]:
        assert (await table.open())[0]
    await match_start_async(code, tokens[0])
    for table in [*tables, spectator]:
        await table.until("state")
    return tables, spectator


def mover(tables: list[Table]) -> tuple[Table, Table]:
    """The connection of the seat to move, and another one."""
    view = tables[0].latest_state()["view"]  # type: ignore[index]
    first = next(t for t in tables if t.seat == view["to_move"])
    return first, next(t for t in tables if t is not first)


@pytest.mark.parametrize(("game", "players"), [
    ("draw", 2), ("block", 3), ("allfives", 2), ("texas42", 4), ("mexican_train", 3), ("chicken_foot", 3),
    ("fiveup", 4),
])
async def test_a_hint_is_hards_legal_move_from_the_seats_own_view_to_that_seat_only(game: str, players: int) -> None:
    tables, spectator = await seated(game, players, {"hints": True})
    asking, other = mover(tables)
    view = asking.latest_state()["view"]  # type: ignore[index]
    await asking.send({"type": "hint", "id": "h1"})
    frame = await asking.until("hint", timeout=30)
    assert set(frame) == {"type", "id", "action", "why"} and frame["id"] == "h1"
    assert frame["action"] in view["legal"]
    expected = advise(get_rules(game), view, seed=HINT_SEED, names=["P0", "P1", "P2", "P3"][:players])
    assert frame["action"] == expected.action and frame["why"] == expected.why
    own = {tuple(t) for t in view["hand"]}
    board = set(tiles_in({k: v for k, v in view.items() if k != "hand"}))
    assert set(tiles_in(frame)) | tiles_said(frame["why"]) <= own | board, "a hint names no tile the seat cannot see"
    for table in (other, spectator):
        assert all(f["type"] != "hint" for f in await table.quiet(0.3))
    for table in [*tables, spectator]:
        await table.close()


async def test_a_hint_out_of_turn_is_not_your_turn_and_a_spectators_is_unauthorized() -> None:
    tables, spectator = await seated("draw", 2, {"hints": True})
    _, other = mover(tables)
    await other.send({"type": "hint", "id": "early"})
    refused = await other.until("error")
    assert refused["code"] == "not_your_turn" and refused["id"] == "early"
    await spectator.send({"type": "hint", "id": "s"})
    assert (await spectator.until("error"))["code"] == "unauthorized"
    await other.send({"type": "hint"})
    assert (await other.until("error"))["code"] == "malformed"
    for table in [*tables, spectator]:
        await table.close()


async def test_a_hint_with_the_option_off_is_hints_off() -> None:
    tables, spectator = await seated("block", 2, {})
    asking, _ = mover(tables)
    await asking.send({"type": "hint", "id": "h"})
    refused = await asking.until("error")
    assert refused["code"] == "hints_off" and refused["id"] == "h"
    for table in [*tables, spectator]:
        await table.close()


async def test_a_flood_of_hints_is_rate_limited_like_actions(settings: Any) -> None:
    settings.LOBBY_MESSAGE_RATE = 0.01
    settings.LOBBY_MESSAGE_BURST = 5
    tables, spectator = await seated("draw", 2, {"hints": True})
    asking, _ = mover(tables)
    for i in range(8):
        await asking.send({"type": "hint", "id": f"f{i}"})
    got = [f for f in await asking.quiet(2.0) if f["type"] in ("hint", "error")]
    assert any(f["type"] == "hint" for f in got)
    assert any(f["type"] == "error" and f["code"] == "rate_limited" for f in got)
    for table in [*tables, spectator]:
        await table.close()
