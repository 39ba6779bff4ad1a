"""The log events only Mexican Train writes, straight as the compact JSON text the state keeps.

Like the shared writers of games.core.log, each gives exactly what `encode` would give for
the same event (the round trip is tested).
"""

from __future__ import annotations

from games.core.log import Event


def marker_event(seat: int, end: str, on: bool) -> Event:
    return f'{{"type":"marker","seat":{seat},"end":"{end}","on":{"true" if on else "false"}}}'


def end_turn_event(seat: int) -> Event:
    return f'{{"type":"end_turn","seat":{seat}}}'
