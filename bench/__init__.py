"""Benchmarks: each prints its figures (and JSON with --json)."""
