"""Exceptions raised by the rules kernel.

The server maps each of these once to a wire error code (`illegal_action`, `malformed`), so
every message is written for a player to read.
"""


class IllegalAction(ValueError):
    """The action is well formed but the rules forbid it now."""


class MalformedAction(IllegalAction):
    """The action is not one of the action shapes of the protocol at all."""
