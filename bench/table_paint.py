"""The table's paint time in Chromium: from a `state` message to the frame painted, on a
10-player Mexican Train at a phone's size (390x844, touch), with the CPU slowed 4x.

One run records the state messages of a real round (a daphne with nine Easy AIs playing at
once, the tenth seat playing its first legal action from the page), then replays them one
at a time into a fresh page over a routed WebSocket, so every message is painted alone and
both ways are measured on the same messages:

- `update`: what the page does with a new state (it changes only what changed);
- `redraw`: the whole table drawn again from the same view (what a resize does, and what
  every state cost before the table kept its drawing between states).

Each is measured at CPU rates 1 and 4 (`Emulation.setCPUThrottlingRate`). The time runs from
the start of the page's message handler to a task queued right after the next animation
frame, i.e. after that frame was painted. Everything is bounded in time and stops by
itself. Usage (figures in docs/benchmarks.md):

    .venv/bin/python bench/table_paint.py --rounds 1

With `--against DIR` (another checkout, e.g. `git worktree add ../old HEAD~3`), a second page
runs that checkout's browser code (its frontend/static/frontend, served in place of this one's)
on the same server and the same recorded messages, the two pages taking turns message by
message, so that both versions are measured under the same load in one run.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.lobby.procs import daphne_group  # noqa: E402

PHONE_WIDTH, PHONE_HEIGHT = 390, 844
PLAYERS = 10
TIMEOUT_MS = 30_000

#: Keeps every frame the page receives (recording).
RECORD = """
window.__frames = [];
const add = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, fn, opts) {
  if (type === "message" && "binaryType" in this) {
    add.call(this, type, (e) => window.__frames.push(e.data), opts);
  }
  return add.call(this, type, fn, opts);
};
"""

#: Times each state message from the handler's start to the task after the next frame.
MEASURE = """
window.__paint = [];
const after = (t0, kind) => {
  const js = performance.now() - t0;
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => window.__paint.push({ kind, js, ms: performance.now() - t0 });
    ch.port2.postMessage(0);
  });
};
window.__redraw = () => { const t0 = performance.now(); window.dominoes.redraw(); after(t0, "redraw"); };
// On EventTarget: a routed page's WebSocket is the test driver's own class, not the native one.
const add = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, fn, opts) {
  if (type !== "message" || !("binaryType" in this)) return add.call(this, type, fn, opts);
  return add.call(this, type, function (e) {
    const state = typeof e.data === "string" && JSON.parse(e.data).type === "state";
    const t0 = performance.now();
    fn.call(this, e);
    if (state) after(t0, "update");
  }, opts);
};
"""


IDLE = "() => document.getAnimations().every((a) => a.playState !== 'running')"
#: The harness checks the page every 25 ms (a timer), never on every frame, so that it does not
#: draw frames of its own while a message is being painted.
POLL = 25
PAINTED = "n => window.__paint.length >= n"


def api(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", "Origin": base}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"{base}/api/{path}", data=json.dumps(body or {}).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def set_up_room(base: str) -> tuple[str, str]:
    """A 10-player Mexican Train: Ann in seat 0, nine Easy AIs, started."""
    room = {"game": "mexican_train", "players": PLAYERS, "name": "Ann", "grace_seconds": 3600}
    made = api(base, "rooms/", room)
    code, token = made["code"], made["token"]
    for seat in range(1, PLAYERS):
        api(base, f"rooms/{code}/seats/", {"seat": seat, "ai": "easy"}, token)
    api(base, f"rooms/{code}/start/", {}, token)
    return code, token


def record(context: Any, base: str, code: str, rounds: int, limit_s: float) -> list[str]:
    """Play `rounds` rounds from seat 0 (first legal action) and return every frame received."""
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(f"{base}/r/{code}")
    page.wait_for_function("() => !!window.dominoes.view", timeout=TIMEOUT_MS)
    first = page.evaluate("() => window.dominoes.view.round ?? 0")
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        v = page.evaluate(
            "() => { const d = window.dominoes; return {round: d.view.round, over: d.view.match_over,"
            " version: d.version, mine: d.view.to_move === d.seat && !d.waiting && d.view.legal.length > 0};"
            " }")
        if v["over"] or (v["round"] or 0) - first >= rounds:
            break
        if v["mine"]:
            page.evaluate("() => window.dominoes.act(window.dominoes.view.legal[0])")
        page.wait_for_function("v => window.dominoes.version !== v || window.dominoes.view.match_over",
                               arg=v["version"], polling=POLL, timeout=TIMEOUT_MS)
    frames: list[str] = page.evaluate("() => window.__frames")
    page.close()
    return frames


class Replay:
    """A fresh page that is sent the recorded frames one at a time; each update and a redraw timed.

    `static`: another checkout's frontend/static/frontend served in place of this one's (the
    page's script and CSS of another version, on the same server and the same messages)."""

    def __init__(self, context: Any, base: str, code: str, frames: list[str], rate: float,
                 *, static: Path | None = None) -> None:
        page = context.new_page()
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        if static is not None:
            page.route(re.compile(r"/static/frontend/"), lambda route: serve(route, static))
        page.add_init_script(MEASURE)
        sockets: list[Any] = []
        page.route_web_socket(re.compile(r"/ws/rooms/"), lambda ws: sockets.append(ws))  # noqa: PLW0108
        page.goto(f"{base}/r/{code}")
        page.wait_for_function("() => !!window.dominoes.socket && !!window.dominoes.room", timeout=TIMEOUT_MS)
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        self.ws = sockets[-1]
        for frame in frames:
            if json.loads(frame)["type"] in ("welcome", "room"):
                self.ws.send(frame)
                break
        self.counted = 0

    def step(self, frame: str) -> None:
        """One state message painted, then a redraw of the same view painted."""
        page = self.page
        self.counted += 1
        # A page in the background gets no animation frames: the one measured is in front.
        page.bring_to_front()
        # One message at a time, as players' moves come: after the last tile has slid in.
        page.wait_for_function(IDLE, polling=POLL, timeout=TIMEOUT_MS)
        self.ws.send(frame)
        page.wait_for_function(PAINTED, arg=2 * self.counted - 1, polling=POLL, timeout=TIMEOUT_MS)
        page.wait_for_function(IDLE, polling=POLL, timeout=TIMEOUT_MS)
        page.evaluate("() => window.__redraw()")
        page.wait_for_function(PAINTED, arg=2 * self.counted, polling=POLL, timeout=TIMEOUT_MS)

    def finish(self) -> dict[str, list[float]]:
        paint: list[dict[str, Any]] = self.page.evaluate("() => window.__paint")
        if self.errors:
            raise RuntimeError(f"the page failed while replaying: {self.errors[:3]}")
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        self.page.close()
        # The first state draws the table from nothing either way: it is left out of both.
        update = [p for p in paint if p["kind"] == "update"][1:]
        redraw = [p for p in paint if p["kind"] == "redraw"][1:]
        return {"update": [p["ms"] for p in update], "redraw": [p["ms"] for p in redraw],
                "update_js": [p["js"] for p in update], "redraw_js": [p["js"] for p in redraw]}


MIME = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


def serve(route: Any, static: Path) -> None:
    """Answer a request for /static/frontend/... with the file of another checkout."""
    rel = route.request.url.split("/static/frontend/", 1)[1].split("?", 1)[0]
    path = (static / rel).resolve()
    if static.resolve() not in path.parents or not path.is_file():
        route.fulfill(status=404, body="")
        return
    route.fulfill(status=200, body=path.read_bytes(),
                  headers={"Content-Type": MIME.get(path.suffix, "application/octet-stream")})


def replay(context: Any, base: str, code: str, frames: list[str], rate: float,
           *, other: Path | None = None) -> list[dict[str, list[float]]]:
    """Send the recorded frames one by one into a fresh page (and, with `other`, into a second
    page running that checkout's browser code, the two taking turns message by message, the
    first to go alternating); time each update and a redraw."""
    pages = [Replay(context, base, code, frames, rate)]
    if other is not None:
        static = other / "frontend" / "static" / "frontend"
        pages.append(Replay(context, base, code, frames, rate, static=static))
    states = [f for f in frames if json.loads(f)["type"] == "state"]
    for n, frame in enumerate(states):
        for page in pages[n % 2:] + pages[:n % 2]:
            page.step(frame)
    return [page.finish() for page in pages]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 1), "p95": round(p95, 1),
            "max": round(ordered[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="rounds of Mexican Train to record")
    parser.add_argument("--rates", default="1,4", help="CPU slow-down rates to measure at")
    parser.add_argument("--limit", type=float, default=240.0, help="seconds the recording may take at most")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout (a git worktree of an older commit): its browser code is"
                             " replayed the same messages in the same run, taking turns with this one's")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Debian's chromium is needed (shutil.which('chromium') is None)")
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS

    server_env = {"AI_MOVE_DELAY": "0", "DEBUG": "1"}
    with daphne_group(1, extra_env=server_env) as (_stores, servers), sync_playwright() as pw:
        base = servers[0].url
        code, token = set_up_room(base)
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT}, is_mobile=True, has_touch=True,
            # No service worker: it would answer the static files from its cache, past the
            # routes that serve another checkout's files with --against.
            service_workers="block",
        )
        seat = json.dumps({"token": token, "seat": 0})
        context.add_init_script(f"localStorage.setItem('dominoes.room.{code}', {json.dumps(seat)})")
        frames = record(context, base, code, args.rounds, args.limit)
        states = sum(1 for f in frames if json.loads(f)["type"] == "state")
        results: dict[str, Any] = {"players": PLAYERS, "viewport": "390x844", "states": states,
                                   "chromium": browser.version, "rates": {}}
        print(f"recorded {states} state messages of a {PLAYERS}-player Mexican Train", flush=True)
        names = ["this"] + ([args.against.resolve().name] if args.against else [])
        for rate in [float(r) for r in args.rates.split(",")]:
            runs = replay(context, base, code, frames, rate, other=args.against)
            for name, got in zip(names, runs, strict=True):
                key = f"{rate:g}" if name == "this" else f"{rate:g} {name}"
                results["rates"][key] = {kind: summary(values) for kind, values in got.items()}
                for kind, values in got.items():
                    s = summary(values)
                    who = f"{name:>10s} " if args.against else ""
                    print(f"{who}CPU x{rate:g} {kind:9s} n={s['n']} p50 {s['p50']} ms  p95 {s['p95']} ms"
                          f"  max {s['max']} ms", flush=True)
        browser.close()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
