"""Compare two heap snapshots of a server process (`config/heap_probe.py`): the source lines
whose live allocations grew most from the first to the second, and the traced totals.

    python bench/heap_diff.py var/heap-probe/123-0.snapshot var/heap-probe/123-1.snapshot

Run it anywhere but in the server: grouping a few hundred thousand traces takes seconds.
"""

from __future__ import annotations

import argparse
import tracemalloc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--top", type=int, default=25, help="how many lines to list")
    parser.add_argument("--frames", type=int, default=1,
                        help="group by this many frames of each allocation's traceback (1: by line)")
    args = parser.parse_args()
    first = tracemalloc.Snapshot.load(args.first)
    second = tracemalloc.Snapshot.load(args.second)
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
    first, second = first.filter_traces(ignore), second.filter_traces(ignore)
    total = [sum(trace.size for trace in snapshot.traces) / 2**20 for snapshot in (first, second)]
    print(f"traced: {total[0]:.1f} MiB -> {total[1]:.1f} MiB ({total[1] - total[0]:+.1f} MiB)")
    key = "traceback" if args.frames > 1 else "lineno"
    for stat in second.compare_to(first, key)[: args.top]:
        grown, now = stat.size_diff / 1024, stat.size / 1024
        print(f"{grown:+10.1f} KiB {stat.count_diff:+8d} blocks, now {now:.1f} KiB")
        for line in stat.traceback.format(limit=args.frames):
            print(f"    {line}")


if __name__ == "__main__":
    main()
