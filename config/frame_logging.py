"""autobahn's debug lines, kept from costing CPU on every WebSocket frame.

autobahn builds the arguments of a debug line on each frame it sends or receives, whether or
not debug logging is on, and colours them with click's ANSI codes whenever click can be
imported (it is installed beside the development tools). A profile of a server process at
its ceiling put that colouring at 1.0-1.5% of the time it held the interpreter; the plain
text costs a third as much. The lines themselves are never emitted at the server's log level.
"""

from __future__ import annotations

import autobahn.util


def plain_debug_text() -> None:
    """Have autobahn format its debug arguments as plain text, without click's colours."""
    autobahn.util._HAS_CLICK = False
