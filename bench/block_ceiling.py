"""What Hard's Block search would win if it saw every hand: `python -m bench.block_ceiling`.

A diagnostic, not a bot: each Hard decision samples the true deal instead of deals drawn
from its view, so the search plays with perfect information and everything else unchanged
(playouts, endgames, budget). The gap between this share and Hard's own, on the same hands
(`python -m bench.paired` with the same seed and rounds), is what hidden tiles cost the
search; better inference can win back at most that much.

    python -m bench.block_ceiling --rounds 2000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from games import simulate
from games.ai import line_search
from games.core.tiles import Tile

#: The state behind the view the bot to move was given (set outside the bot's own calls).
_TRUE: dict[str, Any] = {}


def _true_hands(search: Any, rng: Any) -> tuple[list[list[Tile]], list[Tile], float]:
    state = _TRUE["state"]
    tiles = state.config.tiles
    rng.random()
    return [tiles.tiles_of(h) for h in state.hands], [], 0.0


def see_everything() -> None:
    """Make every Hard line search sample the true deal of the hand being played."""
    search: Any = line_search.Search
    search.sample_hands = _true_hands
    sim: Any = simulate
    real_rules = sim.get_rules
    real_bot = sim.make_bot

    def get_rules(name: str) -> Any:
        rules = real_rules(name)
        cls: Any = type(rules)
        if not getattr(cls, "_watched", False):
            view = cls.view

            def watched(self: Any, state: Any, seat: int | None) -> Any:
                if not _TRUE.get("thinking"):
                    _TRUE["state"] = state
                return view(self, state, seat)

            cls.view = watched
            cls._watched = True
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

    sim.get_rules = get_rules
    sim.make_bot = make_bot


def one(job: tuple[simulate.Config, int]) -> int:
    """Round `index`'s winning entry, -1 for a tie (as `bench.paired` stores it)."""
    config, index = job
    outcome = simulate.play(config, index)
    return outcome.winners[0] if outcome.winners else -1


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.block_ceiling", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--options", default='{"partnership": true, "hand_size": 7}')
    parser.add_argument("--bots", default="hard,easy", help="entry 0 is the one that sees everything")
    parser.add_argument("--seed", default="tune1")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="where to store the rounds' winners (JSON, as bench.paired)")
    args = parser.parse_args(argv)
    see_everything()
    levels = tuple(args.bots.split(","))
    config = simulate.Config("block", args.players, levels, json.loads(args.options), args.seed, False)
    start = time.perf_counter()
    jobs = [(config, i) for i in range(args.rounds)]
    with Pool(args.jobs) as pool:
        winners = pool.map(one, jobs, chunksize=20)
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"winners": winners}, out)
    won = sum(1 for w in winners if w == 0)
    decided = sum(1 for w in winners if w >= 0)
    print(f"entry 0 seeing every hand won {won / max(decided, 1):.4f} of decided rounds, "
          f"{won / len(winners):.4f} of all, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
