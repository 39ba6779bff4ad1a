"""The API's JSON bodies, read within documented limits.

DRF's own parser answered a body nested a few thousand levels deep with a `RecursionError`,
and a body of a few megabytes with Django's `RequestDataTooBig`: both 500. Here a body over
`HTTP_MAX_BODY` bytes is refused with 413 before it is decoded, and one nested deeper than
`JSON_MAX_DEPTH` with 400; orjson decodes it (no recursion of Python's), and refuses what
could not be stored or written back: a lone surrogate, `NaN`.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.conf import settings
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.HTTP_MAX_BODY
        raw = b"" if stream is None else stream.read(limit + 1)
        if len(raw) > limit:
            raise BodyTooLarge(gettext("a request body is at most %(bytes)s bytes") % {"bytes": limit})
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            detail = gettext("the body is not valid JSON (UTF-8, no lone surrogates)")
            raise exceptions.ParseError(detail) from None
        depth = settings.JSON_MAX_DEPTH
        if nested_deeper(data, depth):
            raise exceptions.ParseError(gettext("the body's JSON is nested deeper than %(depth)s levels") % {
                "depth": depth})
        return data


def nested_deeper(value: Any, depth: int) -> bool:
    """Whether `value` nests arrays or objects more than `depth` levels deep (`{"a": 1}` is
    one level), found level by level without recursion."""
    level = [value] if isinstance(value, (dict, list)) else []
    levels = 0
    while level:
        levels += 1
        if levels > depth:
            return True
        level = [
            item
            for container in level
            for item in (container.values() if isinstance(container, dict) else container)
            if isinstance(item, (dict, list))
        ]
    return False
