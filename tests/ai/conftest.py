"""The bots fall back to a random move rather than fail a live table; in tests that is a bug."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_fallback(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.WARNING, logger="games.ai")
    yield
    fell_back = [r.getMessage() for r in caplog.records if r.name == "games.ai"]
    assert not fell_back, fell_back
