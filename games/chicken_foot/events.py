"""The log event only Chicken Foot writes, straight as the compact JSON text the state keeps.

Like the shared writers of games.core.log, it gives exactly what `encode` would give for the
same event (the round trip is tested).
"""

from __future__ import annotations

from games.core.log import Event


def lead_draw_event(seat: int) -> Event:
    """A tile taken because nobody held the double that leads the hand."""
    return f'{{"type":"draw","seat":{seat},"lead":true}}'
