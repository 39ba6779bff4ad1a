"""The memory map sampler reads a live process's smaps and sorts its mappings by kind."""

from __future__ import annotations

import os

from bench.memory_map import kind_of, resident_by_kind


def test_mappings_are_sorted_by_what_allocates_them() -> None:
    assert kind_of(0, 4096, "[heap]") == "brk heap"
    assert kind_of(0, 1024 * 1024, "") == "anon <= 1 MiB"
    assert kind_of(0, 64 * 1024 * 1024, "") == "anon > 1 MiB"
    assert kind_of(0, 4096, "/usr/lib/x86_64-linux-gnu/libcrypto.so.3") == "libraries"
    assert kind_of(0, 4096, "[stack]") == "other"


def test_this_process_is_resident_in_libraries_and_anonymous_memory() -> None:
    found = resident_by_kind(os.getpid())
    assert found["libraries"] > 0
    assert found.get("anon <= 1 MiB", 0) + found.get("anon > 1 MiB", 0) + found.get("brk heap", 0) > 0
