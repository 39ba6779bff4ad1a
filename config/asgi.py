"""ASGI entry point: HTTP goes to Django; WebSockets pass the origin check, then the lobby.

Every library is used as shipped, through its public API (docs/server.md, "Library APIs"):
Django's own ASGI handler, Channels' router and origin check under daphne.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application
from django.urls import resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_handler = get_asgi_application()
from django.conf import settings  # noqa: E402

from config import heap_probe  # noqa: E402
from config.body_limit import BodyLimit  # noqa: E402

heap_probe.install(settings.VAR_DIR)  # off unless LOBBY_HEAP_PROBE is set

django_asgi_app = BodyLimit(django_handler, settings.HTTP_MAX_BODY)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import gc_tuning  # noqa: E402
from lobby.routing import websocket_urlpatterns  # noqa: E402
from lobby.runtime import runtime  # noqa: E402

runtime().ensure_redis()
# The URL configuration (and the views, serializers and option tables it imports) is loaded
# now, before the port opens, rather than by the first request: a load balancer's first
# health check would otherwise wait for it, and on a busy machine time out.
resolve("/healthz")

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)
gc_tuning.tune()
