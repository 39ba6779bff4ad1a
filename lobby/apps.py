"""The lobby app: rooms, seats, matches and the real-time server."""

from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        if settings.EMBEDDED_REDIS:
            from lobby.embedded_redis import ensure_running

            ensure_running(settings.VAR_DIR)
