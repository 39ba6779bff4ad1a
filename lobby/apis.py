"""The HTTP API: one view per operation, each calling one service or selector.

Tokens travel as `Authorization: Bearer <token>` and are never logged or echoed back
except in the answer that creates them. Every refusal under /api/ is a problem-details body
(RFC 9457, `application/problem+json`) with a stable `code` (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_noop
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import options as game_options
from games.engine import IllegalAction
from lobby import links, match_records, selectors, serializers, services, wording
from lobby.errors import (
    PROBLEM_CONTENT_TYPE,
    BadOptionError,
    ConflictError,
    LobbyError,
    RoomNotFoundError,
    UnauthorizedError,
    problem,
)
from lobby.parsers import BodyTooLarge
from lobby.protocol import error_of
from lobby.services.seats import NO_SUCH_SEAT
from lobby.throttles import RoomCreateThrottle, SeatJoinThrottle

#: The status of each refusal code a service or the engine raises.
HTTP_STATUS = {
    "malformed": 400,
    "invalid": 400,
    "bad_option": 400,
    "illegal_action": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "too_large": 413,
    "rate_limited": 429,
    "id_reused": 409,
    "internal_error": 500,
}

#: The codes of DRF's own refusals (wrong method, media type, ...), by exception class.
_DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.NotFound, "not_found"),
    (exceptions.ParseError, "malformed"),
]


def bearer_token(request: Request | HttpRequest) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def problem_response(body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(body, status=int(body["status"]), headers=headers, content_type=PROBLEM_CONTENT_TYPE)


def _field_errors(detail: Any, field: str = "") -> list[dict[str, str]]:
    """DRF's nested error detail as a flat list of `{"field", "code", "detail"}`."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "body" if key in ("non_field_errors", "body") and not field else str(key)
            out += _field_errors(value, f"{field}.{name}" if field else name)
        return out
    if isinstance(detail, list):
        return [e for item in detail for e in _field_errors(item, field)]
    code = getattr(detail, "code", None) or "invalid"
    return [{"field": field or "body", "code": str(code), "detail": str(detail)}]


def _who_is_asking(request: Any, context: dict[str, Any]) -> bool:
    """Whether the request's token holds a seat of the room: a refusal is then 403 (you may
    not do this), else 401 (who are you?)."""
    token = bearer_token(request) if request is not None else None
    code = (context.get("kwargs") or {}).get("code")
    if not token or not code:
        return False
    try:
        room = selectors.room_get_by_code(code)
    except RoomNotFoundError:
        return False
    return selectors.seat_for_token(room, token) is not None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every refusal of a view as a problem (RFC 9457): `code` says which, `errors` lists each
    field's mistake when the body fails validation. The words are in the request's language
    (`LocaleMiddleware`); the codes and field names are not words."""
    request = context.get("request")
    if isinstance(exc, exceptions.Throttled):
        wait = max(int(getattr(exc, "wait", None) or 60), 1)
        body = problem(429, "rate_limited", gettext("too many requests: try again in %(seconds)s s") % {
            "seconds": wait})
        return problem_response(body, {"Retry-After": str(wait)})
    if isinstance(exc, exceptions.ValidationError):
        errors = _field_errors(exc.detail)
        detail = "; ".join(f"{e['field']}: {e['detail']}" for e in errors)
        return problem_response(problem(400, "invalid", detail, errors))
    if isinstance(exc, (BodyTooLarge, RequestDataTooBig)):
        detail = gettext("a request body is at most %(bytes)s bytes") % {"bytes": settings.HTTP_MAX_BODY}
        return problem_response(problem(413, "too_large", detail))
    if isinstance(exc, Http404):
        return problem_response(problem(404, "not_found", gettext("no such resource")))
    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _DRF_CODES if isinstance(exc, cls)), str(exc.default_code))
        headers = {}
        if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
            headers["WWW-Authenticate"] = "Bearer"
        return problem_response(problem(exc.status_code, code, str(exc.detail)), headers)
    if isinstance(exc, UnauthorizedError):
        if _who_is_asking(request, context):
            return problem_response(problem(403, "forbidden", exc.said()))
        token = bearer_token(request) if request is not None else None
        challenge = 'Bearer error="invalid_token"' if token else "Bearer"
        detail = gettext("%(refusal)s (the seat token is missing or unknown)") % {"refusal": exc.said()}
        return problem_response(problem(401, "unauthorized", detail), {"WWW-Authenticate": challenge})
    if isinstance(exc, BadOptionError):
        field = exc.option or "options"
        said = exc.said()
        if field in ("seat", "move_to"):  # a seat this room does not have: the room decides
            return problem_response(problem(409, "conflict", said,
                                            [{"field": field, "code": "no_such_seat", "detail": said}]))
        error = {"field": field, "code": exc.reason or "invalid", "detail": said}
        return problem_response(problem(400, "invalid", f"{field}: {said}", [error]))
    if isinstance(exc, (LobbyError, IllegalAction)):
        code, message = error_of(exc)
        listed: list[dict[str, str]] | None = getattr(exc, "errors", None)
        return problem_response(problem(HTTP_STATUS.get(code, 400), code, message, listed))
    code, message = error_of(exc)
    return problem_response(problem(500, code, message))


def api_not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """Any method on a path under /api/ that names no operation: a 404 problem."""
    detail = gettext("nothing at %(path)s: see /api/schema/") % {"path": request.path}
    body = problem(404, "not_found", detail)
    return JsonResponse(body, status=404, content_type=PROBLEM_CONTENT_TYPE)


class GameListApi(APIView):
    @extend_schema(request=None, responses={200: None},
                   summary="The games this server plays, each with its options",
                   operation_id="games_list")
    def get(self, request: Request) -> Response:
        return Response(game_descriptions())


def game_descriptions() -> list[dict[str, Any]]:
    """Each game with its player range (within a room's) and its options, from `games/`, the
    options' words in the active language (the request's)."""
    return [
        wording.game_worded(game_options.describe(name, services.MIN_PLAYERS, services.MAX_PLAYERS))
        for name in game_options.game_names()
    ]


class RoomCreateApi(APIView):
    throttle_classes = (RoomCreateThrottle,)

    @extend_schema(request=None, responses={201: serializers.RoomCreateOut},
                   summary="Create a room and seat its host",
                   operation_id="room_create")
    def post(self, request: Request) -> Response:
        data = serializers.RoomCreateIn(data=_body(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            room, token = services.room_create(
                v["game"],
                v["players"],
                v["options"],
                v["name"],
                grace_seconds=v.get("grace_seconds"),
                turn_seconds=v.get("turn_seconds"),
            )
        except BadOptionError as exc:
            raise _option_refusal(exc) from None
        body = {
            "code": room.code,
            "link": links.room_path(room.code),
            "url": links.room_url(request, room.code),
            "seat": room.host_seat,
            "token": token,
        }
        return Response(body, status=status.HTTP_201_CREATED)


def _option_refusal(exc: BadOptionError) -> exceptions.ValidationError:
    """The engine's refusal of options together, as the field error of the option it names."""
    name = exc.option or "options"
    field = name if name in ("game", "players", "options", "name") else f"options.{name}"
    code = exc.reason or "does_not_fit"
    return exceptions.ValidationError({field: [exceptions.ErrorDetail(exc.said(), code=code)]})


class RoomDetailApi(APIView):
    @extend_schema(request=None, responses={200: serializers.RoomOut}, summary="The room's public state",
                   operation_id="room_get")
    def get(self, request: Request, code: str) -> Response:
        room = selectors.room_get_by_code(code)
        seat = selectors.seat_for_token(room, bearer_token(request))
        return Response(_room_out(request, room, None if seat is None else seat.index))

    @extend_schema(
        request=None,
        responses={200: serializers.RoomOut},
        summary="Change players, options, grace period or turn timer (host, no match on)",
        operation_id="room_update",
        description=(
            "`options` replaces the room's options. The players and options must fit the room's "
            "game (GET /api/games/): what does not is a 409, with each option named."
        ),
    )
    def patch(self, request: Request, code: str) -> Response:
        selectors.room_get_by_code(code)
        data = serializers.RoomUpdateIn(data=_body(request))
        data.is_valid(raise_exception=True)
        try:
            room = services.room_update(code, bearer_token(request), dict(data.validated_data))
        except BadOptionError as exc:
            refusal = _option_refusal(exc)
            errors = _field_errors(refusal.detail)
            raise _Conflict(gettext_noop("this room's game refuses it: %(refusal)s"), errors,
                            {"refusal": errors[0]["detail"]}) from None
        return Response(_room_out(request, room, room.host_seat))


class _Conflict(ConflictError):
    def __init__(self, message: str, errors: list[dict[str, str]], params: dict[str, Any]) -> None:
        super().__init__(message, params)
        self.errors = errors


def _body(request: Request) -> Any:
    """The request's JSON body; an empty one is refused where the operation takes one."""
    if not int(request.META.get("CONTENT_LENGTH") or 0) and "HTTP_TRANSFER_ENCODING" not in request.META:
        raise exceptions.ValidationError(
            {"body": [exceptions.ErrorDetail(gettext("this operation takes a JSON body"), code="required")]})
    return request.data


def _room_out(request: Request, room: Any, you: int | None) -> dict[str, Any]:
    return {**selectors.room_info(room), "url": links.room_url(request, room.code), "you": you}


def _seat_in_room(room: Any, index: int | None, field: str) -> None:
    """A seat the body names must be one of the room's: else 409, the room has fewer."""
    if index is not None and index >= room.players:
        raise BadOptionError(NO_SUCH_SEAT, field, params={"last": room.players - 1, "seat": index})


def _seat_exists(room: Any, index: int) -> None:
    """A seat in the path that the room does not have is not found."""
    if index >= room.players:
        raise RoomNotFoundError(NO_SUCH_SEAT, {"last": room.players - 1, "seat": index})


class SeatCreateApi(APIView):
    throttle_classes = (SeatJoinThrottle,)

    @extend_schema(
        request=None,
        responses={201: serializers.SeatCreateOut},
        summary="Take a free seat (the first, or the one named), or (host) put an AI in a seat",
        operation_id="seat_create",
    )
    def post(self, request: Request, code: str) -> Response:
        room = selectors.room_get_by_code(code)
        data = serializers.SeatCreateIn(data=_body(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        _seat_in_room(room, v.get("seat"), "seat")
        if "ai" in v:
            seat = services.seat_ai_set(code, bearer_token(request), v["seat"], v["ai"])
            return Response({"seat": seat}, status=status.HTTP_201_CREATED)
        seat, token = services.seat_claim(code, v["name"], v.get("seat"))
        return Response({"seat": seat, "token": token}, status=status.HTTP_201_CREATED)


class SeatDetailApi(APIView):
    @extend_schema(
        request=None,
        responses={200: serializers.RoomOut},
        summary="Arrange the table before a match: swap two seats, or set or clear an AI",
        operation_id="seat_update",
        description=(
            "`move_to`: the host swaps what the two seats hold (a player, an AI or nothing); "
            "a player may move itself to a free seat. `ai`: the host puts an AI of that level "
            "in a free or AI seat, or (null) opens an AI seat for a player. 409 while a match "
            "is on. Every socket of the room receives the new room info; a moved player's "
            "socket also receives a `welcome` frame with its new seat."
        ),
    )
    def patch(self, request: Request, code: str, seat: int) -> Response:
        room = selectors.room_get_by_code(code)
        _seat_exists(room, seat)
        data = serializers.SeatUpdateIn(data=_body(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        token = bearer_token(request)
        if "move_to" in v:
            _seat_in_room(room, v["move_to"], "move_to")
            room = services.seat_move(code, token, seat, v["move_to"])
        else:
            services.seat_ai_set(code, token, seat, v["ai"])
        you = selectors.seat_for_token(room, token)
        return Response(_room_out(request, room, None if you is None else you.index))

    @extend_schema(
        request=None,
        responses={204: None},
        summary="Free a seat: the host removes an AI or a player; a player leaves its own seat",
        operation_id="seat_delete",
    )
    def delete(self, request: Request, code: str, seat: int) -> Response:
        _seat_exists(selectors.room_get_by_code(code), seat)
        services.seat_clear(code, bearer_token(request), seat)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchStartApi(APIView):
    rematch = False

    @extend_schema(request=None, responses={201: serializers.MatchStartOut},
                   summary="Start the match once every seat is filled (host)", operation_id="match_start")
    def post(self, request: Request, code: str) -> Response:
        match = services.match_start(code, bearer_token(request), rematch=self.rematch)
        return Response({"number": match.number, "version": match.version}, status=status.HTTP_201_CREATED)


class MatchRematchApi(MatchStartApi):
    rematch = True

    @extend_schema(request=None, responses={201: serializers.MatchStartOut},
                   summary="Start the next match with the same seats once one is over (host)",
                   operation_id="match_rematch")
    def post(self, request: Request, code: str) -> Response:
        return super().post(request, code)


class MatchRecordApi(APIView):
    @extend_schema(
        request=None,
        responses={200: serializers.MatchRecordOut},
        summary="The record of a match: each finished hand's revealed seed and its actions",
        operation_id="match_record",
        description=(
            "To anyone with the room link. `n` counts the matches started in the room from 0. "
            "Only finished hands are included, never the hand being played: each one's seed "
            "is revealed at its end, so dealing it with the published shuffle and replaying "
            "its actions through the rules gives the hand as played."
        ),
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        return Response(match_records.match_record(code, number))
