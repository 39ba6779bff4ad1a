"""The absolute link to a room, as a relative's phone must open it (`Hosting.link_base` in
the settings decides the base: `PUBLIC_URL`, else the address the request came by, a
loopback one replaced by the machine's network address)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site_base(request: HttpRequest) -> str:
    """`scheme://host[:port]` of the links this site shows, with no trailing slash."""
    return str(settings.HOSTING.link_base(request.scheme or "http", request.get_host()))


def room_path(code: str) -> str:
    return f"/r/{code}"


def room_url(request: HttpRequest, code: str) -> str:
    return site_base(request) + room_path(code)
