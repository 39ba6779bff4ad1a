"""The lobby app: rooms, seats, matches and the real-time server."""

from __future__ import annotations

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"
