"""What the writes announce once committed, for the parts above them to act on.

The services only send these signals; the AI and timer scheduler (`lobby/bots.py`), which
plays through the services, connects its receivers when the app is ready. So the services
never import it, and the lobby's modules import each other in one direction.
"""

from __future__ import annotations

from django.dispatch import Signal

#: A match was dealt or an action committed. Arguments: `room`, `match` (the rows as
#: committed), `mover`, the seat to move as a `Seat`, or None when nobody can be
#: played for (the match is over, or no seat is an AI, a human gone, or on a timer), and
#: `hands`, how many hands of the match are over (their seeds revealed).
match_moved = Signal()

#: A seat's socket closed and the seat was freed of it. Arguments: `code`, and `deadlines`,
#: seconds from now at which the room is to be checked again (its grace period, its pause).
seat_left = Signal()
