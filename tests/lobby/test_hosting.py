"""Where the site is reached (docs/deployment.md): the link every page and answer shows, the
hosts accepted, the wrong links, and the files under var/ that stay the owner's."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from config.hosting import HostingError, hosting, public_url_parse, serve_message
from config.private_files import private_dir, private_file, secret_key
from lobby.models import Room
from tests.lobby.helpers import api

ROOT = Path(__file__).resolve().parents[2]
LAN = "192.168.1.20"


# The settings derived from HOST, PORT, PUBLIC_URL -------------------------------------------


def test_by_default_the_site_serves_every_interface_and_links_the_network_address() -> None:
    site = hosting({}, addresses=[LAN, "10.8.0.3"])
    assert site.bind == "0.0.0.0" and site.port == 8000
    assert site.share_url == f"http://{LAN}:8000"
    assert site.local_url == "http://127.0.0.1:8000"
    assert {LAN, "10.8.0.3", "localhost", "127.0.0.1"} <= set(site.allowed_hosts)
    assert "*" not in site.allowed_hosts
    assert f"http://{LAN}:8000" in site.trusted_origins
    message = serve_message(site)
    first, second = message.splitlines()
    assert f"http://{LAN}:8000/" in first and "127.0.0.1" not in first
    assert "this computer only" in second and "http://127.0.0.1:8000/" in second


def test_host_127_0_0_1_keeps_the_site_on_this_computer_and_its_link_on_loopback() -> None:
    site = hosting({"HOST": "127.0.0.1", "PORT": "9000"}, addresses=[LAN])
    assert site.loopback_only and site.addresses == ()
    assert site.share_url == "http://127.0.0.1:9000" and site.local_url is None
    assert LAN not in site.allowed_hosts
    assert "this computer only" in serve_message(site)


def test_public_url_is_the_base_of_every_link_and_joins_the_allowed_hosts() -> None:
    site = hosting({"PUBLIC_URL": "https://Dominoes.Example.org/"}, addresses=[LAN])
    assert site.public_url == "https://dominoes.example.org"
    assert site.share_url == "https://dominoes.example.org"
    assert "dominoes.example.org" in site.allowed_hosts and LAN in site.allowed_hosts
    assert site.trusted_origins[0] == "https://dominoes.example.org"
    assert site.link_base("http", "localhost:8000") == "https://dominoes.example.org"
    assert "Share this link: https://dominoes.example.org/" in serve_message(site)


@pytest.mark.parametrize(
    "raw",
    [
        "dominoes.example.org",
        "ftp://dominoes.example.org",
        "https://",
        "https://dominoes.example.org/games",
        "https://dominoes.example.org/?x=1",
        "https://user:pw@dominoes.example.org",
        "https://dominoes.example.org:99999",
    ],
)
def test_a_public_url_a_browser_could_not_open_as_the_site_root_is_refused(raw: str) -> None:
    with pytest.raises(HostingError, match="PUBLIC_URL"):
        public_url_parse(raw)


@pytest.mark.parametrize(
    ("env", "word"),
    [
        ({"PORT": "eighty"}, "PORT"),
        ({"PORT": "0"}, "PORT"),
        ({"HOST": "my laptop"}, "HOST"),
        ({"ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS"),
    ],
)
def test_other_settings_that_cannot_work_say_which_and_why(env: dict[str, Any], word: str) -> None:
    with pytest.raises(HostingError, match=word):
        hosting(env, addresses=[LAN])


def test_a_request_by_loopback_gets_the_network_address_with_its_port() -> None:
    site = hosting({}, addresses=[LAN])
    assert site.link_base("http", "localhost:8123") == f"http://{LAN}:8123"
    assert site.link_base("http", "127.0.0.1") == f"http://{LAN}"
    assert site.link_base("http", "[::1]:8000") == f"http://{LAN}:8000"
    assert site.link_base("http", f"{LAN}:8000") == f"http://{LAN}:8000"
    assert site.link_base("http", "kitchen-pc.local:8000") == "http://kitchen-pc.local:8000"
    private = hosting({"HOST": "127.0.0.1"}, addresses=[LAN])
    assert private.link_base("http", "localhost:8000") == "http://localhost:8000"


def test_the_machine_has_a_network_address_and_the_default_settings_accept_it() -> None:
    from django.conf import settings

    assert settings.HOSTING.addresses, "no non-loopback address found on this machine"
    assert settings.HOSTING.addresses[0] in settings.ALLOWED_HOSTS
    assert "*" not in settings.ALLOWED_HOSTS


def test_serve_refuses_a_public_url_without_a_scheme_before_starting_anything() -> None:
    env = {**os.environ, "PUBLIC_URL": "dominoes.example.org"}
    run = subprocess.run(
        [sys.executable, "tasks.py", "serve"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert run.returncode != 0
    assert "PUBLIC_URL" in run.stderr and "scheme" in run.stderr


# The link the pages and the API show --------------------------------------------------------


@pytest.mark.django_db
def test_the_room_link_names_the_network_address_when_the_host_browses_by_localhost(client: Client, settings: Settings) -> None:
    settings.HOSTING = hosting({}, addresses=[LAN])
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"}, None)
    code = made.json()["code"]
    local = Client(HTTP_HOST="localhost:8000")
    assert api(local, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Bo"}).json()[
        "url"
    ].startswith(f"http://{LAN}:8000/r/")
    html = local.get(f"/r/{code}").content.decode()
    assert f"http://{LAN}:8000/r/{code}" in html
    link = re.search(r'data-link="([^"]+)"', html)
    assert link is not None
    assert "localhost" not in link.group(1)
    room = api(local, "get", f"/api/rooms/{code}/").json()
    assert room["url"] == f"http://{LAN}:8000/r/{code}"


@pytest.mark.django_db
def test_under_public_url_every_link_and_qr_code_names_it(client: Client, settings: Settings) -> None:
    settings.HOSTING = hosting({"PUBLIC_URL": "https://dominoes.example.org"}, addresses=[LAN])
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"}).json()
    assert made["url"] == f"https://dominoes.example.org/r/{made['code']}"
    html = client.get(f"/r/{made['code']}").content.decode()
    assert f'data-link="https://dominoes.example.org/r/{made["code"]}"' in html
    assert "testserver" not in html


# Codes and wrong links ----------------------------------------------------------------------


@pytest.mark.django_db
def test_room_codes_are_case_insensitive_in_the_page_and_the_api(client: Client) -> None:
    made = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"}).json()
    code = made["code"]
    upper = code.upper()
    page = client.get(f"/r/{upper}")
    assert page.status_code == 200
    assert f'data-code="{code}"' in page.content.decode()
    assert client.get(f"/r/{upper}/").status_code == 200
    assert api(client, "get", f"/api/rooms/{upper}/").json()["code"] == code
    joined = api(client, "post", f"/api/rooms/{upper}/seats/", {"name": "Bob"})
    assert joined.status_code == 201
    moved = api(client, "patch", f"/api/rooms/{upper.title()}/seats/1/", {"move_to": 0}, made["token"])
    assert moved.status_code == 200 and moved.json()["code"] == code


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/r/zzzzzzzzzzzzzz", "/r/k7wq2", "/r/k7wq2mzr9xh4t!", "/r/", "/r", "/r/a/b/c", "/r/k7wq%20mzr"],
)
def test_a_wrong_room_link_gets_a_friendly_404_page_that_leads_home(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    html = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert "room was not found" in html
    assert 'href="/"' in html


@pytest.mark.django_db
def test_a_truncated_link_to_a_real_room_is_not_found_either(client: Client) -> None:
    code = api(client, "post", "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"}).json()["code"]
    assert client.get(f"/r/{code[:-1]}").status_code == 404
    assert Room.objects.count() == 1


def test_other_wrong_pages_say_so_and_the_api_answers_json(client: Client) -> None:
    page = client.get("/nothing-here/")
    assert page.status_code == 404 and "page was not found" in page.content.decode()
    api_answer = client.get("/api/nothing/")
    assert api_answer.status_code == 404
    assert api_answer.json()["code"] == "not_found"


# Files under var/ ---------------------------------------------------------------------------


def test_the_secret_key_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    folder = private_dir(tmp_path / "var")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    keys: list[str] = []
    threads = [threading.Thread(target=lambda: keys.append(secret_key(folder / "secret_key"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1 and len(keys[0]) >= 50
    assert stat.S_IMODE((folder / "secret_key").stat().st_mode) == 0o600
    assert secret_key(folder / "secret_key") == keys[0]
    assert sorted(p.name for p in folder.iterdir()) == ["secret_key"]


def test_an_existing_database_file_open_to_others_is_narrowed_to_its_owner(tmp_path: Path) -> None:
    database = tmp_path / "dominoes.sqlite3"
    database.write_bytes(b"")
    database.chmod(0o644)
    private_file(database)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    fresh = private_file(tmp_path / "new.sqlite3")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_fresh_var_folder_gets_a_private_key_and_database_from_the_settings(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY"}}
    env.update({"VAR_DIR": str(tmp_path / "var"), "REDIS_URL": env.get("REDIS_URL") or "redis://127.0.0.1:1/0"})
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup();"
        "from django.conf import settings; print(len(settings.SECRET_KEY))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) >= 50
    var = tmp_path / "var"
    assert stat.S_IMODE(var.stat().st_mode) == 0o700
    for name in ("secret_key", "dominoes.sqlite3"):
        assert stat.S_IMODE((var / name).stat().st_mode) == 0o600, name
