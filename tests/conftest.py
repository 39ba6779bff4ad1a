"""Shared test configuration."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's synchronous API keeps an event loop running on the main thread for as long as
    its session fixture lives, which would break every later test that starts a loop itself.
    """
    items.sort(key=lambda item: "tests/e2e/" in item.nodeid.replace("\\", "/"))
