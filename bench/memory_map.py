"""Where a process's resident memory lives, by kind of mapping, sampled over a long run.

    python bench/memory_map.py --match "daphne" --every 600 --count 13 > map.jsonl

The heap probe (config/heap_probe.py) sees Python objects only. When the RSS grows while the
traced heap holds still, this tells which allocator's memory grows, from /proc/<pid>/smaps:

- `brk heap`: glibc's main arena (`[heap]`);
- `anon <= 1 MiB`: anonymous mappings of at most 1 MiB, which is where Python's own object
  allocator keeps its arenas (1 MiB each on 64-bit CPython 3.10 and later);
- `anon > 1 MiB`: larger anonymous mappings: glibc's arenas for other threads (64 MiB
  reservations, only their touched part resident) and its mmap'd large blocks;
- `libraries`: file-backed mappings of shared objects; `other`: the rest (stacks, files).

Each line of output is one sample: seconds since the start and, per process, KiB by kind.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from pathlib import Path

MAPPING = re.compile(r"^[0-9a-f]+-[0-9a-f]+ ")
ONE_MIB_KIB = 1024


def kind_of(start: int, end: int, path: str) -> str:
    if path == "[heap]":
        return "brk heap"
    if not path:
        return "anon <= 1 MiB" if (end - start) // 1024 <= ONE_MIB_KIB else "anon > 1 MiB"
    if ".so" in Path(path).name:
        return "libraries"
    return "other"


def resident_by_kind(pid: int) -> dict[str, int]:
    """KiB resident per kind of mapping of process `pid`."""
    totals: dict[str, int] = {}
    kind = "other"
    with open(f"/proc/{pid}/smaps", encoding="utf-8", errors="replace") as smaps:
        for line in smaps:
            if MAPPING.match(line):
                fields = line.split(maxsplit=5)
                start, end = (int(x, 16) for x in fields[0].split("-"))
                kind = kind_of(start, end, fields[5].strip() if len(fields) > 5 else "")
            elif line.startswith("Rss:"):
                totals[kind] = totals.get(kind, 0) + int(line.split()[1])
    return totals


def matching(pattern: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", default="daphne", help="pgrep -f pattern of the processes")
    parser.add_argument("--every", type=float, default=600.0, metavar="SECONDS")
    parser.add_argument("--count", type=int, default=0, help="samples to take (0: until stopped)")
    args = parser.parse_args()
    started = time.monotonic()
    taken = 0
    while not args.count or taken < args.count:
        sample: dict[str, object] = {"t": round(time.monotonic() - started)}
        for pid in matching(args.match):
            try:
                sample[str(pid)] = resident_by_kind(pid)
            except OSError:
                continue  # gone between pgrep and the read
        print(json.dumps(sample), flush=True)
        taken += 1
        if not args.count or taken < args.count:
            time.sleep(args.every)


if __name__ == "__main__":
    main()
