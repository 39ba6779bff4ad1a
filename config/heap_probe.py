"""A debug-only probe of a server process's memory, off unless `LOBBY_HEAP_PROBE` is set.

A process that grows under load can grow in two ways: Python objects that something keeps
(a cache that never drops an entry, per-connection state left behind), or an allocator
that keeps freed memory and so a resident size that rises while the live objects do not.
This probe tells them apart. With `LOBBY_HEAP_PROBE=N` (N frames per allocation, 1 is
enough to name the line), the process traces its allocations from the start
(`tracemalloc`), and each `SIGUSR2` writes a report under `VAR_DIR/heap-probe/`: the
resident size beside the traced total, the object counts by type, the sizes of the
project's module-level containers, and the snapshot itself: `bench/heap_diff.py A B`
lists the lines whose allocations grew most from one snapshot to another. Tracing slows
the process down and costs memory of its own, and each report stops the process's sockets
for a moment: it is for a diagnosis run, never a deployment.

    # two reports, minutes apart, then compare the second with the first
    LOBBY_HEAP_PROBE=1 daphne config.asgi:application &
    kill -USR2 <pid>; sleep 600; kill -USR2 <pid>
    python bench/heap_diff.py var/heap-probe/<pid>-0.snapshot var/heap-probe/<pid>-1.snapshot
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
import tracemalloc
from collections import Counter, deque
from pathlib import Path
from types import FrameType

ENV = "LOBBY_HEAP_PROBE"
#: How many lines and types each report lists.
TOP = 30
#: The modules whose module-level containers are sized in each report.
OWN_PACKAGES = ("lobby.", "games.", "config.", "frontend.")


class _Probe:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.started = time.monotonic()
        self.reports = 0

    def report(self) -> Path:
        """Write one report and its snapshot (`<pid>-<n>.txt`, `<pid>-<n>.snapshot`).

        Only what is quick happens here, on the event loop's thread: the snapshot is dumped
        as it is, and compared with another one later and elsewhere (`bench/heap_diff.py`);
        filtering or grouping the traces in the server stalled its sockets for minutes."""
        self.directory.mkdir(parents=True, exist_ok=True)
        stem = self.directory / f"{os.getpid()}-{self.reports}"
        self.reports += 1
        gc.collect()
        traced, peak = tracemalloc.get_traced_memory()
        tracemalloc.take_snapshot().dump(f"{stem}.snapshot")
        types = Counter(_type_name(obj) for obj in gc.get_objects())
        lines = [
            f"pid {os.getpid()}, {time.monotonic() - self.started:.0f} s after start",
            f"rss {rss_bytes() / 2**20:.1f} MiB; traced {traced / 2**20:.1f} MiB (peak {peak / 2**20:.1f}); "
            f"tracked objects {sum(types.values())}, gc counts {gc.get_count()}, "
            f"frozen {gc.get_freeze_count()}",
            "",
            "object counts by type:",
        ]
        lines.extend(f"  {count:9d}  {name}" for name, count in types.most_common(TOP))
        lines.append("")
        lines.append("the project's module-level containers:")
        lines.extend(f"  {size:8d}  {name}" for name, size in own_containers())
        path = stem.with_suffix(".txt")
        path.write_text("\n".join(lines) + "\n")
        return path


def _type_name(obj: object) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"


def rss_bytes() -> int:
    """The process's resident size (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def own_containers() -> list[tuple[str, int]]:
    """(dotted name, length) of each dict, set, list or deque the project's modules hold,
    at module level or in the attributes of the project's own objects they hold (a runtime
    object's caches, two levels down), largest first."""
    found: list[tuple[str, int]] = []
    for module_name, module in list(sys.modules.items()):
        if module is not None and module_name.startswith(OWN_PACKAGES):
            _containers(module_name, vars(module), 0, found)
    return sorted(found, key=lambda item: -item[1])


def _containers(prefix: str, attributes: dict[str, object], depth: int, found: list[tuple[str, int]]) -> None:
    for name, value in list(attributes.items()):
        if name.startswith("__") or name.isupper() or isinstance(value, (str, bytes, type)):
            continue
        if isinstance(value, (dict, set, list, deque)):
            found.append((f"{prefix}.{name}", len(value)))
        elif depth < 2 and type(value).__module__.startswith(OWN_PACKAGES) and hasattr(value, "__dict__"):
            _containers(f"{prefix}.{name}", vars(value), depth + 1, found)


def install(var_dir: Path) -> bool:
    """Trace allocations and answer `SIGUSR2` with a report when `LOBBY_HEAP_PROBE` asks
    for it; False (nothing done) otherwise, or where the signal does not exist."""
    frames = int(os.environ.get(ENV, "0") or 0)
    usr2 = getattr(signal, "SIGUSR2", None)
    if frames <= 0 or usr2 is None:
        return False
    if not tracemalloc.is_tracing():
        tracemalloc.start(frames)
    probe = _Probe(var_dir / "heap-probe")

    def on_signal(signum: int, frame: FrameType | None) -> None:
        probe.report()

    signal.signal(usr2, on_signal)
    return True
