"""The lock files agree with pyproject.toml.

Each lock records the digest of the dependency lists it was made from, and pins a version that
satisfies every requirement of pyproject.toml (with its extras, on CPython 3.11 on Linux, the
platform of CI). When this fails, run `python3 tasks.py lock` and commit the locks.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import cast

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import tasks

ROOT = Path(tasks.__file__).resolve().parent
FIX = "run `python3 tasks.py lock` and commit requirements.lock and requirements-dev.lock"
#: A pin line: `name==version`, maybe `; marker`, before its hashes.
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
#: CPython 3.11 on Linux, the interpreter CI runs.
CI = {
    "python_version": "3.11",
    "python_full_version": "3.11.7",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "platform_machine": "x86_64",
}


def pins(path: Path) -> dict[str, list[tuple[Version, Marker | None]]]:
    """Every pinned version of the lock by package, with the marker that selects it."""
    found: dict[str, list[tuple[Version, Marker | None]]] = {}
    lines = path.read_text().splitlines()
    for line in lines:
        match = PIN.match(line)
        if match:
            name, version, marker = match.groups()
            found.setdefault(canonicalize_name(name), []).append(
                (Version(version), Marker(marker) if marker else None)
            )
    assert found, f"{path.name} pins nothing"
    return found


def pinned_for_ci(lock: dict[str, list[tuple[Version, Marker | None]]], name: str) -> Version | None:
    for version, marker in lock.get(canonicalize_name(name), []):
        if marker is None or marker.evaluate(CI):
            return version
    return None


def project() -> dict[str, object]:
    return cast(dict[str, object], tomllib.loads((ROOT / "pyproject.toml").read_text())["project"])


@pytest.mark.parametrize("lock_name", ["requirements.lock", "requirements-dev.lock"])
def test_lock_records_the_digest_of_pyprojects_dependency_lists(lock_name: str) -> None:
    header = (ROOT / lock_name).read_text().splitlines()[:10]
    recorded = [line.removeprefix(tasks.DIGEST_PREFIX) for line in header if line.startswith(tasks.DIGEST_PREFIX)]
    expected = tasks.dependency_digest((ROOT / "pyproject.toml").read_bytes())
    assert recorded == [expected], f"{lock_name} was made from other dependency lists: {FIX}"


@pytest.mark.parametrize(("lock_name", "extras"), [("requirements.lock", ()), ("requirements-dev.lock", ("dev",))])
def test_every_requirement_is_satisfied_by_a_pin(lock_name: str, extras: tuple[str, ...]) -> None:
    lock = pins(ROOT / lock_name)
    meta = project()
    wanted = [Requirement(text) for text in meta["dependencies"]]  # type: ignore[attr-defined]
    for extra in extras:
        wanted += [Requirement(text) for text in meta["optional-dependencies"][extra]]  # type: ignore[index]
    for requirement in wanted:
        if requirement.marker is not None and not requirement.marker.evaluate({**CI, "extra": ""}):
            continue
        version = pinned_for_ci(lock, requirement.name)
        assert version is not None, f"{requirement.name} is not in {lock_name}: {FIX}"
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock_name} pins {requirement.name}=={version}, pyproject.toml asks {requirement}: {FIX}"
        )


def test_the_base_lock_pins_the_dev_locks_versions() -> None:
    """`serve` after `test` reinstalls nothing: the base lock is a part of the dev lock."""
    base, dev = pins(ROOT / "requirements.lock"), pins(ROOT / "requirements-dev.lock")
    for name, entries in base.items():
        for version, marker in entries:
            assert (version, marker) in dev.get(name, []), f"{name}=={version} is not in requirements-dev.lock: {FIX}"


def test_every_pin_carries_hashes() -> None:
    for lock_name in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / lock_name).read_text()
        blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 6)[-1])
        for block in blocks:
            if PIN.match(block.splitlines()[0]):
                assert "--hash=sha256:" in block, f"{block.splitlines()[0]} has no hash in {lock_name}: {FIX}"
