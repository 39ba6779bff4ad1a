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


def replay(context: Any, base: str, code: str, frames: list[str], rate: float) -> dict[str, list[float]]:
    """Send the recorded frames one by one into a fresh page; time each update and a redraw."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(MEASURE)
    sockets: list[Any] = []
    page.route_web_socket(re.compile(r"/ws/rooms/"), lambda ws: sockets.append(ws))  # noqa: PLW0108
    page.goto(f"{base}/r/{code}")
    page.wait_for_function("() => !!window.dominoes.socket && !!window.dominoes.room", timeout=TIMEOUT_MS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    ws = sockets[-1]
    states = [f for f in frames if json.loads(f)["type"] == "state"]
    for frame in frames:
        if json.loads(frame)["type"] in ("welcome", "room"):
            ws.send(frame)
            break
    for counted, frame in enumerate(states, start=1):
        # One message at a time, as players' moves come: after the last tile has slid in.
        page.wait_for_function(IDLE, polling=POLL, timeout=TIMEOUT_MS)
        ws.send(frame)
        page.wait_for_function(PAINTED, arg=2 * counted - 1, polling=POLL, timeout=TIMEOUT_MS)
        page.wait_for_function(IDLE, polling=POLL, timeout=TIMEOUT_MS)
        page.evaluate("() => window.__redraw()")
        page.wait_for_function(PAINTED, arg=2 * counted, polling=POLL, timeout=TIMEOUT_MS)
    paint: list[dict[str, Any]] = page.evaluate("() => window.__paint")
    if errors:
        raise RuntimeError(f"the page failed while replaying: {errors[:3]}")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.close()
    # The first state draws the table from nothing either way: it is left out of both.
    update = [p for p in paint if p["kind"] == "update"][1:]
    redraw = [p for p in paint if p["kind"] == "redraw"][1:]
    return {"update": [p["ms"] for p in update], "redraw": [p["ms"] for p in redraw],
            "update_js": [p["js"] for p in update], "redraw_js": [p["js"] for p in redraw]}


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
            viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT}, is_mobile=True, has_touch=True
        )
        seat = json.dumps({"token": token, "seat": 0})
        context.add_init_script(f"localStorage.setItem('dominoes.room.{code}', {json.dumps(seat)})")
        frames = record(context, base, code, args.rounds, args.limit)
        states = sum(1 for f in frames if json.loads(f)["type"] == "state")
        results: dict[str, Any] = {"players": PLAYERS, "viewport": "390x844", "states": states,
                                   "chromium": browser.version, "rates": {}}
        print(f"recorded {states} state messages of a {PLAYERS}-player Mexican Train", flush=True)
        for rate in [float(r) for r in args.rates.split(",")]:
            got = replay(context, base, code, frames, rate)
            results["rates"][f"{rate:g}"] = {kind: summary(values) for kind, values in got.items()}
            for kind, values in got.items():
                s = summary(values)
                print(f"CPU x{rate:g} {kind:9s} n={s['n']} p50 {s['p50']} ms  p95 {s['p95']} ms"
                      f"  max {s['max']} ms", flush=True)
        browser.close()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
