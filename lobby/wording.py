"""What `games/` says to people, worded in the reader's language.

`games/` imports no Django: it marks its words for the catalogs (`games.core.text.gettext_noop`)
and gives them in English. The server translates them where it shows them, at the time it
shows them, so each request and each socket gets its own language (docs/translating.md):
the options of `GET /api/games/` and of the room form (their labels, choices, notes and what
the documents say; option names, values and the documents' names are not translated), and
the sentence of why of a hint or a review, worded again from its facts for each reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from games.ai.advice import sentence

Translate = Callable[[str], Any]

#: The keys of an option's description (`Option.describe`) that are words for people.
_WORDS = ("label", "help", "default_note")


def advice_why(facts: Mapping[str, Any], unit: str, names: Sequence[str] | None) -> str:
    """The sentence of why of a hint or a review decision, in the active language."""
    return sentence(facts, unit, names, gettext=gettext, ngettext=ngettext)


def _say(text: Any, translate: Translate) -> Any:
    # The empty message is the catalog's header, never a word of an option.
    return translate(text) if isinstance(text, str) and text else text


def option_worded(described: Mapping[str, Any], translate: Translate | None = None) -> dict[str, Any]:
    """An option's description (`Option.describe`) with its words translated by `translate`
    (by default `gettext`: in the active language now; `gettext_lazy`: when it is shown)."""
    translate = translate or gettext
    out = dict(described)
    for key in _WORDS:
        if key in out:
            out[key] = _say(out[key], translate)
    if "choices" in out:
        out["choices"] = [{**c, "label": _say(c.get("label"), translate)} for c in out["choices"]]
    if "sources" in out:
        out["sources"] = [{**s, "says": _say(s.get("says"), translate)} for s in out["sources"]]
    return out


def game_worded(described: Mapping[str, Any], translate: Translate | None = None) -> dict[str, Any]:
    """A game's description (`games.options.describe`) with its options' words translated."""
    return {**described, "options": [option_worded(o, translate) for o in described.get("options") or ()]}
