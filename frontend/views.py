"""The pages: home (create a room), the room and its table, the replay of a match, printable
score sheets, and the page for a link that leads nowhere.

The pages only render HTML and the rules data; everything live goes through the public API
and the room socket, so the browser holds no privilege a scripted client would not have.

Each page is in the language of the `django_language` cookie, else of Accept-Language
(LocaleMiddleware adds `Vary: Accept-Language`); `vary_on_cookie` tells a cache about the cookie.
"""

from __future__ import annotations

from typing import Any

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.vary import vary_on_cookie

from frontend.rules_data import GAMES, SET_NAMES, SHEETS
from lobby import links, selectors
from lobby.errors import RoomNotFoundError


@vary_on_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"games": GAMES, "set_names": SET_NAMES})


@vary_on_cookie
def room(request: HttpRequest, code: str) -> HttpResponse:
    """The room at its absolute link; `code` arrives in lower case (`<room:code>`)."""
    try:
        found = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return not_found(request)
    link = links.room_url(request, found.code)
    qr = segno.make(link, error="m").svg_inline(scale=4, border=2, title=_("QR code of the room link"))
    return render(
        request,
        "frontend/room.html",
        {"code": found.code, "link": link, "qr_svg": qr, "games": GAMES, "set_names": SET_NAMES},
    )


@vary_on_cookie
def tv(request: HttpRequest, code: str) -> HttpResponse:
    """The table screen for a TV: a spectator of the room (it never carries a seat's token),
    with the room's absolute link and its QR code, drawn large, until the match starts."""
    try:
        found = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return not_found(request)
    link = links.room_url(request, found.code)
    # Sized by the page (a viewBox, no width): as large as the screen allows, for a sofa.
    qr = segno.make(link, error="m").svg_inline(
        scale=10, border=2, omitsize=True, title=_("QR code of the room link")
    )
    games = [{"name": g["name"], "title": g["title"]} for g in GAMES]
    context = {"code": found.code, "link": link, "qr_svg": qr, "games": games}
    return render(request, "frontend/tv.html", context)


@vary_on_cookie
def replay(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The replay of match `number` of the room: its finished hands, every hand face up
    (the positions come from the API; the page itself only needs the room to exist)."""
    try:
        found = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return not_found(request)
    games = [{"name": g["name"], "title": g["title"]} for g in GAMES]
    # The absolute link (the address the other phones reach), for sharing a position.
    link = f"{links.room_url(request, found.code)}/replay/{number}"
    context = {"code": found.code, "number": number, "link": link, "games": games}
    return render(request, "frontend/replay.html", context)


def replay_current(request: HttpRequest, code: str) -> HttpResponse:
    """`/r/<code>/replay`, as the room page links it: the replay of the room's current match
    (the one whose hands its end-of-hand and end-of-match screens show)."""
    try:
        found = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return not_found(request)
    match = selectors.match_current(found)
    number = match.number if match is not None else 0
    query = request.META.get("QUERY_STRING", "")
    target = reverse("replay", kwargs={"code": found.code, "number": number})
    return redirect(f"{target}?{query}" if query else target)


def room_missing(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other link under /r/: truncated, mistyped, or with characters no code has."""
    return not_found(request)


@vary_on_cookie
def sheet(request: HttpRequest, kind: str) -> HttpResponse:
    data = SHEETS.get(kind)
    if data is None:
        raise Http404(f"no score sheet {kind!r}: expected one of {', '.join(SHEETS)}")
    return render(
        request,
        "frontend/sheet.html",
        {"sheet": data, "kind": kind, "columns": range(1, data["columns"] + 1), "sheets": SHEETS},
    )


@vary_on_cookie
def sheets(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/sheets.html", {"sheets": SHEETS})


@vary_on_cookie
def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Every 404 of the site: a page that says what was not found and leads home; under
    /api/, the API's JSON refusal instead."""
    if request.path.startswith("/api/"):
        from lobby.apis import api_not_found

        return api_not_found(request)
    context: dict[str, Any] = {"is_room": request.path.startswith("/r"), "path": request.path}
    return render(request, "frontend/404.html", context, status=404)
