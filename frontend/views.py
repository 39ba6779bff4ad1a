"""The pages: home (create a room), the room and its table, printable score sheets.

The pages only render HTML and the rules data; everything live goes through the public API
and the room socket, so the browser holds no privilege a scripted client would not have.
"""

from __future__ import annotations

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.rules_data import GAMES, SET_NAMES, SHEETS


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"games": GAMES, "set_names": SET_NAMES})


def room(request: HttpRequest, code: str) -> HttpResponse:
    link = request.build_absolute_uri(f"/r/{code}")
    qr = segno.make(link, error="m").svg_inline(scale=4, border=2, title="QR code of the room link")
    return render(
        request,
        "frontend/room.html",
        {"code": code, "link": link, "qr_svg": qr, "games": GAMES, "set_names": SET_NAMES},
    )


def sheet(request: HttpRequest, kind: str) -> HttpResponse:
    data = SHEETS.get(kind)
    if data is None:
        raise Http404(f"no score sheet {kind!r}: expected one of {', '.join(SHEETS)}")
    return render(
        request,
        "frontend/sheet.html",
        {"sheet": data, "kind": kind, "columns": range(1, data["columns"] + 1), "sheets": SHEETS},
    )


def sheets(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/sheets.html", {"sheets": SHEETS})
