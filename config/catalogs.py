"""The translation catalogs: reading `.po` files and compiling them to `.mo`.

Why not Django's `compilemessages`: it runs GNU gettext's `msgfmt`, which a family's computer
does not have, and `serve` must work there. The catalogs in `locale/` are the source; every
process compiles the ones older than their `.po` when Django starts (`frontend.apps`), so a
fresh clone serves Spanish and Portuguese with no tool installed and a catalog edit shows up at
the next start. Extracting messages (`makemessages`) still needs gettext: that is a
contributor's step (docs/translating.md), never the server's.
"""

from __future__ import annotations

import ast
import os
import struct
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

#: The magic number that opens a little-endian `.mo` file.
MO_MAGIC = 0x950412DE


@dataclass
class Entry:
    """One message of a `.po` file: its context, id, plural id and translations (one per
    plural form, or one), with its flags (`fuzzy`, `python-format`, ...) and comments."""

    msgid: str
    msgstr: list[str] = field(default_factory=list)
    msgctxt: str | None = None
    msgid_plural: str | None = None
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        """Usable at run time: not fuzzy, not obsolete, and every form filled in."""
        return (not self.obsolete and "fuzzy" not in self.flags and bool(self.msgstr)
                and all(self.msgstr))


def _unquote(text: str) -> str:
    """A PO string literal's value (C escapes, the same as Python's for what PO files use)."""
    value = ast.literal_eval(text.strip())
    if not isinstance(value, str):
        raise ValueError(f"not a string literal: {text!r}")
    return value


def read_po(path: Path) -> list[Entry]:
    """The entries of a `.po` file, the header (`msgid ""`) first as written."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: str | None = None  # the field continuation lines extend
    pending_flags: set[str] = set()
    pending_comments: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            continue
        try:
            if line.startswith("#,"):
                pending_flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            elif line.startswith("#"):
                pending_comments.append(line)
            elif line.startswith('"'):
                if current is None or target is None:
                    raise ValueError("a continuation line outside an entry")
                value = _unquote(line)
                if target == "msgid":
                    current.msgid += value
                elif target == "msgid_plural":
                    current.msgid_plural = (current.msgid_plural or "") + value
                elif target == "msgctxt":
                    current.msgctxt = (current.msgctxt or "") + value
                else:
                    current.msgstr[int(target)] += value
            else:
                keyword, _, rest = line.partition(" ")
                if keyword == "msgctxt" or (keyword == "msgid" and (current is None or current.msgstr)):
                    finish()
                    current = Entry("", flags=pending_flags, comments=pending_comments,
                                    obsolete=obsolete)
                    pending_flags, pending_comments = set(), []
                if current is None:
                    raise ValueError(f"{keyword} before msgid")
                if keyword == "msgctxt":
                    current.msgctxt, target = _unquote(rest), "msgctxt"
                elif keyword == "msgid":
                    current.msgid, target = _unquote(rest), "msgid"
                elif keyword == "msgid_plural":
                    current.msgid_plural, target = _unquote(rest), "msgid_plural"
                elif keyword == "msgstr":
                    current.msgstr, target = [_unquote(rest)], "0"
                elif keyword.startswith("msgstr[") and keyword.endswith("]"):
                    index = int(keyword[7:-1])
                    if index != len(current.msgstr):
                        raise ValueError(f"{keyword} out of order")
                    current.msgstr.append(_unquote(rest))
                    target = str(index)
                else:
                    raise ValueError(f"unknown keyword {keyword!r}")
        except (ValueError, SyntaxError) as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
    finish()
    return entries


def mo_bytes(entries: list[Entry]) -> bytes:
    """A `.mo` file of the entries that are translated (and the header), as `msgfmt` writes
    one without a hash table: Python's and Django's readers look messages up in a dict."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        header = entry.msgid == "" and entry.msgctxt is None
        if entry.obsolete or not entry.msgstr or (not header and not entry.translated):
            continue
        key = entry.msgid
        if entry.msgid_plural is not None:
            key += "\0" + entry.msgid_plural
        if entry.msgctxt is not None:
            key = entry.msgctxt + "\x04" + key
        pairs[key.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    tables: list[int] = []
    blob = bytearray()
    for strings in (keys, [pairs[k] for k in keys]):
        for text in strings:
            tables += [len(text), data_at + len(blob)]
            blob += text + b"\0"
    head = struct.pack("<7I", MO_MAGIC, 0, count, originals_at, translations_at, 0, data_at)
    return head + struct.pack(f"<{len(tables)}I", *tables) + bytes(blob)


def catalogs_changed(*args: object, **kwargs: object) -> datetime:
    """When the newest compiled catalog was written: the browser's catalog is fresh until then
    (a `last_modified` for Django's JavaScript catalog view)."""
    from django.conf import settings

    newest = max((mo.stat().st_mtime for d in settings.LOCALE_PATHS
                  for mo in Path(d).glob("*/LC_MESSAGES/*.mo")), default=0.0)
    return datetime.fromtimestamp(newest, tz=UTC)


def po_files(locale_dir: Path) -> Iterator[Path]:
    yield from sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_stale(locale_dir: Path) -> list[Path]:
    """Compile every `.po` under `locale_dir` whose `.mo` is missing or older; the `.mo`s
    that were written. Each is written to a temporary file and renamed into place, so
    processes starting at once never read half a file."""
    written: list[Path] = []
    for po in po_files(locale_dir):
        mo = po.with_suffix(".mo")
        try:
            if mo.stat().st_mtime_ns >= po.stat().st_mtime_ns:
                continue
        except FileNotFoundError:
            pass
        data = mo_bytes(read_po(po))
        handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)  # the catalogs are public: readable by any server user
        os.replace(temporary, mo)
        written.append(mo)
    return written
