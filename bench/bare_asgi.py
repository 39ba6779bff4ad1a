"""ASGI application of the baseline consumer: Channels with the stock RedisChannelLayer.

Run by bench/load.py as `daphne bench.bare_asgi:application`; REDIS_URL names the Redis
server. Nothing of the project's settings is used, so the baseline stays stock.
"""

from __future__ import annotations

import os

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="bench-only",
    ALLOWED_HOSTS=["*"],
    INSTALLED_APPS=["channels"],
    CHANNEL_LAYERS={
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")], "prefix": "bare"},
        }
    },
)
django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from bench.bare_consumer import BareRoomConsumer  # noqa: E402

application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/bare/<str:room>/", BareRoomConsumer.as_asgi())])}
)
