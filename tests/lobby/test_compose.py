"""docker-compose.yml holds together: no Docker engine runs in CI, so the file is checked as data.

Each service must have what it needs to start on a fresh host (an image, a command, health
checks its dependants wait on), and the web processes must get exactly the environment that
config/settings.py reads: a variable the settings read but compose forgets silently falls back
to an embedded default (SQLite, an embedded Redis) in production.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
SETTINGS = ROOT / "config" / "settings.py"
HAPROXY = ROOT / "deploy" / "haproxy.cfg"
HEALTH_CONDITIONS = {"service_healthy", "service_completed_successfully"}


def load_services() -> dict[str, dict[str, Any]]:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert isinstance(services, dict)
    return services


def command_words(service: dict[str, Any]) -> list[str]:
    command = service.get("command")
    if isinstance(command, str):
        return command.split()
    return [str(word) for word in command or []]


def is_one_shot(service: dict[str, Any]) -> bool:
    return str(service.get("restart", "no")) == "no"


def web_services(services: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if "daphne" in command_words(s)}


def project_services(services: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if "build" in s}


def settings_sources() -> list[Path]:
    package = SETTINGS.with_suffix("")
    if package.is_dir():
        return sorted(package.glob("*.py"))
    return [SETTINGS]


def is_os_environ(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "environ":
        return isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id == "environ"


def environment_key(node: ast.AST) -> ast.AST | None:
    """The key expression of one read of the environment, or None when `node` is no such read."""
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in {"get", "setdefault", "pop"}:
            return node.args[0] if is_os_environ(func.value) else None
        if isinstance(func, ast.Attribute) and func.attr == "getenv":
            return node.args[0] if isinstance(func.value, ast.Name) and func.value.id == "os" else None
        if isinstance(func, ast.Name) and func.id == "getenv":
            return node.args[0]
    elif isinstance(node, ast.Subscript) and is_os_environ(node.value):
        return node.slice
    elif (
        isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.In | ast.NotIn)
        and is_os_environ(node.comparators[0])
    ):
        return node.left
    return None


def environment_wrappers(tree: ast.AST) -> set[str]:
    """Functions like `_env_bool(name, default)` that read the variable named by their first argument."""
    wrappers = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.args.args:
            first = node.args.args[0].arg
            for inner in ast.walk(node):
                key = environment_key(inner)
                if isinstance(key, ast.Name) and key.id == first:
                    wrappers.add(node.name)
    return wrappers


def environment_reads(source: str) -> set[str]:
    """Names read through os.environ.get/[]/setdefault/in, os.getenv, or a function wrapping them."""
    tree = ast.parse(source)
    wrappers = environment_wrappers(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        key = environment_key(node)
        is_wrapper_call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args
        if key is None and is_wrapper_call and node.func.id in wrappers:
            key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.add(key.value)
    return names


def settings_environment() -> set[str]:
    names: set[str] = set()
    for path in settings_sources():
        names |= environment_reads(path.read_text())
    return names


def haproxy_lines() -> list[list[str]]:
    lines = []
    for raw in HAPROXY.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line.split())
    return lines


def haproxy_sections() -> dict[str, list[list[str]]]:
    sections: dict[str, list[list[str]]] = {}
    current = ""
    for words in haproxy_lines():
        if words[0] in {"global", "defaults", "frontend", "backend", "resolvers", "listen"}:
            current = " ".join(words[:2])
            sections[current] = []
        else:
            sections.setdefault(current, []).append(words)
    return sections


def test_environment_reader_finds_every_form_settings_use():
    source = (
        "import os\nfrom os import environ\n"
        "A = os.environ.get('A', 'x')\nB = os.environ['B']\nC = os.getenv('C')\n"
        "D = 'D' in os.environ\nos.environ.setdefault('E', '1')\nF = environ.get('F')\n"
        "G = {'G': 1}.get('G')\n"
        "def _flag(name, default):\n    return os.environ.get(name, default) == '1'\n"
        "H = _flag('H', '0')\n"
    )
    assert environment_reads(source) == {"A", "B", "C", "D", "E", "F", "H"}


def test_settings_read_the_deployment_variables():
    assert {"DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS"} <= settings_environment()


def test_every_service_has_an_image_a_command_and_a_way_to_report_health():
    services = load_services()
    assert services
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        assert command_words(service), f"{name} has no command"
        if not is_one_shot(service):
            assert "healthcheck" in service, f"{name} has no healthcheck"
            test = service["healthcheck"]["test"]
            assert test[0] in {"CMD", "CMD-SHELL"}, name


def test_every_dependency_waits_on_health_of_a_service_that_reports_it():
    services = load_services()
    for name, service in services.items():
        depends = service.get("depends_on", {})
        assert isinstance(depends, dict), f"{name}: depends_on needs conditions, not a list"
        for other, spec in depends.items():
            assert other in services, f"{name} depends on unknown {other}"
            condition = spec["condition"]
            assert condition in HEALTH_CONDITIONS, (name, other, condition)
            if condition == "service_healthy":
                assert "healthcheck" in services[other], f"{name} waits on {other}, which has none"
            else:
                assert is_one_shot(services[other]), f"{other} never completes"


def test_project_services_get_environment_and_wait_for_their_stores():
    services = load_services()
    built = project_services(services)
    assert built
    for name, service in built.items():
        assert service["build"]["dockerfile"], name
        assert (ROOT / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        assert isinstance(service.get("environment"), dict), name
        assert service.get("depends_on"), name
        database = service["environment"]["DATABASE_URL"]
        host = re.search(r"@([\w.-]+)(:\d+)?/", database)
        assert host, database
        assert services[host.group(1)]["image"].startswith("postgres"), database
        assert service["depends_on"][host.group(1)]["condition"] == "service_healthy"


def test_web_services_get_exactly_the_variables_the_settings_read():
    services = load_services()
    wanted = settings_environment()
    for name, service in project_services(services).items():
        assert set(service["environment"]) == wanted, (
            f"{name}: missing {sorted(wanted - set(service['environment']))}, "
            f"unread {sorted(set(service['environment']) - wanted)}"
        )


def test_two_daphne_processes_on_one_image_share_postgres_and_redis():
    services = load_services()
    web = web_services(services)
    assert len(web) == 2
    first, second = web.values()
    assert first["image"] == second["image"]
    assert first["environment"] == second["environment"]
    env = first["environment"]
    assert env["DATABASE_URL"].startswith("postgres://")
    redis_host = re.match(r"redis://([\w.-]+):\d+/\d+$", env["REDIS_URL"])
    assert redis_host, env["REDIS_URL"]
    assert services[redis_host.group(1)]["image"].startswith("redis")
    for name, service in web.items():
        assert str(service.get("restart")) in {"always", "unless-stopped", "on-failure"}, name
        words = command_words(service)
        assert words[-1] == "config.asgi:application", name
        assert "--websocket-max-message-size" in words, name
        port = words[words.index("--port") + 1]
        probe = " ".join(service["healthcheck"]["test"])
        assert f"127.0.0.1:{port}/" in probe, name


def test_migrate_runs_once_before_any_web_process():
    services = load_services()
    migrate = [n for n, s in services.items() if command_words(s)[-3:-1] == ["manage.py", "migrate"]]
    assert len(migrate) == 1
    (step,) = migrate
    assert is_one_shot(services[step])
    assert services[step]["environment"] == next(iter(web_services(services).values()))["environment"]
    for name in web_services(services):
        assert services[name]["depends_on"][step]["condition"] == "service_completed_successfully"


def test_entry_point_publishes_one_port_and_balances_both_web_processes():
    services = load_services()
    web = web_services(services)
    entry = [n for n, s in services.items() if s.get("ports")]
    assert len(entry) == 1
    proxy = services[entry[0]]
    assert "haproxy" in proxy["image"]
    assert any(str(v).startswith("./deploy/haproxy.cfg:") for v in proxy["volumes"])
    for name in web:
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
    sections = haproxy_sections()
    backends = {k: v for k, v in sections.items() if k.startswith("backend ")}
    assert backends
    for lines in backends.values():
        servers = {words[1]: words[2] for words in lines if words[0] == "server"}
        assert servers == {name: f"{name}:8000" for name in web}


def test_room_sockets_hash_on_the_room_code_consistently():
    sections = haproxy_sections()
    rooms = sections["backend rooms"]
    assert ["balance", "hash", "path,field(4,/)"] in rooms
    assert ["hash-type", "consistent"] in rooms
    frontend = next(v for k, v in sections.items() if k.startswith("frontend "))
    assert ["acl", "room_path", "path_beg", "/ws/rooms/", "/api/rooms/"] in frontend
    # haproxy's field(4,/) counts from 1 and the path starts with "/": the room code.
    for path in ("/ws/rooms/Kq3xZ9/", "/api/rooms/Kq3xZ9/seats/"):
        assert path.split("/")[4 - 1] == "Kq3xZ9"


def test_static_files_are_collected_into_the_image_and_served_by_whitenoise():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "collectstatic --noinput" in dockerfile
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in SETTINGS.read_text()


def test_health_probes_use_hosts_the_settings_allow():
    services = load_services()
    env = next(iter(web_services(services).values()))["environment"]
    default = re.fullmatch(r"\$\{ALLOWED_HOSTS:-([^}]*)\}", env["ALLOWED_HOSTS"])
    assert default, env["ALLOWED_HOSTS"]
    allowed = set(default.group(1).split(","))
    assert {"127.0.0.1", "localhost"} <= allowed


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_accepts_its_configuration():
    run = subprocess.run(
        ["haproxy", "-c", "-f", str(HAPROXY)], capture_output=True, text=True, timeout=30, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
