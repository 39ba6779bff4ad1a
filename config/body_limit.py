"""Request bodies over `HTTP_MAX_BODY` bytes refused with 413 before the application reads them.

An ASGI wrapper around the HTTP application: a declared `Content-Length` over the limit is
answered at once; a body without one (chunked) is read only up to the limit. Django would
otherwise spool any body to a temporary file first, and its own limit
(`DATA_UPLOAD_MAX_MEMORY_SIZE`, set to the same number) is met only when a view reads the
body, as an exception the API turned into a 500. The answer is the API's refusal shape, a
problem (RFC 9457) with the code `too_large` (docs/api.md).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[..., Awaitable[None]]


class BodyLimit:
    def __init__(self, app: App, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was read
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            """The body in one message, then whatever the client does next (a disconnect)."""
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        detail = f"a request body is at most {self.max_bytes} bytes"
        content = json.dumps({
            "type": "about:blank", "title": "Content Too Large", "status": 413, "detail": detail,
            "code": "too_large",
        }).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/problem+json"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"content-length", str(len(content)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if bytes(name).lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
