"""The room code in a URL: read in any letter case, meant in lower case.

A code typed from a phone's keyboard that capitalised its first letter, or read aloud and
typed in capitals, names the same room (`/r/K7WQ...` is `/r/k7wq...`). Codes are made of
lower-case letters and digits only (`lobby.services.rooms.CODE_ALPHABET`).
"""

from __future__ import annotations

from django.urls import register_converter


class RoomCodeConverter:
    """`<room:code>` in a route: letters and digits, handed to the view in lower case."""

    regex = "[A-Za-z0-9]{1,64}"

    def to_python(self, value: str) -> str:
        return value.lower()

    def to_url(self, value: str) -> str:
        return value.lower()


def converters_register() -> None:
    register_converter(RoomCodeConverter, "room")
