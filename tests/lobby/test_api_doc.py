"""The examples of docs/api.md, made by this test from real requests (so they cannot drift).

For every operation of the schema the server serves, one request and its success answer and
two refusals, through Django's test client, rendered between the examples markers of
docs/api.md. The test fails when the file differs from what it renders, or when an operation
of the schema has no example. Room codes, tokens, times and seeds are replaced by fixed
placeholders; the match's seed is fixed so the record and replay are the same on every run.

Regenerate: `API_DOC_WRITE=1 python3 tasks.py test tests/lobby/test_api_doc.py`.
"""

from __future__ import annotations

import json
import os
import re
import types
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.ai.advice import review_hand
from games.engine import get_rules
from lobby import reviews, services
from lobby.models import Match, Review
from lobby.selectors import match_state
from lobby.services import matches

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
START, END = "<!-- examples:start -->", "<!-- examples:end -->"
REGENERATE = "API_DOC_WRITE=1 python3 tasks.py test tests/lobby/test_api_doc.py"
#: Lists longer than this are cut in the doc, their other items counted.
LIST_ITEMS = 2


class Recorder:
    """Makes requests and keeps each with its answer, under its schema operation."""

    def __init__(self) -> None:
        self.client = Client()
        self.examples: dict[str, list[tuple[str, str, str, dict[str, str], Any, int, str, Any]]] = {}
        self.secrets: dict[str, str] = {}

    def __call__(self, operation: str, title: str, method: str, path: str, body: Any = None,
                 token: str | None = None, expect: int = 200, content_type: str = "application/json",
                 accept: str | None = None) -> Any:
        headers: dict[str, str] = {}
        extra: dict[str, str] = {}
        if token:
            headers["Authorization"] = "Bearer " + token
            extra["HTTP_AUTHORIZATION"] = headers["Authorization"]
        if accept:
            headers["Accept"] = accept
            extra["HTTP_ACCEPT"] = accept
        call = getattr(self.client, method.lower())
        if body is None:
            answer = call(path, **extra)
        else:
            headers["Content-Type"] = content_type
            data = json.dumps(body) if content_type == "application/json" else body
            answer = call(path, data, content_type=content_type, **extra)
        assert answer.status_code == expect, (title, answer.status_code, answer.content)
        shown = answer.json() if answer.content else None
        self.examples.setdefault(operation, []).append(
            (title, method, path, headers, body, answer.status_code, answer.get("Content-Type", ""), shown)
        )
        return shown


def abridged(value: Any, depth: int = 0) -> Any:
    """Long lists cut; the keys of nested objects sorted, as PostgreSQL's JSON columns give
    them in another order than SQLite's (the answer's own fields keep theirs)."""
    if isinstance(value, list):
        kept = [abridged(v, depth + 1) for v in value[:LIST_ITEMS]]
        if len(value) > LIST_ITEMS:
            kept.append(f"... {len(value) - LIST_ITEMS} more")
        return kept
    if isinstance(value, dict):
        keys = sorted(value) if depth else list(value)
        return {k: abridged(value[k], depth + 1) for k in keys}
    return value


def pretty(value: Any, indent: str = "") -> str:
    """JSON indented, but each value that fits on a line of 90 characters kept on one."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= 90 or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        items = [inner + pretty(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    items = [f"{inner}{json.dumps(k)}: {pretty(v, inner)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def render(schema: dict[str, Any], record: Recorder) -> str:
    lines = [START, "",
             "<!-- Made by tests/lobby/test_api_doc.py; regenerate with", f"     {REGENERATE} -->", ""]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            key = f"{method.upper()} {path}"
            lines += [f"### `{key}`", "", operation.get("summary") or operation.get("description", "").split("\n")[0], ""]
            for title, verb, url, headers, body, status, media, answer in record.examples.get(key, []):
                request = [f"{verb} {url}"] + [f"{k}: {v}" for k, v in headers.items()]
                if body is not None:
                    request += ["", body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)]
                reply = [f"{status}" + (f" ({media})" if media else "")]
                if answer is not None:
                    reply += [pretty(abridged(answer))]
                lines += [f"{title}:", "", "```http", *request, "```", "", "```http", *reply, "```", ""]
    lines.append(END)
    text = "\n".join(lines)
    for secret, placeholder in record.secrets.items():
        text = text.replace(secret, placeholder)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", "<time>", text)
    return text


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's seed fixed, so its deal, record and replay are the same on every run."""
    monkeypatch.setattr(matches, "secrets", types.SimpleNamespace(token_bytes=lambda n: bytes(range(n))))


class QueuedReviews:
    """The process's review queue, run by hand: this test's rows are in its own transaction,
    which the real queue's thread would not see."""

    def __init__(self) -> None:
        self.seen: dict[int, int] = {}
        self.queued: list[tuple[int, int, int]] = []

    def saw(self, match_id: int, hands: int | None) -> int | None:
        before = self.seen.pop(match_id, None)
        if hands is not None:
            self.seen[match_id] = hands
        return before

    def want(self, match_id: int, seat: int, hands: list[int], *, asked: bool = False) -> None:
        self.queued += [(match_id, seat, hand) for hand in hands if (match_id, seat, hand) not in self.queued]

    def run(self) -> None:
        for match_id, seat, hand in self.queued:
            items = review_hand(reviews.hand_job(match_id, seat, hand))
            Review.objects.get_or_create(match_id=match_id, seat=seat, hand=hand, defaults={"items": items})
        self.queued = []


def test_the_doc_shows_every_operation_with_real_answers(fixed_seed: None, monkeypatch: pytest.MonkeyPatch) -> None:
    queue = QueuedReviews()
    monkeypatch.setattr(reviews, "reviews", lambda: queue)
    do = Recorder()
    schema = do.client.get("/api/schema/", HTTP_ACCEPT="application/json").json()

    games = "GET /api/games/"
    do(games, "Every game with its players and options", "GET", "/api/games/")
    do(games, "No JSON accepted", "GET", "/api/games/", accept="text/html", expect=406)
    do(games, "A method the path does not take", "DELETE", "/api/games/", expect=405)

    create = "POST /api/rooms/"
    made = do(create, "A room for three at Draw, one point wins", "POST", "/api/rooms/",
              {"game": "draw", "players": 3, "options": {"target": 1}, "name": "Ann", "grace_seconds": 3600},
              expect=201)
    code, host = made["code"], made["token"]
    do.secrets.update({code: "<code>", host: "<token>"})
    do(create, "Several mistakes, all reported", "POST", "/api/rooms/",
       {"game": "nope", "players": "3", "name": ""}, expect=400)
    do(create, "Not JSON", "POST", "/api/rooms/", "game=draw", content_type="text/plain", expect=415)

    room = f"/api/rooms/{code}/"
    get = "GET /api/rooms/{code}/"
    do(get, "The room", "GET", room)
    do(get, "No such room", "GET", "/api/rooms/zzzzzzzz/", expect=404)
    do(get, "No JSON accepted", "GET", room, accept="text/html", expect=406)

    patch = "PATCH /api/rooms/{code}/"
    do(patch, "The host sets the turn clock", "PATCH", room, {"turn_seconds": 600}, host)
    do(patch, "A number as a string", "PATCH", room, {"players": "3"}, host, expect=400)
    do(patch, "No token", "PATCH", room, {"turn_seconds": 600}, expect=401)

    seats = f"/api/rooms/{code}/seats/"
    join = "POST /api/rooms/{code}/seats/"
    bob = do(join, "A player joins", "POST", seats, {"name": "Bob"}, expect=201)["token"]
    do.secrets[bob] = "<token2>"
    do(join, "A number as the name", "POST", seats, {"name": 12345}, expect=400)
    do(join, "No such room", "POST", "/api/rooms/zzzzzzzz/seats/", {"name": "Bob"}, expect=404)

    move = "PATCH /api/rooms/{code}/seats/{seat}/"
    do(move, "The host moves Bob to seat 2", "PATCH", f"{seats}1/", {"move_to": 2}, host)
    do(move, "A seat number as a string", "PATCH", f"{seats}2/", {"move_to": "1"}, host, expect=400)
    do(move, "No token", "PATCH", f"{seats}2/", {"move_to": 1}, expect=401)

    leave = "DELETE /api/rooms/{code}/seats/{seat}/"
    do(leave, "Another player may not remove the host", "DELETE", f"{seats}0/", token=bob, expect=403)
    do(leave, "No token", "DELETE", f"{seats}2/", expect=401)
    do(leave, "Bob leaves", "DELETE", f"{seats}2/", token=bob, expect=204)

    start = "POST /api/rooms/{code}/start/"
    do(start, "Seats still free", "POST", f"{room}start/", token=host, expect=409)
    do(start, "No token", "POST", f"{room}start/", expect=401)
    for name in ("Bob", "Cy"):
        token = do.client.post(seats, {"name": name}, content_type="application/json").json()["token"]
        do.secrets[token] = "<token2>"
    do(start, "The host starts the match", "POST", f"{room}start/", token=host, expect=201)

    rematch = "POST /api/rooms/{code}/rematch/"
    do(rematch, "The match is not over", "POST", f"{room}rematch/", token=host, expect=409)
    do(rematch, "No token", "POST", f"{room}rematch/", expect=401)

    review = "GET /api/rooms/{code}/matches/{number}/review/"
    do(review, "Another seat's review before the match is over", "GET", f"{room}matches/0/review/?seat=0",
       token=token, expect=403)
    do(review, "No token before the match is over", "GET", f"{room}matches/0/review/?seat=0", expect=401)

    # The match played out, each seat to move taking its first legal action.
    rules = get_rules("draw")
    match = Match.objects.get(room__code=code)
    while match.to_move is not None:
        services.action_submit(code, match.to_move, rules.legal_actions(match_state(match))[0],
                               expected_version=match.version)
        match.refresh_from_db()

    record = "GET /api/rooms/{code}/matches/{number}/"
    do(record, "The match's record", "GET", f"{room}matches/0/")
    do(record, "No such match", "GET", f"{room}matches/5/", expect=404)
    do(record, "No JSON accepted", "GET", f"{room}matches/0/", accept="text/html", expect=406)

    do(review, "Being worked out: ask again", "GET", f"{room}matches/0/review/?seat=0", expect=202)
    queue.run()
    do(review, "Ann's decisions with a choice, to anyone once the match is over", "GET",
       f"{room}matches/0/review/?seat=0")
    do(review, "No such match", "GET", f"{room}matches/5/review/?seat=0", expect=404)
    do(review, "A seat that is not a number", "GET", f"{room}matches/0/review/?seat=x", expect=400)

    replay = "GET /api/rooms/{code}/matches/{number}/hands/{hand}/positions/"
    do(replay, "The first hand replayed", "GET", f"{room}matches/0/hands/0/positions/")
    do(replay, "No such hand", "GET", f"{room}matches/0/hands/9/positions/", expect=404)
    do(replay, "No JSON accepted", "GET", f"{room}matches/0/hands/0/positions/", accept="text/html",
       expect=406)

    do(rematch, "The host starts the next match", "POST", f"{room}rematch/", token=host, expect=201)

    listed = {f"{m.upper()} {p}" for p, ops in schema["paths"].items() for m in ops}
    assert listed == set(do.examples), f"operations without examples: {sorted(listed - set(do.examples))}"
    for operation, examples in do.examples.items():
        assert sum(1 for e in examples if e[5] < 300) >= 1, operation
        assert sum(1 for e in examples if e[5] >= 400) >= 2, operation

    rendered = render(schema, do)
    text = DOC.read_text()
    assert START in text and END in text, f"docs/api.md has no {START} ... {END} section"
    head, rest = text.split(START, 1)
    wanted = head + rendered + rest.split(END, 1)[1]
    if os.environ.get("API_DOC_WRITE"):
        DOC.write_text(wanted)
    assert text == wanted or os.environ.get("API_DOC_WRITE"), (
        f"docs/api.md's examples differ from the server's answers; regenerate with: {REGENERATE}"
    )
