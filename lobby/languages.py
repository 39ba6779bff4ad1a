"""The language of a room socket: what its page was served in, chosen the way Django's
`LocaleMiddleware` chooses a request's (docs/translating.md).

A socket's handshake is an HTTP request the middleware never sees, so its language is read
here from the same inputs: the `django_language` cookie the language switcher sets, when it
names a language of the site; else the best language of the `Accept-Language` header the
site has, by the header's q-values; else `LANGUAGE_CODE`. The consumer keeps it for the
connection and words that socket's error texts and hints in it (`lobby/consumers.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils.translation import check_for_language, get_supported_language_variant

#: Longer headers are cut here first, as Django cuts them (a header is a client's to make up).
ACCEPT_LANGUAGE_MAX_LENGTH = 500
#: A language range of RFC 9110 (`es`, `pt-BR`, `zh-Hant-TW`), or `*`.
_RANGE = re.compile(r"^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
_QUALITY = re.compile(r"^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$", re.IGNORECASE)


def _header(scope: Mapping[str, Any], name: bytes, joiner: str = ", ") -> str:
    """One header of an ASGI scope, its values joined as HTTP joins them (latin-1, as sent;
    several Cookie headers are joined by "; ")."""
    values = [value for key, value in scope.get("headers") or () if bytes(key).lower() == name]
    return joiner.join(bytes(v).decode("latin-1") for v in values)


def _cookie(scope: Mapping[str, Any]) -> str | None:
    """The language cookie of the handshake: from `scope["cookies"]` when a middleware filled
    it in, else from the Cookie header."""
    cookies = scope.get("cookies")
    if not isinstance(cookies, Mapping):
        cookies = parse_cookie(_header(scope, b"cookie", "; "))
    value = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return value if isinstance(value, str) else None


def accepted_languages(header: str) -> list[str]:
    """The language ranges of an `Accept-Language` header, best first: by q-value (1 when not
    given), in the header's order among equals; a range with q=0 or a malformed one left out."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(header[:ACCEPT_LANGUAGE_MAX_LENGTH].split(",")):
        parts = [p.strip() for p in item.split(";")]
        language = parts[0]
        if not _RANGE.match(language):
            continue
        quality = 1.0
        for parameter in parts[1:]:
            found = _QUALITY.match(parameter.replace(" ", ""))
            if found is None:
                quality = -1.0
                break
            quality = float(found.group(1))
        if quality > 0:
            ranked.append((-quality, position, language))
    return [language for _, _, language in sorted(ranked)]


def _supported(language: str) -> str | None:
    """The site's language for `language` (`pt` and `pt-BR` are `pt-br`, `es-MX` is `es`), or None."""
    try:
        return get_supported_language_variant(language.lower())
    except LookupError:
        return None


def _site_languages() -> Iterable[str]:
    return (code for code, _name in settings.LANGUAGES)


def language_of_scope(scope: Mapping[str, Any]) -> str:
    """The language to word this socket's messages in: the cookie, else the header, else
    `LANGUAGE_CODE`."""
    cookie = _cookie(scope)
    if cookie:
        if cookie in _site_languages() and check_for_language(cookie):
            return cookie
        chosen = _supported(cookie) if len(cookie) <= ACCEPT_LANGUAGE_MAX_LENGTH else None
        if chosen is not None:
            return chosen
    for language in accepted_languages(_header(scope, b"accept-language")):
        if language == "*":
            break
        chosen = _supported(language)
        if chosen is not None:
            return chosen
    return _supported(settings.LANGUAGE_CODE) or str(settings.LANGUAGE_CODE)
