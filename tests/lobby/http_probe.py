"""A middleware and views that record how Django ran them (test_http_handler)."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.urls import path

#: What ran, in order: ("middleware" or a view's name, "sync" or "async", thread id).
calls: list[tuple[str, str, int]] = []


class ModeProbe:
    """Able to run either way, as Django's own middleware are: Django picks the mode."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        calls.append(("middleware", "sync", threading.get_ident()))
        return self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        calls.append(("middleware", "async", threading.get_ident()))
        response: Awaitable[HttpResponse] = self.get_response(request)
        return await response


def plain(request: HttpRequest) -> HttpResponse:
    calls.append(("plain", "sync", threading.get_ident()))
    return HttpResponse(b"plain")


async def coroutine(request: HttpRequest) -> HttpResponse:
    calls.append(("coroutine", "async", threading.get_ident()))
    return HttpResponse(b"coroutine")


urlpatterns = [path("plain", plain), path("coroutine", coroutine)]
