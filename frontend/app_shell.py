"""The installable app: the web app manifest, the service worker and the page it shows offline.

The service worker lives at `/sw.js` so that its scope is the whole site. It keeps the static
files (listed here, with a version made from their contents, so a new release replaces the
cache) and the pages a device has opened, and answers from them only when the network does
not: the server stays the only truth about rooms, and no API answer or room state is ever
kept (docs/frontend.md, "The installable app").
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_cookie

STATIC = Path(__file__).resolve().parent / "static"
#: What the worker keeps ahead of need: everything a page loads from `static/frontend/`.
KEPT = ("frontend/js", "frontend/css", "frontend/icons")
THEME = "#1d5c3a"


@functools.cache
def static_files() -> tuple[list[str], str]:
    """The URLs of the static files the worker keeps, and a version of their contents."""
    digest = hashlib.sha256()
    urls: list[str] = []
    for folder in KEPT:
        for path in sorted((STATIC / folder).rglob("*")):
            if path.is_file() and path.suffix in {".js", ".css", ".png", ".svg"}:
                rel = path.relative_to(STATIC).as_posix()
                urls.append(f"{settings.STATIC_URL}{rel}")
                digest.update(rel.encode() + b"\0" + path.read_bytes())
    return urls, digest.hexdigest()[:16]


@require_safe
@vary_on_cookie
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to put the site on its home screen."""
    icons = [
        {"src": f"{settings.STATIC_URL}frontend/icons/icon-{size}.png", "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": "any maskable"}
        for size in (192, 512)
    ]
    body = {
        # In the request's language (the `django_language` cookie, else Accept-Language): a
        # phone installs the app under the name its player reads.
        "name": _("Dominoes"),
        "short_name": _("Dominoes"),
        "description": _("Dominoes with the family: one link, phones and a TV, AI players for empty seats."),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": icons,
    }
    response = HttpResponse(json.dumps(body, indent=2), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script, with the list of static files and their version written in:
    a new release changes the script, which is how a browser learns to update its cache."""
    urls, version = static_files()
    response = render(
        request,
        "frontend/sw.js",
        {"version": version, "static_urls": json.dumps(urls), "offline_url": "/offline/"},
        content_type="text/javascript",
    )
    # The browser checks the worker for updates on every visit; no cache may stand in between.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
@vary_on_cookie
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page this device never opened, when there is no network."""
    return render(request, "frontend/offline.html")
