"""The baseline of bench/load.py: a stock Channels consumer that only fans a message out.

It does what the game server must do for each action at the least possible cost (one group
send of a ~1 KB message to a room's four sockets over the stock RedisChannelLayer), so the
load generator can report every server figure as a ratio to this ceiling, measured in the
same run on the same machine.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

#: About the size of a seat's view in a four-player Draw hand.
PADDING = "x" * 1000


class BareRoomConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Joins the room's group; every inbound action is broadcast to the group as a state."""

    group = ""

    async def connect(self) -> None:
        self.group = f"bare.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = json.loads(text_data or "{}")
        if message.get("type") != "action":
            return
        state = {"type": "state", "version": int(message["version"]), "view": {"pad": PADDING}}
        await self.channel_layer.group_send(self.group, {"type": "room.state", "text": json.dumps(state)})

    async def room_state(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
