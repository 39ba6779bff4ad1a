"""Run the sweep outside the web processes, as the compose file's `sweep` service does.

Every round (each `LOBBY_SWEEP_SECONDS`, at least a second) closes the seat sockets of
server processes gone, plays the moves that are due (AI seats, stand-ins, turn timers),
and, on the first round and then hourly, deletes the rooms idle for `LOBBY_ROOM_IDLE_DAYS`.
Web processes sweep by themselves once a socket has connected to them; this process
covers the time after every web process restarted and nobody has reconnected yet, so the
AI seats move on, and it expires rooms on a server no socket reaches.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from lobby import bots
from lobby.runtime import runtime


class Command(BaseCommand):
    help = "Sweep every LOBBY_SWEEP_SECONDS: due AI moves, seats of dead processes, idle rooms (hourly)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--once", action="store_true", help="one round, room expiry included; wait for its moves, exit"
        )
        parser.add_argument(
            "--alive-file", default="", help="a file touched after every round, for a health check to read"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        alive = Path(opts["alive_file"]) if opts["alive_file"] else None
        while True:
            bots.sweep_round(expire=True if opts["once"] else None)
            if alive is not None:
                alive.touch()
            if opts["once"]:
                runtime().background().wait_idle(60)
                self.stdout.write("swept once")
                return
            time.sleep(max(settings.LOBBY_SWEEP_SECONDS, 1.0))
