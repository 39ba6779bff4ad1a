"""What Hard's Block search would win if it saw every hand: `bench.paired --see-everything`.

A diagnostic, not a bot: inside `see_everything()` each Hard line search samples the true
deal instead of deals drawn from its view, so it plays with perfect information and
everything else unchanged (playouts, endgames, budget). Paired with Hard's own run of the
same hands, the gap is what hidden tiles cost the search; better inference can win back at
most that much:

    python -m bench.paired --game block --players 4 --options '{"partnership": true, "hand_size": 7}' \\
        --bots hard,easy --rounds 2000 --jobs 2 --see-everything --out ceiling.json --against base.json

Only Block: its deals hold every tile a hand will use, so an empty boneyard is the truth.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from games import simulate
from games.ai import line_search
from games.ai.inference import hand_of
from games.core.tiles import Tile

#: The state behind the view the bot to move was given (set outside the bot's own calls).
_TRUE: dict[str, Any] = {}


def _true_hands(search: Any, rng: Any) -> tuple[list[list[Tile]], list[Tile], float]:
    """The hand being played, checked against the searching seat's own view."""
    state = _TRUE["state"]
    tiles = state.config.tiles
    hands = [tiles.tiles_of(h) for h in state.hands]
    if set(hands[int(search.view["seat"])]) != set(hand_of(search.view)):
        raise AssertionError("the true deal does not hold the searching seat's hand")
    rng.random()
    return hands, [], 0.0


@contextmanager
def see_everything() -> Iterator[None]:
    """Within it, every Hard line search samples the true deal of the hand being played."""
    search: Any = line_search.Search
    sim: Any = simulate
    real_sample, real_rules, real_bot = search.sample_hands, sim.get_rules, sim.make_bot
    watched: list[tuple[Any, Any]] = []

    def get_rules(name: str) -> Any:
        rules = real_rules(name)
        cls: Any = type(rules)
        if all(cls is not c for c, _ in watched):
            view = cls.view

            def watching(self: Any, state: Any, seat: int | None) -> Any:
                if not _TRUE.get("thinking"):
                    _TRUE["state"] = state
                return view(self, state, seat)

            watched.append((cls, view))
            cls.view = watching
        return rules

    def make_bot(*args: Any, **kwargs: Any) -> Any:
        bot: Any = real_bot(*args, **kwargs)
        choose = bot.choose

        def thinking(view: Any) -> Any:
            _TRUE["thinking"] = True
            try:
                return choose(view)
            finally:
                _TRUE["thinking"] = False

        bot.choose = thinking
        return bot

    search.sample_hands, sim.get_rules, sim.make_bot = _true_hands, get_rules, make_bot
    try:
        yield
    finally:
        search.sample_hands, sim.get_rules, sim.make_bot = real_sample, real_rules, real_bot
        for cls, view in watched:
            cls.view = view
        _TRUE.clear()
