"""The Content-Security-Policy of every response, Django 5 having no setting for it.

The pages load their scripts and styles from /static/ only, keep their data in
`json_script` blocks (which are never run) and draw the room's QR code as inline SVG, so the
policy allows no inline script or style, no `eval`, no plugin, and no framing:
`frame-ancestors 'none'` is the CSP form of `X-Frame-Options: DENY`, which is sent too for
browsers that know only that. Scripts may still set `el.style.x` (the CSSOM is not inline
style). Sockets go to the page's own host: 'self' covers ws: and wss: in current browsers,
and the host is also named for older ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy(request.META.get("HTTP_HOST", ""))
        return response


def policy(host: str) -> str:
    """The policy for a page served by `host` (the Host header, used only when it has the
    shape of a host name)."""
    sockets = f" ws://{host} wss://{host}" if _HOST.match(host) else ""
    return "; ".join(
        f"{name} {value}".replace("{sockets}", sockets)
        for name, value in settings.CONTENT_SECURITY_POLICY.items()
    )
