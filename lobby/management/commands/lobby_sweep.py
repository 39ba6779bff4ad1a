"""Run the AI sweep outside the web processes: every match in progress is checked for a move
that is due (an AI seat, a stand-in, a turn timer) and the move is played.

Web processes sweep by themselves once a socket has connected to them; this command covers
a deployment where every web process restarted and nobody has reconnected yet.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from lobby import bots
from lobby.background import background


class Command(BaseCommand):
    help = "Check every match in progress for a due AI move, once or every LOBBY_SWEEP_SECONDS."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="sweep once, wait for the moves, exit")

    def handle(self, *args: Any, **opts: Any) -> None:
        while True:
            checked = bots.sweep()
            if opts["once"]:
                background().wait_idle(60)
                self.stdout.write(f"checked {checked} matches")
                return
            time.sleep(max(settings.LOBBY_SWEEP_SECONDS, 1.0))
