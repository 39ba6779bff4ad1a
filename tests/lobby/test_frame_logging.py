"""The server's WebSocket frames carry no cost of colouring log lines nobody reads."""

from __future__ import annotations

import pytest
from autobahn.util import hl, hltype

import config.asgi  # noqa: F401  (loading the application sets autobahn's debug text plain)

#: Only where click is installed does autobahn colour anything.
click = pytest.importorskip("click")


def test_autobahns_debug_arguments_are_plain_text_once_the_application_is_loaded() -> None:
    assert click.style("x", fg="yellow") != "x"
    assert hl("tcp4:127.0.0.1:5000") == "tcp4:127.0.0.1:5000"
    assert "\x1b[" not in hltype(test_autobahns_debug_arguments_are_plain_text_once_the_application_is_loaded)
