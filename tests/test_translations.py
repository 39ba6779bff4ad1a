"""The translation catalogs are complete, and no page or browser module shows a word outside them.

Three checks (docs/translating.md):
- every message the code marks is in the Spanish and the Brazilian Portuguese catalogs,
  translated, with the same placeholders (extracted afresh by `makemessages` from a copy of
  the code, so a new `gettext("...")` without its translation fails here);
- no template and no browser module has a visible word outside `{% translate %}` /
  `gettext(...)` (a scan of text, of the attributes people hear, and of string literals);
- the catalogs compile (config/catalogs.py) to files Python's own gettext reads back.
"""

from __future__ import annotations

import gettext as pygettext
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

import tasks
from config.catalogs import Entry, mo_bytes, read_po

ROOT = Path(tasks.__file__).resolve().parent
LOCALE = ROOT / "locale"
LANGUAGES = ("es", "pt_BR")
DOMAINS = ("django", "djangojs")
TEMPLATES = ROOT / "frontend" / "templates"
SCRIPTS = ROOT / "frontend" / "static" / "frontend" / "js"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


def catalog(language: str, domain: str) -> dict[tuple[str | None, str], Entry]:
    path = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
    return {e.key: e for e in read_po(path) if e.msgid and not e.obsolete}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_with_its_placeholders(language: str, domain: str) -> None:
    untranslated, wrong = [], []
    for entry in catalog(language, domain).values():
        if not entry.translated:
            untranslated.append(entry.msgid)
            continue
        want = sorted(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        for form in entry.msgstr:
            got = PLACEHOLDER.findall(form)
            # A singular form may say "one" instead of its count; no form may invent one.
            if not set(got) <= set(want) or (entry.msgid_plural is None and sorted(got) != want):
                wrong.append(f"{entry.msgid!r} -> {form!r}")
    assert untranslated == [], f"{language} {domain}: untranslated or fuzzy messages"
    assert wrong == [], f"{language} {domain}: placeholders differ"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the code's catalogs after `makemessages`: what the code marks today."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext (xgettext, msgmerge) is needed to extract the messages")
        pytest.skip("GNU gettext is not installed: the extraction check needs xgettext")
    copy = tmp_path_factory.mktemp("code")
    for name in ("manage.py", "tasks.py"):
        shutil.copy2(ROOT / name, copy / name)
    for name in ("config", "frontend", "lobby", "games", "locale"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    env = {**os.environ, "VAR_DIR": str(copy / "var")}
    for domain in DOMAINS:
        subprocess.run(tasks.messages_command(domain), cwd=copy, env=env, check=True,
                       capture_output=True, timeout=300)
    return copy / "locale"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogs_hold_every_message_the_code_marks(
    extracted: Path, language: str, domain: str
) -> None:
    fresh = {e.key for e in read_po(extracted / language / "LC_MESSAGES" / f"{domain}.po")
             if e.msgid and not e.obsolete}
    kept = catalog(language, domain)
    missing = sorted(str(key[1]) for key in fresh - set(kept))
    stale = sorted(str(key[1]) for key in set(kept) - fresh)
    fix = "run `python3 tasks.py messages`, translate, commit locale/"
    assert missing == [], f"{language} {domain}: messages not in the catalog ({fix})"
    assert stale == [], f"{language} {domain}: messages no code uses any more ({fix})"


# -- nothing visible outside the catalogs -------------------------------------------------

#: Attributes whose text a person reads or hears.
SPOKEN_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "aria-description",
                     "aria-roledescription", "aria-valuetext"}
#: Template syntax: tags, variables and comments carry no literal words of the page.
TEMPLATE_BLOCKS = re.compile(
    r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{%\s*blocktranslate.*?endblocktranslate\s*%}"
    r"|{#.*?#}|{%.*?%}|{{.*?}}",
    re.S,
)
WORD = re.compile(r"[^\W\d_]{2,}")


class VisibleText(HTMLParser):
    """The words a template shows outside its tags and translated parts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden_depth += 1
        for name, value in attrs:
            if name in SPOKEN_ATTRIBUTES and value and WORD.search(value):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.hidden_depth:
            self.hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth and WORD.search(data) and not code_like(data.strip()):
            self.found.append(data.strip())


def templates() -> Iterator[Path]:
    yield from sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", list(templates()), ids=lambda p: p.name)
def test_templates_show_no_word_outside_the_catalogs(path: Path) -> None:
    parser = VisibleText()
    parser.feed(TEMPLATE_BLOCKS.sub("", path.read_text(encoding="utf-8")))
    parser.close()
    assert parser.found == [], f"{path.name}: wrap these in {{% translate %}}"


#: Calls whose string arguments are catalog messages (their literals are extracted).
MESSAGE_CALL = re.compile(r"\b(?:n?p?gettext|gettext_noop)\s*\(\s*$")
#: A literal that reads as words for people: two words with a space, or a capitalised word.
PROSE = re.compile(r"[^\W\d_]{2,}[\s\u00a0]+[^\W\d_]{2,}|^[A-Z][a-z]+\b")
#: Words of the platform that are code, not text: key names, headers, methods.
PLATFORM_WORDS = {"Escape", "Enter", "Home", "End", "Tab", "Backspace", "Delete", "Space",
                  "Content-Type", "Accept", "Retry-After", "Authorization", "Bearer",
                  "Notification", "xMidYMid meet"}
#: Code before a literal that makes it a class list, a selector or a key of a table.
CODE_BEFORE = re.compile(
    r"(?:\bclass(?:Name)?\s*[:=]\s*[`\"'(]?[^,;\n]*|classList\.\w+\(\s*"
    r"|querySelector(?:All)?\(\s*[^,;\n]*)$"
)
#: A CSS selector: ids, attribute tests, pseudo-classes, combinators.
SELECTOR = re.compile(r"[#\[\]]|:not\(|(?:^|\s)\.[a-z]")


def code_like(text: str) -> bool:
    """Class lists and similar: lower-case tokens, at least half of them hyphenated."""
    tokens = text.split()
    if text.strip() in PLATFORM_WORDS or SELECTOR.search(text):
        return True
    if not tokens or not all(re.fullmatch(r"[a-z0-9_-]+", t) for t in tokens):
        return False
    return sum(("-" in t or "_" in t) for t in tokens) * 2 >= len(tokens)


#: What the page's code is allowed to say without the catalogs: a comment on the line
#: before or on the literal's line.
EXEMPT = "i18n: not shown"


def literals(source: str) -> Iterator[tuple[int, str, str, bool]]:
    """Each string literal of a JavaScript module: its line, its text, the code before it (to
    tell a `gettext(` argument from others), and whether it is a static part of a template
    literal with values in it. Comments and regular expressions are skipped."""
    i, n, line = 0, len(source), 1
    last = ""  # the last significant character, to tell a regex from a division
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
            continue
        if source.startswith("/*", i):
            j = source.find("*/", i + 2)
            line += source.count("\n", i, j)
            i = n if j < 0 else j + 2
            continue
        if c in "\"'`":
            j, parts, part, start_line = i + 1, [], [], line
            depth = 0
            while j < n:
                d = source[j]
                if d == "\\":
                    part.append(source[j:j + 2])
                    j += 2
                    continue
                if d == "\n":
                    line += 1
                if c == "`" and source.startswith("${", j):
                    parts.append("".join(part))
                    part = []
                    depth, j = 1, j + 2
                    while j < n and depth:  # skip the expression (no nested literals needed here)
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    continue
                if d == c:
                    break
                part.append(d)
                j += 1
            parts.append("".join(part))
            before = source[max(0, i - 200):i]
            for text in parts:
                yield start_line, text, before, len(parts) > 1
            i, last = j + 1, c
            continue
        if c == "/" and (last in "(,=:[!&|?{};+-*%<>~^" or last == "" or
                         re.search(r"\breturn\s*$", source[max(0, i - 10):i])):
            j, in_class = i + 1, False
            while j < n and (source[j] != "/" or in_class):
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            i, last = j + 1, "/"
            continue
        if not c.isspace():
            last = c
        i += 1


def shown_literals(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for number, text, before, templated in literals(source):
        if MESSAGE_CALL.search(before) or re.search(r"\bn?p?gettext\s*\(\s*(?:\"[^\"]*\"\s*,\s*)+$", before):
            continue
        # A word between a template's values (`${a} played ${b}`) is a sentence being built.
        joined = templated and text.strip() not in PLATFORM_WORDS and re.search(r"(^|\s)[^\W\d_]{2,}(\s|$)", text) and " " in text
        if not joined and (not PROSE.search(text) or code_like(text)):
            continue
        if CODE_BEFORE.search(before[-80:]):
            continue
        previous = lines[number - 2].strip() if number >= 2 else ""
        if EXEMPT in lines[number - 1] or (previous.startswith("//") and EXEMPT in previous):
            continue
        found.append(f"{path.name}:{number}: {text!r}")
    return found


def scripts() -> Iterator[Path]:
    for path in sorted(SCRIPTS.rglob("*.js")):
        if path.name != "i18n.js":
            yield path


@pytest.mark.parametrize("path", list(scripts()), ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_browser_modules_show_no_word_outside_the_catalogs(path: Path) -> None:
    assert shown_literals(path) == [], (
        f"wrap these in gettext(...) (or mark a literal no one sees with `// {EXEMPT}`)"
    )


def test_the_scan_sees_words_and_lets_code_through(tmp_path: Path) -> None:
    """The scanner on a module of known lines: what it must flag and what it must not."""
    module = tmp_path / "sample.js"
    module.write_text(
        'const a = "Draw a tile";\n'
        "const b = `${name} played ${tile}`;\n"
        'const c = gettext("Pass");\n'
        'const d = ngettext("%(n)s tile", "%(n)s tiles", n);\n'
        'const e = document.querySelector("#hand .tile-button");\n'
        'node.className = "tile-button legal";\n'
        'const f = x / 2 / y; const g = /Played (\\d)/.test(s);\n'
        "// a comment with Words in it\n"
        'const h = "Kept"; // i18n: not shown\n'
        'const i = "Cancel";\n',
        encoding="utf-8",
    )
    found = shown_literals(module)
    assert found == [
        "sample.js:1: 'Draw a tile'",
        "sample.js:2: ' played '",
        "sample.js:10: 'Cancel'",
    ]


# -- the compiled catalogs ----------------------------------------------------------------


def test_compiled_catalogs_read_back_in_python(tmp_path: Path) -> None:
    entries = [
        Entry("", ["Language: es\nContent-Type: text/plain; charset=UTF-8\n"
                   "Plural-Forms: nplurals=2; plural=(n != 1);\n"]),
        Entry("Pass", ["Paso"]),
        Entry("%(count)s tile", ["%(count)s ficha", "%(count)s fichas"], msgid_plural="%(count)s tiles"),
        Entry("Double", ["Mula"], msgctxt="domino double"),
        Entry("Left out", [""]),
        Entry("Unsure", ["Dudoso"], flags={"fuzzy"}),
    ]
    path = tmp_path / "django.mo"
    path.write_bytes(mo_bytes(entries))
    with path.open("rb") as handle:
        read = pygettext.GNUTranslations(handle)
    assert read.gettext("Pass") == "Paso"
    assert read.ngettext("%(count)s tile", "%(count)s tiles", 1) == "%(count)s ficha"
    assert read.ngettext("%(count)s tile", "%(count)s tiles", 3) == "%(count)s fichas"
    assert read.pgettext("domino double", "Double") == "Mula"
    assert read.gettext("Left out") == "Left out"
    assert read.gettext("Unsure") == "Unsure"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_repository_catalogs_parse_and_compile(language: str, domain: str) -> None:
    entries = read_po(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")
    header = entries[0]
    assert header.msgid == "" and f"Language: {language}" in header.msgstr[0]
    assert "Plural-Forms: nplurals=2" in header.msgstr[0]
    assert len(mo_bytes(entries)) > 28


def words_of_the_games() -> Iterator[str]:
    """Every word the engine declares for people: the options' labels, help, choices, notes and
    what each source says, of every game (games/ marks them; this walks what it declares)."""
    from games.options import describe, game_names

    for game in game_names():
        for option in describe(game)["options"]:
            for key in ("label", "help", "default_note"):
                if option.get(key):
                    yield option[key]
            for choice in option.get("choices") or ():
                if isinstance(choice.get("label"), str):
                    yield choice["label"]
            for source in option.get("sources") or ():
                yield source["says"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_the_games_declare_is_in_the_catalog(language: str) -> None:
    """A word added to an option without `gettext_noop` escapes the extraction: this walks
    the declared options themselves."""
    kept = catalog(language, "django")
    missing = sorted({word for word in words_of_the_games()
                      if WORD.search(word) and (None, word) not in kept})
    assert missing == [], f"{language}: option words not in the catalog (mark them with gettext_noop)"
