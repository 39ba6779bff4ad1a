"""Words the engine declares for people (option labels, notes, sources), marked for the
translation catalogs without importing Django.

`games/` must not import Django, yet its option labels and notes are shown to players in
their language. They are marked here with a function named `gettext_noop` (the name the
catalog extraction looks for); the server translates them where it shows them
(docs/translating.md).
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """`message` unchanged: marks it as a message to translate where it is displayed."""
    return message
