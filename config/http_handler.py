"""Django's ASGI handler with the middleware chain and the view run in one hop to a thread.

Every view and every middleware here is synchronous (DRF, the pages, WhiteNoise, Django's
own `MiddlewareMixin` ones). Built for ASGI, Django starts the chain from its asynchronous
response path and adapts at each change of mode: WhiteNoise, synchronous only, hands back to
the event loop, `CommonMiddleware` then runs its request and response halves each in a hop
to a thread, and the view in another. A request crossed between the loop and a thread five
times; a profile of a loaded process put those crossings, for the rematch requests alone,
at several percent of its time. Built as under WSGI and awaited once, the chain runs in one
thread from the first middleware to the view and back, as each piece of it was written to.
An asynchronous view, if one is ever added, is still run: the synchronous path adapts it.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneHopASGIHandler(ASGIHandler):
    _middleware_chain: Any

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)
