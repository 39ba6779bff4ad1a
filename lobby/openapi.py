"""The OpenAPI schema at /api/schema/ as the contract the server keeps (docs/api.md).

drf-spectacular writes the operations and the answers from the views and serializers; this
generator then writes what those cannot say: the request bodies exactly as the server checks
them (each game's `players` and `options` from the one declaration in `games/`, a `oneOf`
with `game` as discriminator), every refusal each operation can answer as a problem
(RFC 9457), who must send a seat token, and links from a new room to its other operations.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from drf_spectacular.generators import SchemaGenerator

from games import options as game_options
from lobby.errors import PROBLEM_CONTENT_TYPE
from lobby.serializers import NAME_PATTERN
from lobby.services import AI_LEVELS, MAX_PLAYERS, MIN_PLAYERS, NAME_MAX_LENGTH

_REF = "#/components/schemas/"
JSON = "application/json"

#: The refusals each operation can answer, besides 406 (an Accept without JSON), which all can.
_REFUSALS: dict[str, tuple[int, ...]] = {
    "games_list": (),
    "room_create": (400, 413, 415, 429),
    "room_get": (404,),
    "room_update": (400, 401, 403, 404, 409, 413, 415),
    "seat_create": (400, 401, 403, 404, 409, 413, 415, 429),
    "seat_update": (400, 401, 403, 404, 409, 413, 415),
    "seat_delete": (401, 403, 404, 409),
    "match_start": (401, 403, 404, 409),
    "match_rematch": (401, 403, 404, 409),
    "match_record": (404,),
    "match_review": (400, 401, 403, 404),
}

_WHAT: dict[int, str] = {
    400: "invalid (`errors` names each field's mistake) or malformed JSON (`malformed`)",
    401: "no seat token, or one this room does not know (`unauthorized`): "
         "send `Authorization: Bearer <token>`",
    403: "the token's seat may not do this (`forbidden`): only the host may",
    404: "no such room, seat, match or hand (`not_found`)",
    406: "the Accept header allows no JSON (`not_acceptable`)",
    409: "the room's state refuses it now (`conflict`): a match is on, the seat is taken, "
         "the room is full, ...",
    413: "the body is over the size limit (`too_large`)",
    415: "the body is not JSON (`unsupported_media_type`)",
    429: "too many requests from this address (`rate_limited`): wait `Retry-After` seconds",
}

#: Operations that need a seat token ("host"), take one when given ("optional"), or none.
_TOKEN: dict[str, str] = {
    "room_get": "optional",
    "room_update": "host",
    "seat_create": "optional",
    "seat_update": "host",
    "seat_delete": "host",
    "match_start": "host",
    "match_rematch": "host",
    "match_review": "optional",
}


class ContractGenerator(SchemaGenerator):
    def get_schema(self, request: Any = None, public: bool = False) -> dict[str, Any]:
        schema: dict[str, Any] = super().get_schema(request, public)  # type: ignore[no-untyped-call]
        return contract(schema)


def contract(schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(_components())
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            _operation(path, op)
    return schema


def _operation(path: str, op: dict[str, Any]) -> None:
    op_id = op.get("operationId", "")
    for param in op.get("parameters", []):
        if param.get("in") in ("path", "query") and param["name"] in ("seat", "number", "hand"):
            param["schema"] = {"type": "integer", "minimum": 0}
            if param["name"] == "seat":
                param["schema"]["maximum"] = MAX_PLAYERS - 1
    body = _BODIES.get(op_id)
    if body is not None:
        op["requestBody"] = {"required": True, "content": {JSON: {"schema": body()}}}
    else:
        op.pop("requestBody", None)
    responses = op.setdefault("responses", {})
    for status in [s for s in responses if s.startswith(("4", "5"))]:
        del responses[status]
    if op_id == "games_list":
        responses["200"] = {"description": "every game", "content": {JSON: {"schema": {
            "type": "array", "items": {"$ref": f"{_REF}Game"}}}}}
    refusals = _REFUSALS.get(op_id, (404,) if "{code}" in path else ())
    for status in (*refusals, 406):
        responses[str(status)] = _problem_response(status)
    token = _TOKEN.get(op_id)
    if token == "host":
        op["security"] = [{"seatToken": []}]
    elif token == "optional":
        op["security"] = [{}, {"seatToken": []}]
    else:
        op["security"] = [{}]
    if op_id == "room_create":
        responses["201"]["links"] = _links()
    if op_id in ("match_start", "match_rematch") and "201" in responses:
        responses["201"]["links"] = _match_links()


def _problem_response(status: int) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": _WHAT[status],
        "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": f"{_REF}Problem"}}},
    }
    if status == 401:
        answer["headers"] = {"WWW-Authenticate": {
            "required": True, "schema": {"type": "string"}, "description": "Bearer"}}
    if status == 429:
        answer["headers"] = {"Retry-After": {
            "required": True, "schema": {"type": "string"}, "description": "seconds to wait"}}
    return answer


def _links() -> dict[str, Any]:
    code = {"code": "$response.body#/code"}
    token = "The new room's code; send the answer's `token` as `Authorization: Bearer <token>`."
    return {
        "GetRoom": {"operationId": "room_get", "parameters": code, "description": token},
        "UpdateRoom": {"operationId": "room_update", "parameters": code, "description": token},
        "TakeSeat": {"operationId": "seat_create", "parameters": code, "description": token},
        "UpdateSeat": {"operationId": "seat_update", "parameters": {**code, "seat": 1}, "description": token},
        "FreeSeat": {"operationId": "seat_delete", "parameters": {**code, "seat": 1}, "description": token},
        "StartMatch": {"operationId": "match_start", "parameters": code, "description": token},
        "Rematch": {"operationId": "match_rematch", "parameters": code, "description": token},
    }


def _match_links() -> dict[str, Any]:
    """A started match's record (its finished hands) is reached by the number the start
    answers; a new room has no match yet, so room creation links only to the room."""
    return {
        "MatchRecord": {"operationId": "match_record",
                        "parameters": {"code": "$request.path.code", "number": "$response.body#/number"}},
    }


def _name() -> dict[str, Any]:
    return {
        "type": "string", "minLength": 1, "maxLength": NAME_MAX_LENGTH, "pattern": NAME_PATTERN,
        "description": "the player's name: 1 to 40 characters, not only spaces (trimmed, runs of spaces "
                       "made one), no control or invisible characters",
    }


def _seconds(minimum: int, nullable: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer", "minimum": minimum, "maximum": 3600}
    if nullable:
        out["nullable"] = True
    return out


def _seat_index() -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}


@cache
def _game_bodies() -> dict[str, dict[str, Any]]:
    """One schema of the room-creation body per game: a `oneOf` of its player counts and sets."""
    out: dict[str, dict[str, Any]] = {}
    for game in game_options.game_names():
        branches = []
        for branch in game_options.game_schema(game, MIN_PLAYERS, MAX_PLAYERS):
            required = ["game", "players", "name"]
            if branch["options"].get("required"):
                required.append("options")
            branches.append({
                "type": "object",
                "description": branch["description"],
                "properties": {
                    "game": {"type": "string", "enum": [game]},
                    "players": branch["players"],
                    "options": branch["options"],
                    "name": _name(),
                    "grace_seconds": _seconds(0),
                    "turn_seconds": _seconds(5, nullable=True),
                },
                "required": required,
                "additionalProperties": False,
            })
        out[f"RoomCreate_{game}"] = branches[0] if len(branches) == 1 else {"oneOf": branches}
    return out


def _components() -> dict[str, Any]:
    bodies = copy.deepcopy(_game_bodies())
    return {
        **bodies,
        "Problem": {
            "type": "object",
            "description": "Every refusal under /api/: problem details (RFC 9457).",
            "properties": {
                "type": {"type": "string", "enum": ["about:blank"]},
                "title": {"type": "string"},
                "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "detail": {"type": "string"},
                "code": {"type": "string", "description": "stable, for programs (docs/api.md)"},
                "errors": {"type": "array", "items": {"$ref": f"{_REF}FieldError"}},
            },
            "required": ["type", "title", "status", "detail", "code"],
        },
        "FieldError": {
            "type": "object",
            "properties": {
                "field": {"type": "string",
                          "description": "`name`, `options.set`, ...; `body` for the whole"},
                "code": {"type": "string"},
                "detail": {"type": "string"},
            },
            "required": ["field", "code", "detail"],
        },
        "Game": {
            "type": "object",
            "description": "A game and its options, from their one declaration in games/.",
            "properties": {
                "name": {"type": "string", "enum": game_options.game_names()},
                "min_players": {"type": "integer"},
                "max_players": {"type": "integer"},
                "options": {"type": "array", "items": {"$ref": f"{_REF}GameOption"}},
                "combinations": {"type": "array", "items": {"type": "object"},
                                 "description": "the player counts and option values accepted together"},
            },
            "required": ["name", "min_players", "max_players", "options", "combinations"],
        },
        "GameOption": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "kind": {"type": "string", "enum": ["choice", "integer"]},
                "label": {"type": "string"},
                "help": {"type": "string"},
                "default": {"nullable": True, "description": "the default value (null: `default_note`)"},
                "nullable": {"type": "boolean"},
                "choices": {"type": "array", "items": {"type": "object", "properties": {
                    "value": {}, "label": {"type": "string"}}}},
                "minimum": {"type": "integer", "nullable": True},
                "maximum": {"type": "integer", "nullable": True},
                "default_note": {"type": "string",
                                 "description": "how the default is found: the documents' table"},
                "sources": {"type": "array", "items": {"type": "object", "properties": {
                    "source": {"type": "string"}, "says": {"type": "string"}}}},
                "players": {"type": "array", "items": {"type": "integer"}},
                "shown": {"type": "boolean"},
            },
            "required": ["name", "kind", "label", "default", "nullable"],
        },
    }


def _room_create() -> dict[str, Any]:
    games = game_options.game_names()
    return {
        "oneOf": [{"$ref": f"{_REF}RoomCreate_{g}"} for g in games],
        "discriminator": {"propertyName": "game", "mapping": {g: f"{_REF}RoomCreate_{g}" for g in games}},
    }


def _room_update() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
            "options": {"type": "object", "description": "the room game's options (GET /api/games/): what "
                        "they do not accept is a 409 naming each option"},
            "grace_seconds": _seconds(0),
            "turn_seconds": _seconds(5, nullable=True),
        },
        "additionalProperties": False,
    }


def _seat_create() -> dict[str, Any]:
    return {"oneOf": [
        {"type": "object", "description": "a player takes a free seat (the first when none is named)",
         "properties": {"name": _name(), "seat": _seat_index()},
         "required": ["name"], "additionalProperties": False},
        {"type": "object", "description": "the host puts an AI in a seat",
         "properties": {"ai": {"type": "string", "enum": list(AI_LEVELS)}, "seat": _seat_index()},
         "required": ["ai", "seat"], "additionalProperties": False},
    ]}


def _seat_update() -> dict[str, Any]:
    return {"oneOf": [
        {"type": "object", "properties": {"move_to": _seat_index()},
         "required": ["move_to"], "additionalProperties": False},
        {"type": "object",
         "properties": {"ai": {"type": "string", "enum": [*AI_LEVELS, None], "nullable": True}},
         "required": ["ai"], "additionalProperties": False},
    ]}


_BODIES = {
    "room_create": _room_create,
    "room_update": _room_update,
    "seat_create": _seat_create,
    "seat_update": _seat_update,
}
