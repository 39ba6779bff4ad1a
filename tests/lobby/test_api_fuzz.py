"""The OpenAPI schema fuzzed against the server, from both sides (docs/api.md, "Fuzzing").

Every operation is called with requests generated from the schema (valid ones, which must be
accepted unless the room's state or the token refuses them, and invalid ones, which must be
refused), with a real room's code and its host's token supplied, and every check of
schemathesis on: no server error, only documented statuses and media types, answers that
match their schema, schema-violating requests refused, auth not ignored. The stateful phase
then follows the links from room creation to the room's other operations.

The examples are bounded for CI (`API_FUZZ_EXAMPLES`, default 5 per operation); the longer
run in docs/api.md sets it higher.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.generation.stateful.state_machine import APIStateMachine

pytestmark = [
    pytest.mark.django_db,
    # On SQLite a request served in this thread waits on the test's own write lock.
    pytest.mark.skipif(django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                       reason="the fuzz test runs on PostgreSQL (DATABASE_URL), as in CI"),
]


def api(client: Client, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    if body is None:
        return getattr(client, method)(path, **headers)
    return getattr(client, method)(path, json.dumps(body), content_type="application/json", **headers)

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "5"))
STEPS = int(os.environ.get("API_FUZZ_STEPS", "6"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=os.environ.get("API_FUZZ_RANDOM") is None,
    suppress_health_check=list(HealthCheck),
)


def _in_this_transaction() -> None:
    """Requests served in this thread stay on the test's own database transaction, as the
    test client keeps them: no connection closed when a request starts or ends."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)


@pytest.fixture(autouse=True)
def connections_kept(db: None) -> Iterator[None]:
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def room(db: None) -> dict[str, str]:
    """A draw room for three with its host and a second player seated."""
    client = Client()
    made: dict[str, str] = api(client, "post", "/api/rooms/", {"game": "draw", "players": 3, "name": "Ann"}).json()
    api(client, "post", f"/api/rooms/{made['code']}/seats/", {"name": "Bob"})
    return made


#: The schema as the server serves it (no database is needed to serve it).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
#: The host token of the room the current test drives.
HOST: dict[str, str] = {}


@schema.auth(refresh_interval=None)
class HostToken:
    """The room's host token, given the way schemathesis gives credentials, so its checks
    can also send none or a forged one."""

    def get(self, case: Any, context: Any) -> str:
        return HOST.get("token", "none")

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schema.parametrize()
@FUZZ
def test_every_operation_keeps_the_contract(case: Any, room: dict[str, str]) -> None:
    _in_this_transaction()
    HOST["token"] = room["token"]
    if "code" in (case.path_parameters or {}):
        case.path_parameters = {**case.path_parameters, "code": room["code"]}
    case.call_and_validate()


def test_the_links_chain_room_creation_to_every_operation() -> None:
    tokens: dict[str, str] = {}

    class Rooms(schema.as_state_machine()):  # type: ignore[misc]
        """Each room the scenario creates is then driven with its own host token."""

        def before_call(self, case: Any) -> None:
            code = (case.path_parameters or {}).get("code")
            if code in tokens:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[code]}"}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            if case.operation.definition.raw.get("operationId") == "room_create" and response.status_code == 201:
                made = response.json()
                tokens[made["code"]] = made["token"]

    assert issubclass(Rooms, APIStateMachine)
    _in_this_transaction()
    Rooms.run(settings=settings(FUZZ, max_examples=max(EXAMPLES // 3, 5), stateful_step_count=STEPS))
    assert tokens, "the scenarios created no room"
