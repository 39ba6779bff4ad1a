"""ASGI entry point: HTTP goes to Django; WebSockets pass the origin check, then the lobby."""

from __future__ import annotations

import os

import django

from config.http_handler import OneHopASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)
from django.conf import settings  # noqa: E402

from config.body_limit import BodyLimit  # noqa: E402

_OFF = set(os.environ.get("SERVER_PATCHES_OFF", "").split(","))
if "one_hop" in _OFF:
    from django.core.handlers.asgi import ASGIHandler

    django_asgi_app = BodyLimit(ASGIHandler(), settings.HTTP_MAX_BODY)
else:
    django_asgi_app = BodyLimit(OneHopASGIHandler(), settings.HTTP_MAX_BODY)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import eager_writes, frame_sends, gc_tuning  # noqa: E402
from config.frame_logging import plain_debug_text  # noqa: E402
from lobby.embedded_redis import ensure_configured  # noqa: E402
from lobby.routing import websocket_urlpatterns  # noqa: E402

ensure_configured()
if "frame_logging" not in _OFF:
    plain_debug_text()
if "eager_writes" not in _OFF:
    eager_writes.install()
if "frame_sends" not in _OFF:
    frame_sends.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)
if "gc_tuning" not in _OFF:
    gc_tuning.tune()
