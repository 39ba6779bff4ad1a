"""The installable app (docs/frontend.md, "The installable app"): the manifest and its icons,
every page linking them, and a room page that opens with no network and picks the game up
when the network is back."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from playwright.sync_api import Browser, expect

from frontend.icons import SIZES, draw, icon_path, png
from lobby.services import room_create
from tests.e2e.conftest import screenshot
from tests.e2e.driver import TIMEOUT_MS, create_room

KEPT = ("() => caches.open('dominoes-pages').then((c) => c.match(location.href)).then((r) => !!r)")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("size", SIZES)
def test_each_icon_is_the_picture_its_source_draws(size: int) -> None:
    data = icon_path(size).read_bytes()
    assert png_size(data) == (size, size)
    assert data == png(draw(size)), "run python -m frontend.icons and commit the icons"


def test_the_manifest_makes_the_site_installable(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"].startswith("#")
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"192x192", "512x512"}
    for size in SIZES:
        src = sizes[f"{size}x{size}"]["src"]
        assert src.startswith(settings.STATIC_URL)
        found = finders.find(src.removeprefix(settings.STATIC_URL))
        assert found, src
        assert png_size(Path(str(found)).read_bytes()) == (size, size)


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_worker_never_touches_the_api(client: Client) -> None:
    room, _token = room_create("draw", 2, {}, "Ann")
    for path in ["/", f"/r/{room.code}", f"/r/{room.code}/tv", "/sheets/", "/sheets/line/", "/r/NOPE99"]:
        html = client.get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert "frontend/js/app-shell.js" in html, path
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    script = worker.content.decode()
    assert "/static/frontend/js/room.js" in script
    # Pages and static files only: the API and the sockets are left to the network.
    assert "(api|ws|static|admin)" in script


@pytest.mark.e2e
def test_a_room_page_reloaded_without_network_shows_its_shell_then_picks_the_game_up(browser: Browser, daphne_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    code = create_room(page, daphne_url, "draw", "Ann", players=2)
    # The worker takes charge and keeps this page (it came from the network before the worker).
    # Installing fetches every static file; on a busy machine that outlasts the default wait.
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)", timeout=60_000)
    if not page.evaluate("() => !!navigator.serviceWorker.controller"):
        page.reload()  # an active worker that has not yet claimed the page controls it once reloaded
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.wait_for_function(KEPT)

    context.set_offline(True)
    page.reload()
    expect(page.locator("#app")).to_have_attribute("data-code", code)
    expect(page.locator("#connection")).to_contain_text("Reconnecting", timeout=10_000)
    expect(page.locator("#error")).to_be_hidden()
    screenshot(page, "offline-room-shell", full_page=False)

    context.set_offline(False)
    expect(page.locator("#connection.ok")).to_have_count(1, timeout=6_000)
    expect(page.locator("#seats li[data-seat='0']")).to_contain_text("Ann")

    # A page this device never opened says there is no network, not the browser's error page.
    context.set_offline(True)
    page.goto(f"{daphne_url}/sheets/mexican_train/")
    expect(page.locator("#offline-title")).to_have_text("No network")
    context.set_offline(False)
    page.wait_for_url("**/sheets/mexican_train/")
    expect(page.locator("#offline-title")).to_have_count(0, timeout=10_000)
    context.close()
