"""The server uses its libraries through their public APIs only (docs/server.md, "Library APIs").

A private name of Twisted, autobahn, daphne, Django, Channels, channels-redis or redis-py
(one that starts with an underscore) may be used only in `config/patches/`, where each use
is gated on the exact version it was written for. Anywhere else in the code it fails here:

- an import of an underscore name from one of those packages;
- an assignment to an attribute of their modules or classes (a replaced method or setting);
- an attribute `x._name` that those packages' sources contain and the project's code does
  not define itself (`_meta`, Django's documented model metadata API, and the documented
  underscore methods of named tuples are public);
- in a class derived from one of their classes, `self._name` for a name of theirs (an
  override of, or a reach into, the base class's internals).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("games", "lobby", "config", "frontend")
PATCHES = ROOT / "config" / "patches"
LIBRARIES = ("twisted", "autobahn", "daphne", "django", "channels", "channels_redis", "redis")
#: Underscore names that are documented public API: Django's model metadata (`Model._meta`)
#: and a model's `_state.adding`/`_state.db` (the documented `Model.from_db` example), and
#: the named tuple's methods.
DOCUMENTED = frozenset({"_meta", "_state", "_replace", "_asdict", "_fields", "_make", "_field_defaults"})
PRIVATE = re.compile(r"^_[A-Za-z][A-Za-z0-9_]*$")


def is_private(name: str) -> bool:
    return bool(PRIVATE.match(name)) and not name.endswith("__") and name not in DOCUMENTED


def library_of(module: str) -> str | None:
    top = module.split(".", maxsplit=1)[0]
    return top if top in LIBRARIES else None


@cache
def library_names() -> frozenset[str]:
    """Every underscore identifier in the installed libraries' sources."""
    names: set[str] = set()
    token = re.compile(r"(?<![\w])_[A-Za-z][A-Za-z0-9_]*")
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        assert spec is not None and spec.origin is not None, library
        for path in Path(spec.origin).parent.rglob("*.py"):
            names.update(token.findall(path.read_text(errors="replace")))
    return frozenset(names)


def sources() -> list[tuple[Path, ast.Module]]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if PATCHES in path.parents:
                continue
            found.append((path, ast.parse(path.read_text(), str(path))))
    return found


def own_names(trees: list[tuple[Path, ast.Module]]) -> set[str]:
    """Underscore names the project defines: functions, classes, module and class variables,
    and attributes its own classes set on `self` or `cls`."""
    names: set[str] = set()
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            if library_bases(cls, imported_from_libraries(tree)):
                continue
            for node in ast.walk(cls):
                if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                        and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    names.add(node.attr)
    return {n for n in names if n.startswith("_")}


def imported_from_libraries(tree: ast.Module) -> dict[str, tuple[str, str | None]]:
    """Local names bound by the module's imports to the libraries' modules (module, None) or
    to objects of them (module, name)."""
    bound: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if library_of(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = (alias.name if alias.asname else local, None)
        elif isinstance(node, ast.ImportFrom) and node.module and library_of(node.module):
            for alias in node.names:
                bound[alias.asname or alias.name] = (node.module, alias.name)
    return bound


def library_bases(cls: ast.ClassDef, bound: dict[str, tuple[str, str | None]]) -> list[type]:
    """The classes of the libraries that `cls` derives from, found through the imports."""
    found = []
    for base in cls.bases:
        parts = []
        node = base
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in bound:
            continue
        module, name = bound[node.id]
        target: object = importlib.import_module(module)
        for part in ([name] if name else []) + parts[::-1]:
            target = getattr(target, part)
        if isinstance(target, type):
            found.append(target)
    return found


@cache
def names_of(cls: type) -> frozenset[str]:
    """The underscore names in the sources of a library class and of its library ancestors."""
    names: set[str] = set()
    for ancestor in cls.__mro__:
        if library_of(ancestor.__module__):
            try:
                names.update(re.findall(r"(?<![\w])_[A-Za-z][A-Za-z0-9_]*", inspect.getsource(ancestor)))
            except (OSError, TypeError):
                names.update(vars(ancestor))
    return frozenset(names)


def root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def uses(path: Path, tree: ast.Module, own: set[str]) -> list[str]:
    where = path.relative_to(ROOT)
    found = []
    bound = imported_from_libraries(tree)
    theirs = library_names()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and library_of(node.module):
            for alias in node.names:
                if is_private(alias.name) or any(is_private(p) for p in node.module.split(".")):
                    found.append(f"{where}:{node.lineno} imports {node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if library_of(alias.name) and any(is_private(p) for p in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno} imports {alias.name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and root_name(node) in bound:
            found.append(f"{where}:{node.lineno} replaces {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                and node.args and root_name(node.args[0]) in bound):
            found.append(f"{where}:{node.lineno} replaces an attribute of {ast.unparse(node.args[0])}")
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not on_self and node.attr in theirs and node.attr not in own:
                found.append(f"{where}:{node.lineno} uses {node.attr}")
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        bases = library_bases(cls, bound)
        if not bases:
            continue
        inherited = frozenset().union(*(names_of(base) for base in bases))
        for node in ast.walk(cls):
            if (isinstance(node, ast.Attribute) and is_private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in ("self", "cls") and node.attr in inherited):
                found.append(f"{where}:{node.lineno} {cls.name} uses its library base's {node.attr}")
        for item in cls.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and is_private(item.name) and item.name in inherited:
                found.append(f"{where}:{item.lineno} {cls.name} overrides its library base's {item.name}")
    return found


def test_no_private_library_name_outside_the_patches() -> None:
    trees = sources()
    own = own_names(trees)
    found = [line for path, tree in trees for line in uses(path, tree, own)]
    assert found == [], "private library names used outside config/patches/:\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_use() -> None:
    """The check itself, on a module written to break each rule once."""
    text = (
        "from channels_redis.utils import _consistent_hash\n"
        "from django.core.handlers.asgi import ASGIHandler\n"
        "import autobahn.util\n"
        "from daphne.ws_protocol import WebSocketProtocol\n"
        "autobahn.util._HAS_CLICK = False\n"
        "WebSocketProtocol.serverSend = print\n"
        "setattr(WebSocketProtocol, 'serverSend', print)\n"
        "def flush(conn):\n"
        "    conn.reactor._readOrWrite(conn, False)\n"
        "class Handler(ASGIHandler):\n"
        "    def load_middleware(self, is_async=False):\n"
        "        self._middleware_chain = None\n"
        "def fine(model, point):\n"
        "    return model._meta, point._replace(x=1)\n"
    )
    path = ROOT / "config" / "example.py"
    found = uses(path, ast.parse(text), set())
    assert sorted(line.split(" ", 1)[1] for line in found) == [
        "Handler uses its library base's _middleware_chain",
        "imports channels_redis.utils._consistent_hash",
        "replaces WebSocketProtocol.serverSend",
        "replaces an attribute of WebSocketProtocol",
        "replaces autobahn.util._HAS_CLICK",
        "uses _HAS_CLICK",
        "uses _readOrWrite",
    ]
