"""Hint latency, every game at its largest table: `python -m bench.hints`.

A hint (room option `hints`) is the Hard AI's advice for the seat to move
(`games.ai.advice.advise`: Hard's search with its estimates kept, then the facts and the
sentence), worked out on the server's hint thread from the seat's view. This times that work
at positions of seeded matches played by Medium bots, where the seat to move has a choice
(a forced move's hint is immediate and left out), with the hint's own seed, as the server
gives it. Wall clock and the process's CPU time are printed; the socket's part (reading the
view from the state cache, one frame each way) is a few milliseconds more.

    python -m bench.hints --hints 60
    python -m bench.hints --review 4    # a whole Mexican Train review of one seat, 4 players
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

from games.ai import make_bot
from games.ai.advice import HandToReview, advise, review_hand
from games.engine import get_rules

#: Every game at its largest table in a room (ten seats; 42 seats four), on the set that
#: seats them.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 10, {"set": 12}),
    ("draw", 10, {"set": 12}),
    ("allfives", 10, {"set": 12}),
    ("texas42", 4, {}),
    ("mexican_train", 10, {}),
    ("chicken_foot", 10, {"set": 18}),
    ("fiveup", 4, {"muggins": True}),
]

#: The server's hint seed (`lobby.hints.HINT_SEED`; the bench imports no Django).
HINT_SEED = b"dominoes hint"


def positions(game: str, players: int, options: dict[str, Any], count: int,
              seed: int) -> list[dict[str, Any]]:
    """`count` views of the seat to move with a choice, from matches of Medium bots."""
    rules = get_rules(game)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    match = 0
    while len(out) < count:
        state = rules.new_match(players, options, seed=bytes([seed % 256, match % 256]) * 16)
        bots = [make_bot(game, "medium", seed=f"{seed}:{match}:{s}") for s in range(players)]
        match += 1
        while len(out) < count:
            seat = rules.to_move(state)
            if seat is None:
                break
            view = rules.view(state, seat)
            if len(view["legal"]) > 1 and rng.random() < 0.3:
                out.append(view)
            state = rules.apply(state, bots[seat].choose(view))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def time_case(game: str, players: int, options: dict[str, Any], count: int, seed: int) -> dict[str, Any]:
    rules = get_rules(game)
    names = [f"P{s}" for s in range(players)]
    advise(rules, positions(game, players, options, 1, seed + 1)[0], seed=HINT_SEED, names=names)  # warm
    wall: list[float] = []
    cpu: list[float] = []
    for view in positions(game, players, options, count, seed):
        w0, c0 = time.perf_counter(), time.process_time()
        advise(rules, view, seed=HINT_SEED, names=names)
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {
        "game": game, "players": players, "options": options, "hints": count,
        "wall_ms": {"mean": sum(wall) / len(wall), "p95": percentile(wall, 0.95), "max": max(wall)},
        "cpu_ms": {"mean": sum(cpu) / len(cpu), "p95": percentile(cpu, 0.95), "max": max(cpu)},
    }


def time_review(players: int, seed: int) -> dict[str, Any]:
    """A whole review of seat 0 in a 13-round Mexican Train match of Medium bots: every hand,
    as the server's review worker does it (`review_hand`), timed together."""
    rules = get_rules("mexican_train")
    master = bytes([seed % 256]) * 32
    state = rules.new_match(players, {}, seed=master)
    bots = [make_bot("mexican_train", "medium", seed=f"{seed}:{s}") for s in range(players)]
    hands: list[list[list[Any]]] = [[]]
    while (seat := rules.to_move(state)) is not None:
        action = bots[seat].choose(rules.view(state, seat))
        before = rules.hand_index(state)
        state = rules.apply(state, action)
        hands[-1].append([seat, action])
        if rules.hand_index(state) != before:
            hands.append([])
    hands = [h for h in hands if h]
    w0, c0 = time.perf_counter(), time.process_time()
    items = 0
    for number in range(len(hands)):
        played = [pair for hand in hands[:number + 1] for pair in hand]
        job = HandToReview("mexican_train", players, {}, master, played, 0, number)
        items += len(review_hand(job))
    return {"players": players, "hands": len(hands), "actions": sum(map(len, hands)), "decisions": items,
            "cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - w0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hints", type=int, default=60, help="hints timed per game")
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--game", help="one game only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--review", type=int, metavar="PLAYERS",
                        help="time a whole Mexican Train review of one seat instead")
    args = parser.parse_args(argv)
    if args.review:
        print(json.dumps(time_review(args.review, args.seed)))
        return
    rows = [time_case(g, p, o, args.hints, args.seed) for g, p, o in CASES if args.game in (None, g)]
    if args.json:
        print(json.dumps({"hints": rows}))
        return
    print("| game | players | wall mean / p95 / max, ms | CPU p95, ms |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        w, c = r["wall_ms"], r["cpu_ms"]
        times = f"{w['mean']:.0f} / {w['p95']:.0f} / {w['max']:.0f}"
        print(f"| {r['game']} | {r['players']} | {times} | {c['p95']:.0f} |")


if __name__ == "__main__":
    main()
