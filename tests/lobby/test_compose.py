"""docker-compose.yml holds together: no Docker engine runs in CI, so the file is checked as data.

Each service must have what it needs to start on a fresh host (an image, a command, health
checks its dependants wait on), and the web processes must get exactly the environment that
config/settings.py reads: a variable the settings read but compose forgets silently falls back
to an embedded default (SQLite, an embedded Redis) in production.

The TLS front (Caddy, deploy/Caddyfile) is checked as data too, then, when the binaries are
installed, for real: `caddy adapt` and `caddy validate` (both offline), and the whole chain
Caddy -> haproxy -> daphne with the compose file's daphne options, where a client that forges
X-Forwarded-For still reaches daphne under its own address.
"""

from __future__ import annotations

import ast
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

import tasks
from config.hosting import hosting
from tests.lobby.procs import Haproxy, free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
SETTINGS = ROOT / "config" / "settings.py"
HAPROXY = ROOT / "deploy" / "haproxy.cfg"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
HEALTH_CONDITIONS = {"service_healthy", "service_completed_successfully"}
#: What a host running `docker compose up` sets; everything else takes the file's defaults.
DOMAIN = "games.example.org"
HOST_ENV = {"DOMAIN": DOMAIN}
#: Stands in for a container's own network address.
CONTAINER_ADDRESS = "172.18.0.5"


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
        if (
            key is None
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.args
            and node.func.id in wrappers
        ):
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


def haproxy_bind_port() -> int:
    (frontend,) = (v for k, v in haproxy_sections().items() if k.startswith("frontend "))
    (bind,) = (words for words in frontend if words[0] == "bind")
    return int(bind[1].rsplit(":", 1)[1])


class MissingVariable(LookupError):
    """A `${NAME:?message}` whose variable is unset: compose refuses to start."""


INTERPOLATION = re.compile(r"\$(?:(\$)|\{(\w+)(?:(:?[-?])([^}]*))?\})")


def interpolate(value: str, env: Mapping[str, str]) -> str:
    """`value` as compose reads it from a shell whose environment is `env`: ${NAME},
    ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error} and $$."""

    def one(found: re.Match[str]) -> str:
        if found.group(1):
            return "$"
        name, operator, argument = found.group(2), found.group(3), found.group(4) or ""
        given = env.get(name)
        unset = given is None or (operator is not None and operator.startswith(":") and not given)
        if operator is None:
            return given or ""
        if operator.endswith("-"):
            return argument if unset else str(given)
        if unset:
            raise MissingVariable(f"{name}: {argument}")
        return str(given)

    return INTERPOLATION.sub(one, value)


def environment(service: dict[str, Any], env: Mapping[str, str] = HOST_ENV) -> dict[str, str]:
    return {name: interpolate(str(value), env) for name, value in (service.get("environment") or {}).items()}


def volume_mounts(service: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(source, target, mode) of each short-syntax volume; mode "rw" when not given."""
    mounts = []
    for entry in service.get("volumes", []):
        source, target, *mode = str(entry).split(":")
        mounts.append((source, target, mode[0] if mode else "rw"))
    return mounts


def is_named_volume(source: str) -> bool:
    return not source.startswith((".", "/", "~"))


def declared_volumes() -> set[str]:
    return set(yaml.safe_load(COMPOSE.read_text()).get("volumes") or {})


def published_ports(service: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(host port, container port, protocol) of each short-syntax `ports` entry."""
    published = set()
    for entry in service.get("ports", []):
        mapping, _, protocol = str(entry).partition("/")
        *_, host, container = mapping.split(":")
        published.add((host, container, protocol or "tcp"))
    return published


def option_value(words: list[str], option: str) -> str:
    return words[words.index(option) + 1]


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of deploy/Dockerfile, continuation lines joined."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending += " " + line.removesuffix("\\").strip()
        if line.endswith("\\"):
            continue
        instruction, _, arguments = pending.strip().partition(" ")
        instructions.append((instruction.upper(), " ".join(arguments.split())))
        pending = ""
    return instructions


# The Caddyfile as data: lines of words, `{` at a line's end opening a block, `}` alone
# closing it, `#` starting a comment, "double quotes" making one word (possibly empty).


@dataclass
class CaddyNode:
    words: list[str]
    body: list[CaddyNode] = field(default_factory=list)

    def find(self, name: str) -> list[CaddyNode]:
        return [node for node in self.body if node.words[:1] == [name]]

    def walk(self) -> Iterator[CaddyNode]:
        for node in self.body:
            yield node
            yield from node.walk()


CADDY_WORD = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')


def caddy_words(line: str) -> list[str]:
    words = []
    for found in CADDY_WORD.finditer(line):
        if found.group(1) is not None:
            words.append(re.sub(r"\\(.)", r"\1", found.group(1)))
        elif found.group(2).startswith("#"):
            break
        else:
            words.append(found.group(2))
    return words


def caddy_parse(text: str) -> CaddyNode:
    root = CaddyNode([])
    stack = [root]
    for number, line in enumerate(text.splitlines(), 1):
        words = caddy_words(line)
        if not words:
            continue
        if words == ["}"]:
            stack.pop()
            assert stack, f"line {number}: '}}' closes no block"
            continue
        opens = words[-1] == "{"
        node = CaddyNode(words[:-1] if opens else words)
        stack[-1].body.append(node)
        if opens:
            stack.append(node)
    assert len(stack) == 1, f"{len(stack) - 1} block(s) left open"
    return root


def caddy_sites() -> tuple[CaddyNode | None, list[CaddyNode]]:
    """The global options block (None when absent) and the site blocks."""
    top = caddy_parse(CADDYFILE.read_text()).body
    options = top[0] if top and top[0].words == [] else None
    sites = [node for node in top if node is not options and not node.words[0].startswith("(")]
    return options, sites


def front_service(services: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    published = [(name, s) for name, s in services.items() if s.get("ports")]
    assert len(published) == 1, f"services publishing ports: {[name for name, _ in published]}"
    return published[0]


def test_caddyfile_reader_reads_blocks_quotes_and_comments() -> None:
    root = caddy_parse(
        '# head\n{\n\temail "{$E}"\n}\n\n{$D} {\n\t@m not host a b  # why\n'
        "\treverse_proxy up:1 {\n\t\theader_down -Server\n\t}\n}\n"
    )
    options, site = root.body
    assert options.words == [] and options.body[0].words == ["email", "{$E}"]
    assert site.words == ["{$D}"]
    assert [node.words for node in site.body] == [["@m", "not", "host", "a", "b"], ["reverse_proxy", "up:1"]]
    assert site.find("reverse_proxy")[0].body[0].words == ["header_down", "-Server"]
    assert caddy_words('x "" "a \\"b\\""') == ["x", "", 'a "b"']
    with pytest.raises(AssertionError):
        caddy_parse("a {\n")


def test_interpolation_follows_compose() -> None:
    env = {"SET": "v", "EMPTY": ""}
    assert interpolate("${SET:-d}/${EMPTY:-d}/${EMPTY-d}/${UNSET-d}/${UNSET}/$$x", env) == "v/d//d//$x"
    assert interpolate("https://${SET:?needed}", env) == "https://v"
    for missing in ("${UNSET:?needed}", "${EMPTY:?needed}", "${UNSET?needed}"):
        with pytest.raises(MissingVariable):
            interpolate(missing, env)
    assert interpolate("${EMPTY?needed}", env) == ""


def test_environment_reader_finds_every_form_settings_use() -> None:
    source = (
        "import os\nfrom os import environ\n"
        "A = os.environ.get('A', 'x')\nB = os.environ['B']\nC = os.getenv('C')\n"
        "D = 'D' in os.environ\nos.environ.setdefault('E', '1')\nF = environ.get('F')\n"
        "G = {'G': 1}.get('G')\n"
        "def _flag(name, default):\n    return os.environ.get(name, default) == '1'\n"
        "H = _flag('H', '0')\n"
    )
    assert environment_reads(source) == {"A", "B", "C", "D", "E", "F", "H"}


def test_settings_read_the_deployment_variables() -> None:
    wanted = {"DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS", "HOST", "PORT", "PUBLIC_URL", "VAR_DIR"}
    assert wanted <= settings_environment()


def test_every_service_has_an_image_a_command_and_a_way_to_report_health() -> None:
    services = load_services()
    assert services
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        assert command_words(service), f"{name} has no command"
        if not is_one_shot(service):
            assert "healthcheck" in service, f"{name} has no healthcheck"
            test = service["healthcheck"]["test"]
            assert test[0] in {"CMD", "CMD-SHELL"}, name


def test_every_dependency_waits_on_health_of_a_service_that_reports_it() -> None:
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


def test_project_services_get_environment_and_wait_for_their_stores() -> None:
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


def test_web_services_get_exactly_the_variables_the_settings_read() -> None:
    services = load_services()
    wanted = settings_environment()
    for name, service in project_services(services).items():
        assert set(service["environment"]) == wanted, (
            f"{name}: missing {sorted(wanted - set(service['environment']))}, "
            f"unread {sorted(set(service['environment']) - wanted)}"
        )


def test_two_daphne_processes_on_one_image_share_postgres_and_redis() -> None:
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


def test_migrate_runs_once_before_any_web_process() -> None:
    services = load_services()
    migrate = [n for n, s in services.items() if command_words(s)[-3:-1] == ["manage.py", "migrate"]]
    assert len(migrate) == 1
    (step,) = migrate
    assert is_one_shot(services[step])
    assert services[step]["environment"] == next(iter(web_services(services).values()))["environment"]
    for name in web_services(services):
        assert services[name]["depends_on"][step]["condition"] == "service_completed_successfully"


def test_haproxy_balances_both_web_processes_and_publishes_no_port() -> None:
    services = load_services()
    web = web_services(services)
    (proxy,) = (s for s in services.values() if "haproxy" in str(s.get("image", "")))
    assert not proxy.get("ports"), "haproxy is reached through Caddy only"
    assert ("./deploy/haproxy.cfg", option_value(command_words(proxy), "-f"), "ro") in volume_mounts(proxy)
    for name in web:
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
    sections = haproxy_sections()
    backends = {k: v for k, v in sections.items() if k.startswith("backend ")}
    assert backends
    for lines in backends.values():
        servers = {words[1]: words[2] for words in lines if words[0] == "server"}
        assert servers == {
            name: f"{name}:{option_value(command_words(s), '--port')}" for name, s in web.items()
        }


def test_room_sockets_hash_on_the_room_code_consistently() -> None:
    sections = haproxy_sections()
    rooms = sections["backend rooms"]
    assert ["balance", "hash", "path,field(4,/)"] in rooms
    assert ["hash-type", "consistent"] in rooms
    frontend = next(v for k, v in sections.items() if k.startswith("frontend "))
    assert ["acl", "room_path", "path_beg", "/ws/rooms/", "/api/rooms/"] in frontend
    # haproxy's field(4,/) counts from 1 and the path starts with "/": the room code.
    for path in ("/ws/rooms/Kq3xZ9/", "/api/rooms/Kq3xZ9/seats/"):
        assert path.split("/")[4 - 1] == "Kq3xZ9"


def test_static_files_are_collected_into_the_image_and_served_by_whitenoise() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "collectstatic --noinput" in dockerfile
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in SETTINGS.read_text()


def test_health_probes_use_hosts_the_settings_allow() -> None:
    services = load_services()
    checks = [words for k, v in haproxy_sections().items() if k.startswith("backend ") for words in v]
    haproxy_hosts = [
        words[words.index("Host") + 1] for words in checks if words[:2] == ["http-check", "send"]
    ]
    assert haproxy_hosts
    for name, service in web_services(services).items():
        allowed = hosting(environment(service), addresses=[CONTAINER_ADDRESS]).allowed_hosts
        probe = re.search(r"http://([^/:]+)(:\d+)?/", " ".join(service["healthcheck"]["test"]))
        assert probe and probe.group(1) in allowed, name
        for host in haproxy_hosts:
            assert host in allowed, (name, host)


def test_every_named_volume_is_declared_and_every_mounted_file_exists() -> None:
    declared = declared_volumes()
    for name, service in load_services().items():
        for source, _target, _mode in volume_mounts(service):
            if is_named_volume(source):
                assert source in declared, f"{name}: volume {source} is not declared"
            else:
                assert (ROOT / source).exists(), f"{name} mounts {source}, which does not exist"


def test_the_processes_share_one_generated_secret_key() -> None:
    services = load_services()
    built = project_services(services)
    var_volumes = set()
    for name, service in built.items():
        env = environment(service)
        assert env["SECRET_KEY"] == "", f"{name}: without SECRET_KEY the settings generate one"
        assert environment(service, {**HOST_ENV, "SECRET_KEY": "given"})["SECRET_KEY"] == "given"
        mounts = {target: source for source, target, _mode in volume_mounts(service)}
        assert is_named_volume(mounts.get(env["VAR_DIR"], ".")), f"{name}: VAR_DIR is on no named volume"
        var_volumes.add(mounts[env["VAR_DIR"]])
    assert len(var_volumes) == 1, f"the key would differ between processes: {sorted(var_volumes)}"
    # A named volume mounted for the first time takes the image directory's owner: the user
    # the image runs as must own VAR_DIR, or the key cannot be written.
    instructions = dockerfile_instructions()
    user = [arguments for instruction, arguments in instructions if instruction == "USER"][-1]
    runs = " && ".join(arguments for instruction, arguments in instructions if instruction == "RUN")
    var_dir = environment(next(iter(built.values())))["VAR_DIR"]
    assert re.search(rf"chown -R {re.escape(user)}(:\S+)? {re.escape(var_dir)}( |$)", runs), runs


# The TLS front ------------------------------------------------------------------------------


def test_caddy_is_the_one_entry_point_on_80_and_443() -> None:
    _name, front = front_service(load_services())
    assert str(front["image"]).startswith("caddy:")
    # 443: HTTPS and WSS (and HTTP/3 over UDP); 80: the certificate authority's challenge
    # and the redirect to https://.
    assert published_ports(front) == {("80", "80", "tcp"), ("443", "443", "tcp"), ("443", "443", "udp")}
    words = command_words(front)
    assert words[:2] == ["caddy", "run"]
    assert option_value(words, "--adapter") == "caddyfile"
    assert ("./deploy/Caddyfile", option_value(words, "--config"), "ro") in volume_mounts(front)
    # Certificates, keys and the ACME account survive a restart or a new container.
    mounts = {target: source for source, target, _mode in volume_mounts(front)}
    for directory in ("/data", "/config"):
        assert is_named_volume(mounts[directory]) and mounts[directory] in declared_volumes(), directory
    assert str(front.get("restart")) == "unless-stopped"


def test_caddy_serves_the_domain_and_proxies_to_haproxy() -> None:
    services = load_services()
    _name, front = front_service(services)
    options, sites = caddy_sites()
    assert [site.words for site in sites] == [["{$DOMAIN}"]]
    (site,) = sites
    assert environment(front)["DOMAIN"] == DOMAIN
    with pytest.raises(MissingVariable):
        environment(front, {})
    (proxy,) = site.find("reverse_proxy")
    (target,) = proxy.words[1:]
    host, port = target.removeprefix("http://").rsplit(":", 1)
    assert "haproxy" in str(services[host]["image"])
    assert int(port) == haproxy_bind_port()
    assert front["depends_on"][host]["condition"] == "service_healthy"
    # The client's address: Caddy trusts no incoming X-Forwarded-* header (no trusted
    # proxies) and writes X-Forwarded-For itself, so nothing here may hand that over.
    nodes = [*(options.walk() if options else []), *site.walk()]
    assert not [node.words for node in nodes if node.words[0] == "trusted_proxies"]
    assert not [node.words for node in nodes if node.words[:2] == ["header_up", "X-Forwarded-For"]]


def test_caddy_compresses_and_keeps_browsers_on_https_except_on_localhost() -> None:
    _options, (site,) = caddy_sites()
    (encode,) = site.find("encode")
    assert {"zstd", "gzip"} <= set(encode.words[1:])
    headers = [node.words[1:] for node in site.find("header")]
    (hsts,) = [words for words in headers if "Strict-Transport-Security" in words]
    max_age = re.fullmatch(r"max-age=(\d+).*", hsts[hsts.index("Strict-Transport-Security") + 1])
    assert max_age and int(max_age.group(1)) >= 365 * 24 * 3600
    # HSTS on localhost would send every http://localhost:<port> of that browser to https://.
    (matcher,) = [node.words for node in site.body if node.words[0] == hsts[0]]
    assert matcher[1:] == ["not", "host", "localhost"]
    assert ["-Server"] in headers


def test_web_processes_link_the_domain_over_https() -> None:
    services = load_services()
    _name, front = front_service(services)
    for domain in (DOMAIN, "dominoes.example.net"):
        assert environment(front, {"DOMAIN": domain})["DOMAIN"] == domain
        for name, service in web_services(services).items():
            env = environment(service, {"DOMAIN": domain})
            assert env["PUBLIC_URL"] == f"https://{domain}", name
            site = hosting(env, addresses=[CONTAINER_ADDRESS])
            assert site.share_url == f"https://{domain}"
            assert domain in site.allowed_hosts
            assert f"https://{domain}" in site.trusted_origins
    for name, service in web_services(services).items():
        with pytest.raises(MissingVariable):
            environment(service, {})
        # HOST and PORT say what daphne's command binds: the settings derive the rest from them.
        site = hosting(environment(service), addresses=[CONTAINER_ADDRESS])
        words = command_words(service)
        assert site.bind == option_value(words, "--bind"), name
        assert site.port == int(option_value(words, "--port")), name
        assert "--proxy-headers" in words, name


needs_caddy = pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")


def caddy(arguments: list[str], home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """caddy with its storage and configuration under `home`: no run touches the user's own."""
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        **env,
    }
    return subprocess.run(
        ["caddy", *arguments], env=environ, capture_output=True, text=True, timeout=60, check=False
    )


def caddy_adapted(home: Path, **env: str) -> dict[str, Any]:
    run = caddy(["adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"], home, **env)
    assert run.returncode == 0, run.stderr
    config = json.loads(run.stdout)
    assert isinstance(config, dict)
    return config


def json_objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from json_objects(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from json_objects(inner)


@needs_caddy
@pytest.mark.parametrize("domain", [DOMAIN, "localhost"])
def test_caddy_adapts_and_validates_its_configuration(domain: str, tmp_path: Path) -> None:
    config = caddy_adapted(tmp_path, DOMAIN=domain)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    hosts = [
        host
        for route in server["routes"]
        for match in route.get("match", [])
        for host in match.get("host", [])
    ]
    assert hosts == [domain]
    (proxy,) = [o for o in json_objects(server) if o.get("handler") == "reverse_proxy"]
    assert [u["dial"] for u in proxy["upstreams"]] == [f"proxy:{haproxy_bind_port()}"]
    # A public name gets its certificate from the ACME authorities; localhost from Caddy's own.
    policies = config["apps"].get("tls", {}).get("automation", {}).get("policies", [])
    issuers = {issuer["module"] for policy in policies for issuer in policy.get("issuers", [])}
    assert ("acme" in issuers) == (domain != "localhost")
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False
    # `caddy validate` loads and provisions every module without starting any: no listener,
    # no certificate request, no network.
    run = caddy(["validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"], tmp_path, DOMAIN=domain)
    assert run.returncode == 0, run.stdout + run.stderr


@needs_caddy
def test_caddy_registers_with_the_email_only_when_one_is_given(tmp_path: Path) -> None:
    def emails(**env: str) -> list[str | None]:
        config = caddy_adapted(tmp_path, DOMAIN=DOMAIN, **env)
        return [o.get("email") for o in json_objects(config) if o.get("module") in {"acme", "zerossl"}]

    assert emails() and set(emails()) == {None}
    assert set(emails(ACME_EMAIL="")) == {None}
    assert set(emails(ACME_EMAIL="family@example.org")) == {"family@example.org"}


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_accepts_its_configuration() -> None:
    run = subprocess.run(
        ["haproxy", "-c", "-f", str(HAPROXY)], capture_output=True, text=True, timeout=30, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr


# The whole chain, Caddy -> haproxy -> daphne, on loopback ports --------------------------

#: An ASGI application that answers every request and socket with what daphne made of it.
ECHO_APP = """
import json


def seen(scope):
    headers = [[name.decode(), value.decode()] for name, value in scope["headers"]]
    return json.dumps({"client": scope.get("client"), "scheme": scope.get("scheme"), "headers": headers})


async def app(scope, receive, send):
    if scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": seen(scope).encode()})
    elif scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": seen(scope)})
        await send({"type": "websocket.close"})
"""

#: What a client may write to pass for someone else.
FORGED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Port": "1", "X-Forwarded-Proto": "http"}


@dataclass
class Chain:
    domain: str
    port: int
    root_certificate: Path
    haproxy_port: int

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def get(self, path: str, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
        """GET over TLS to the front on 127.0.0.1, under the site's name (SNI and Host)."""
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        connection = http.client.HTTPConnection(self.domain, self.port, timeout=5)
        connection.sock = self.context().wrap_socket(raw, server_hostname=self.domain)
        try:
            connection.request("GET", path, headers=dict(headers))
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def front_config(domain: str, https_port: int, upstream: str, storage: Path) -> dict[str, Any]:
    """deploy/Caddyfile as Caddy reads it, moved to loopback ports in front of `upstream`.

    The certificate comes from Caddy's own authority (no network here), whose root stays
    out of this machine's trust store; everything else is the file's."""
    config = caddy_adapted(storage, DOMAIN=domain)
    config["admin"] = {"disabled": True}
    config["storage"] = {"module": "file_system", "root": str(storage / "data")}
    http_app = config["apps"]["http"]
    http_app["https_port"] = https_port
    http_app["http_port"] = free_port()
    for server in http_app["servers"].values():
        server["listen"] = [f"127.0.0.1:{https_port}"]
        server["protocols"] = ["h1", "h2"]
        server["automatic_https"] = {"disable_redirects": True}
    for handler in json_objects(config):
        if handler.get("handler") == "reverse_proxy":
            handler["upstreams"] = [{"dial": upstream}]
    for policy in config["apps"].get("tls", {}).get("automation", {}).get("policies", []):
        policy["issuers"] = [{"module": "internal"}]
    config["apps"].setdefault("pki", {}).setdefault("certificate_authorities", {}).setdefault("local", {})[
        "install_trust"
    ] = False
    return config


@pytest.fixture
def chain(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Chain]:
    domain = str(request.param)
    services = load_services()
    web = web_services(services)
    procs: list[subprocess.Popen[bytes]] = []
    haproxy: Haproxy | None = None
    try:
        # daphne with the compose file's own options, the application swapped for the echo.
        (tmp_path / "echo_app.py").write_text(ECHO_APP)
        daphne_port = free_port()
        words = command_words(next(iter(web.values())))
        words[words.index("--bind") + 1] = "127.0.0.1"
        words[words.index("--port") + 1] = str(daphne_port)
        words[-1] = "echo_app:app"
        local = Path(sys.executable).with_name(words[0])
        words[0] = str(local) if local.exists() else shutil.which(words[0]) or words[0]
        with open(tmp_path / "daphne.log", "ab") as log:
            procs.append(
                subprocess.Popen(
                    words,
                    cwd=tmp_path,
                    env={**os.environ, "PYTHONPATH": str(tmp_path)},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        wait_for_port(daphne_port, proc=procs[-1])
        haproxy = Haproxy.start(tmp_path, dict.fromkeys(web, daphne_port))
        port = free_port()
        config = tmp_path / "caddy.json"
        config.write_text(json.dumps(front_config(domain, port, f"127.0.0.1:{haproxy.port}", tmp_path)))
        with open(tmp_path / "caddy.log", "ab") as log:
            procs.append(
                subprocess.Popen(
                    ["caddy", "run", "--config", str(config)],
                    env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        root = tmp_path / "data" / "pki" / "authorities" / "local" / "root.crt"
        made = Chain(domain, port, root, haproxy.port)
        deadline = time.monotonic() + 30
        while True:
            assert procs[-1].poll() is None, (tmp_path / "caddy.log").read_text()
            try:
                if made.root_certificate.exists() and made.get("/healthz", {})[0] == 200:
                    break
            except (OSError, http.client.HTTPException):
                pass
            assert time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
            time.sleep(0.2)
        yield made
    finally:
        for proc in reversed(procs):
            stop(proc)
        if haproxy is not None:
            haproxy.stop()


def straight_to_haproxy(port: int, headers: Mapping[str, str]) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/", headers=dict(headers))
        seen = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    assert isinstance(seen, dict)
    return seen


@needs_caddy
@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
@pytest.mark.parametrize("chain", [DOMAIN, "localhost"], indirect=True)
def test_through_caddy_and_haproxy_daphne_sees_the_real_client(chain: Chain) -> None:
    status, headers, body = chain.get("/api/rooms/Kq3xZ9/", FORGED)
    assert status == 200
    seen = json.loads(body)
    # The address the test connected from, not the one it wrote; no port, since the
    # client-written X-Forwarded-Port never reaches daphne; the scheme Caddy served.
    assert seen["client"] == ["127.0.0.1", 0]
    assert seen["scheme"] == "https"
    forwarded = [value for name, value in seen["headers"] if name == "x-forwarded-for"]
    assert forwarded == ["127.0.0.1"]
    assert "server" not in headers
    assert ("strict-transport-security" in headers) == (chain.domain != "localhost")

    from websockets.sync.client import connect

    raw = socket.create_connection(("127.0.0.1", chain.port), timeout=5)
    url = f"wss://{chain.domain}:{chain.port}/ws/rooms/Kq3xZ9/"
    with connect(url, sock=raw, ssl=chain.context(), additional_headers=FORGED, open_timeout=10) as ws:
        seen = json.loads(ws.recv(timeout=10))
    assert seen["client"] == ["127.0.0.1", 0]

    # haproxy on its own passes on the address its nearest proxy wrote, the last one, or
    # else the address the request came from; never a second header daphne would skip.
    seen = straight_to_haproxy(chain.haproxy_port, {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"})
    assert seen["client"] == ["198.51.100.7", 0]
    assert [value for name, value in seen["headers"] if name == "x-forwarded-for"] == ["198.51.100.7"]
    assert straight_to_haproxy(chain.haproxy_port, {})["client"] == ["127.0.0.1", 0]


def test_the_image_gives_its_processes_the_allocator_settings_serve_gives() -> None:
    settings = [word for instruction, words in dockerfile_instructions() if instruction == "ENV"
                for word in words.split()]
    for name, value in tasks.SERVER_ENV.items():
        assert f"{name}={value}" in settings, name
