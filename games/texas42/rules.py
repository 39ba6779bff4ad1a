"""Texas 42 behind the engine protocol: four seats in two partnerships, bid, name trumps, take tricks.

>>> rules = Texas42Rules()
>>> state = rules.new_match(players=4, options={}, seed=bytes(32))
>>> rules.to_move(state), rules.legal_actions(state)[:2]
(1, [{'type': 'pass'}, {'type': 'bid', 'value': 30}])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.actions import Action
from games.core.fairness import master_seed
from games.core.options import OptionError
from games.core.protocol import Rules
from games.core.text import gettext_noop
from games.core.tiles import Tile
from games.texas42 import flow, views
from games.texas42.options import SCHEMA
from games.texas42.state import SEATS, TEAMS, Config, Texas42State, dump_state, load_state


class Texas42Rules(Rules[Texas42State]):
    """The rules of 42 as documented in docs/rules-texas42.md."""

    name = "texas42"
    min_players = SEATS
    max_players = SEATS
    option_schema = SCHEMA

    def new_match(
        self, players: int, options: Mapping[str, Any] | None = None, seed: bytes | None = None
    ) -> Texas42State:
        if type(players) is not int or players != SEATS:
            raise OptionError(
                "players", "players",
                gettext_noop("option 'players': Texas 42 is played by exactly %(seats)s players in two "
                             "partnerships, not %(value)s"),
                {"seats": SEATS, "value": repr(players)},
            )
        return flow.new_state(Config.from_options(options), master_seed(seed))

    def to_move(self, state: Texas42State) -> int | None:
        return flow.to_move(state)

    def legal_actions(self, state: Texas42State) -> list[Action]:
        return flow.legal_actions(state)

    def advance(self, state: Texas42State, action: Action) -> Texas42State:
        return flow.advance(state, action)

    def view(self, state: Texas42State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: Texas42State) -> dict[str, Any] | None:
        return views.result(state)

    def dump(self, state: Texas42State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> Texas42State:
        return load_state(data)

    def explain_illegal(self, state: Texas42State, action: Action) -> str:
        return flow.explain_illegal(state, action)

    def hand_index(self, state: Texas42State) -> int:
        return state.hand.number

    def scores(self, state: Texas42State) -> list[int]:
        return list(state.scores)

    def teams(self, state: Texas42State) -> list[list[int]]:
        return [list(t) for t in TEAMS]

    def state_from_view(
        self, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
    ) -> Texas42State:
        return views.state_from_view(view, hands, boneyard)
