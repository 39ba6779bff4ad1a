"""`python -m games.simulate`: bots against bots, for strength figures and rule statistics.

Reproducible by construction: round (or match) `i` is a fresh match whose master seed is
`HMAC_SHA256(key=utf8(--seed), msg="round:<i>")` (`"match:<i>"` with `--matches`), and the
bot in seat `k` gets `HMAC_SHA256(key=<that master>, msg="bot:<k>")`. Rounds are independent,
so `--jobs` changes the speed, never the figures.

Seats rotate: in round `i` side `s` is played by the bot entry `(s + i) % len(--bots)`, so
with two entries each plays every seat (every team with partnerships) equally often.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from games.ai import make_bot
from games.ai.policy import LEVELS, Bot
from games.engine import get_rules, names

Z95 = 1.959963984540054


def wilson(successes: int, trials: int) -> list[float]:
    """The 95% Wilson score interval of a share, as `[low, high]`."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def derive(key: bytes, label: str) -> bytes:
    return hmac.new(key, label.encode("ascii"), hashlib.sha256).digest()


@dataclass(slots=True)
class Config:
    game: str
    players: int
    levels: tuple[str, ...]
    options: dict[str, Any]
    seed: str
    matches: bool


@dataclass(slots=True)
class Outcome:
    """One round (or match): who won, how the hands went, how long each bot thought."""

    winners: list[int] = field(default_factory=list)
    hands: int = 0
    blocked: int = 0
    opener_hands: int = 0
    opener_won: int = 0
    entry_of_opener: int | None = None
    times: dict[int, list[float]] = field(default_factory=dict)
    #: Decisions and their summed milliseconds per entry, for an outcome read back from a
    #: record file, whose single times are not kept.
    timed: dict[int, tuple[int, float]] = field(default_factory=dict)

    def totals(self, entry: int) -> tuple[int, float]:
        """Decisions and summed milliseconds of one bot entry."""
        if entry in self.timed:
            return self.timed[entry]
        times = self.times.get(entry, [])
        return len(times), sum(times)

    def record(self, index: int) -> str:
        """One line of a record file (see `Record`)."""
        fields = {
            "index": index,
            "winners": self.winners,
            "hands": self.hands,
            "blocked": self.blocked,
            "opener_hands": self.opener_hands,
            "opener_won": self.opener_won,
            "entry_of_opener": self.entry_of_opener,
            "timed": {str(e): [n, round(ms, 3)] for e in self.times for n, ms in [self.totals(e)]},
        }
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def from_record(cls, line: Mapping[str, Any]) -> Outcome:
        return cls(
            winners=[int(w) for w in line["winners"]],
            hands=int(line["hands"]),
            blocked=int(line["blocked"]),
            opener_hands=int(line["opener_hands"]),
            opener_won=int(line["opener_won"]),
            entry_of_opener=line["entry_of_opener"],
            timed={int(e): (int(n), float(ms)) for e, (n, ms) in line["timed"].items()},
        )


def _hand_summary(rules: Any, state: Any, before: Sequence[int]) -> tuple[int | None, bool, int | None]:
    """Winner side (None for a tie), blocked, and the opener's seat of the hand just finished."""
    last = rules.view(state, None).get("last_hand") or {}
    winner = last.get("winner") if "winner" in last else None
    if "winner" not in last:
        after = rules.scores(state)
        sign = -1 if rules.lower_score_wins else 1
        gains = [sign * (a - b) for a, b in zip(after, before)]
        top = max(gains)
        winner = gains.index(top) if gains.count(top) == 1 else None
    opener = next((e.get("seat") for e in last.get("log") or () if e.get("type") == "play"), None)
    return winner, bool(last.get("blocked")), opener


def play(config: Config, index: int) -> Outcome:
    """Play round (or match) `index` of the run and report it."""
    rules = get_rules(config.game)
    master = derive(config.seed.encode("utf-8"), f"{'match' if config.matches else 'round'}:{index}")
    state = rules.new_match(players=config.players, options=config.options, seed=master)
    teams = rules.teams(state)
    entries = len(config.levels)
    entry_of_side = [(side + index) % entries for side in range(len(teams))]
    entry_of_seat = {seat: entry_of_side[side] for side, seats in enumerate(teams) for seat in seats}
    bots: dict[int, Bot] = {
        seat: make_bot(config.game, config.levels[entry], seed=derive(master, f"bot:{seat}"))
        for seat, entry in entry_of_seat.items()
    }
    out = Outcome(times={e: [] for e in range(entries)})
    hand = rules.hand_index(state)
    before = rules.scores(state)
    first_opener: int | None = None
    while True:
        seat = rules.to_move(state)
        if seat is None or rules.hand_index(state) != hand:
            winner, blocked, opener = _hand_summary(rules, state, before)
            if opener is None and seat is not None:
                # A redeal (42: every seat passed) is no round: play on.
                hand = rules.hand_index(state)
                before = rules.scores(state)
                continue
            out.hands += 1
            out.blocked += blocked
            if opener is not None:
                first_opener = opener if first_opener is None else first_opener
                out.opener_hands += 1
                out.opener_won += winner == rules.side_of(state, opener)
            if not config.matches:
                if winner is not None:
                    out.winners = [entry_of_side[winner]]
                break
            if seat is None:
                result = rules.result(state) or {}
                if result.get("winner") is not None:
                    out.winners = [entry_of_side[int(result["winner"])]]
                break
            hand = rules.hand_index(state)
            before = rules.scores(state)
        view = rules.view(state, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view)
        out.times[entry_of_seat[seat]].append((time.perf_counter() - start) * 1000.0)
        state = rules.apply(state, action)
    if first_opener is not None:
        out.entry_of_opener = entry_of_seat[first_opener]
    return out


def _play_star(job: tuple[Config, int]) -> Outcome:
    return play(*job)


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def summarise(config: Config, outcomes: Sequence[Outcome], count: int) -> dict[str, Any]:
    """The JSON object of docs/simulation.md, "The JSON", with 95% Wilson intervals beside every share."""
    hands = sum(o.hands for o in outcomes)
    blocked = sum(o.blocked for o in outcomes)
    decided = sum(1 for o in outcomes if o.winners)
    if config.matches:
        opened = [o for o in outcomes if o.entry_of_opener is not None]
        opener_trials = len(opened)
        opener_wins = sum(1 for o in opened if o.entry_of_opener in o.winners)
    else:
        opener_trials = sum(o.opener_hands for o in outcomes)
        opener_wins = sum(o.opener_won for o in outcomes)
    report: dict[str, Any] = {
        "game": config.game,
        "players": config.players,
        "options": config.options,
        "rounds": count if not config.matches else hands,
        "seed": int(config.seed) if config.seed.isdigit() else config.seed,
        "blocked": round(blocked / hands, 4) if hands else 0.0,
        "blocked_ci": wilson(blocked, hands),
        "opener_won": round(opener_wins / opener_trials, 4) if opener_trials else 0.0,
        "opener_won_ci": wilson(opener_wins, opener_trials),
        "decided": decided,
    }
    if config.matches:
        report["matches"] = count
    bots = []
    for entry, level in enumerate(config.levels):
        won = sum(1 for o in outcomes if entry in o.winners)
        times = [t for o in outcomes for t in o.times.get(entry, [])]
        counted = [o.totals(entry) for o in outcomes]
        decisions = sum(n for n, _ in counted)
        spent = sum(ms for _, ms in counted)
        bots.append(
            {
                "level": level,
                "won": round(won / count, 4) if count else 0.0,
                "won_ci": wilson(won, count),
                "won_of_decided": round(won / decided, 4) if decided else 0.0,
                "won_of_decided_ci": wilson(won, decided),
                "decisions": decisions,
                "decision_ms_mean": round(spent / decisions, 3) if decisions else 0.0,
                "decision_ms_p95": round(percentile(times, 0.95), 3),
            }
        )
    report["bots"] = bots
    return report


class Record:
    """A file of played rounds (or matches), one JSON line each, so a long run can stop and
    go on later: a rerun of the same command plays only the indices the file lacks.

    Every index is played from its own seed, so the figures of a run pieced together this
    way equal those of one unbroken run. Only single decision times are not kept (their
    count and sum are): `decision_ms_p95` then covers the decisions timed by this process.
    """

    def __init__(self, path: Path, config: Config) -> None:
        self.path = path
        self.header = json.dumps(
            {"game": config.game, "players": config.players, "bots": list(config.levels),
             "options": config.options, "seed": config.seed, "matches": config.matches},
            sort_keys=True,
        )

    def load(self) -> dict[int, Outcome]:
        """The outcomes already recorded; an error if the file is of another run."""
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if not text:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(self.header + "\n", encoding="utf-8")
            return {}
        if not text.endswith("\n"):
            with self.path.open("a", encoding="utf-8") as out:
                out.write("\n")  # ends a line cut short, so the next one starts clean
        lines = text.splitlines()
        if not lines or lines[0] != self.header:
            raise ValueError(f"{self.path} records another run (its first line is not {self.header})")
        done: dict[int, Outcome] = {}
        for line in lines[1:]:
            try:
                fields = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when a run was stopped
            done[int(fields["index"])] = Outcome.from_record(fields)
        return done

    def add(self, index: int, outcome: Outcome) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(outcome.record(index) + "\n")


def run(config: Config, count: int, jobs: int = 1, record: Path | None = None) -> dict[str, Any]:
    """Play `count` rounds (or matches) and summarise them; `jobs` processes share the work.

    With `record`, outcomes already in that file are read instead of played, and each new
    one is appended as soon as it is known.
    """
    book = Record(record, config) if record is not None else None
    done = {i: o for i, o in book.load().items() if i < count} if book is not None else {}
    todo = [i for i in range(count) if i not in done]
    work = [(config, i) for i in todo]
    outcomes = dict(done)
    if jobs > 1:
        with Pool(jobs) as pool:
            chunk = max(1, len(work) // (jobs * 8)) if book is None else 1
            for i, outcome in zip(todo, pool.imap(_play_star, work, chunksize=chunk)):
                outcomes[i] = outcome
                if book is not None:
                    book.add(i, outcome)
    else:
        for i in todo:
            outcomes[i] = play(config, i)
            if book is not None:
                book.add(i, outcomes[i])
    report = summarise(config, [outcomes[i] for i in range(count)], count)
    if book is not None:
        report["recorded"] = len(done)
    return report


def parse(argv: Sequence[str] | None) -> tuple[Config, int, int, bool, Path | None]:
    parser = argparse.ArgumentParser(prog="python -m games.simulate", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, choices=names())
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's minimum)")
    parser.add_argument("--bots", default="easy,easy", help="comma-separated levels, one entry each")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=int, default=None, help="rounds (hands) to play, each a fresh match")
    count.add_argument("--matches", type=int, default=None, help="whole matches to play instead")
    parser.add_argument("--seed", default="20260805", help="master seed of the run (text)")
    parser.add_argument("--options", default="{}", help="room options as a JSON object")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (figures do not change)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--record", type=Path, default=None,
        help="JSON-lines file of played rounds: read back, added to as they finish (resumable runs)",
    )
    args = parser.parse_args(argv)
    levels = tuple(level.strip() for level in args.bots.split(",") if level.strip())
    for level in levels:
        if level not in LEVELS:
            parser.error(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as error:
        parser.error(f"--options is not JSON: {error}")
    if not isinstance(options, Mapping):
        parser.error("--options must be a JSON object")
    rules = get_rules(args.game)
    players = args.players if args.players is not None else rules.min_players
    try:
        probe = rules.new_match(players=players, options=dict(options), seed=b"probe")
    except ValueError as error:
        parser.error(str(error))
    sides = len(rules.teams(probe))
    if not levels or sides % len(levels):
        parser.error(f"--bots needs a number of entries that divides the {sides} sides")
    matches = args.matches is not None
    n = args.matches if matches else (args.rounds if args.rounds is not None else 1000)
    if n is None or n < 1:
        parser.error("the number of rounds or matches must be at least 1")
    config = Config(args.game, players, levels, dict(options), str(args.seed), matches)
    return config, n, max(1, args.jobs), bool(args.json), args.record


def main(argv: Sequence[str] | None = None) -> int:
    config, count, jobs, as_json, record = parse(argv)
    try:
        report = run(config, count, jobs, record)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(report))
    else:
        unit = "matches" if config.matches else "rounds"
        print(f"{config.game}, {config.players} players, {count} {unit}, seed {config.seed}")
        print(f"blocked {report['blocked']:.4f} {report['blocked_ci']}")
        print(f"opener won {report['opener_won']:.4f} {report['opener_won_ci']}")
        for bot in report["bots"]:
            print(
                f"{bot['level']:>6}: won {bot['won']:.4f} {bot['won_ci']}, of decided "
                f"{bot['won_of_decided']:.4f}, {bot['decision_ms_mean']:.2f} ms mean, "
                f"{bot['decision_ms_p95']:.2f} ms p95"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
