"""The HTTP API: one view per operation, each calling one service or selector.

Tokens travel as `Authorization: Bearer <token>` and are never logged or echoed back
except in the answer that creates them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine import IllegalAction, get_rules, names
from lobby import links, match_records, selectors, serializers, services
from lobby.errors import BadOptionError, LobbyError
from lobby.parsers import BodyTooLarge
from lobby.protocol import error_of
from lobby.throttles import RoomCreateThrottle, SeatJoinThrottle

HTTP_STATUS = {
    "malformed": 400,
    "bad_option": 400,
    "illegal_action": 400,
    "unauthorized": 403,
    "not_found": 404,
    "conflict": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "too_large": 413,
    "rate_limited": 429,
    "id_reused": 409,
    "internal_error": 500,
}

ERRORS = {
    code: OpenApiResponse(serializers.ErrorOut, description=code)
    for code in ("bad_option", "unauthorized", "not_found", "conflict", "rate_limited")
}


def bearer_token(request: Request) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every refusal as `{"code", "detail"}` (plus `option` or `field` naming the culprit)."""
    if isinstance(exc, exceptions.Throttled):
        return Response({"code": "rate_limited", "detail": "too many requests: try again later"}, status=429)
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        return Response({"code": "malformed", "detail": f"{field}: {message}", "field": field}, status=400)
    if isinstance(exc, exceptions.ParseError):
        return Response({"code": "malformed", "detail": str(exc.detail)}, status=400)
    if isinstance(exc, (BodyTooLarge, RequestDataTooBig)):
        detail = f"a request body is at most {settings.HTTP_MAX_BODY} bytes"
        return Response({"code": "too_large", "detail": detail}, status=413)
    if isinstance(exc, exceptions.APIException):
        return Response({"code": "malformed", "detail": str(exc.detail)}, status=exc.status_code)
    if isinstance(exc, (LobbyError, IllegalAction)):
        code, message = error_of(exc)
        body: dict[str, Any] = {"code": code, "detail": message}
        if isinstance(exc, BadOptionError) and exc.option:
            body["option"] = exc.option
        return Response(body, status=HTTP_STATUS.get(code, 400))
    code, message = error_of(exc)
    return Response({"code": code, "detail": message}, status=500)


def _first_error(detail: Any, prefix: str = "") -> tuple[str, str]:
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        name = key if key != "non_field_errors" else "body"
        return _first_error(value, f"{prefix}{name}" if not prefix else f"{prefix}.{name}")
    if isinstance(detail, list) and detail:
        return _first_error(detail[0], prefix)
    return prefix or "body", str(detail)


class GameListApi(APIView):
    @extend_schema(responses=serializers.GameOut(many=True), summary="The games this server plays")
    def get(self, request: Request) -> Response:
        games = []
        for name in names():
            try:
                rules = get_rules(name)
            except ImportError:
                continue
            games.append({"name": name, "min_players": rules.min_players, "max_players": rules.max_players})
        return Response(games)


class RoomCreateApi(APIView):
    throttle_classes = (RoomCreateThrottle,)

    @extend_schema(
        request=serializers.RoomCreateIn,
        responses={201: serializers.RoomCreateOut, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Create a room and seat its host",
    )
    def post(self, request: Request) -> Response:
        data = serializers.RoomCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        room, token = services.room_create(
            v["game"],
            v["players"],
            v["options"],
            v["name"],
            grace_seconds=v.get("grace_seconds"),
            turn_seconds=v.get("turn_seconds"),
        )
        body = {
            "code": room.code,
            "link": links.room_path(room.code),
            "url": links.room_url(request, room.code),
            "seat": room.host_seat,
            "token": token,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class RoomDetailApi(APIView):
    @extend_schema(
        responses={200: serializers.RoomOut, 404: ERRORS["not_found"]}, summary="The room's public state"
    )
    def get(self, request: Request, code: str) -> Response:
        room = selectors.room_get_by_code(code)
        seat = selectors.seat_for_token(room, bearer_token(request))
        return Response(_room_out(request, room, None if seat is None else seat.index))

    @extend_schema(
        request=serializers.RoomUpdateIn,
        responses={200: serializers.RoomOut, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Change players, options, grace period or turn timer (host, no match on)",
    )
    def patch(self, request: Request, code: str) -> Response:
        selectors.room_get_by_code(code)
        data = serializers.RoomUpdateIn(data=request.data)
        data.is_valid(raise_exception=True)
        room = services.room_update(code, bearer_token(request), dict(data.validated_data))
        return Response(_room_out(request, room, room.host_seat))


def _room_out(request: Request, room: Any, you: int | None) -> dict[str, Any]:
    return {**selectors.room_info(room), "url": links.room_url(request, room.code), "you": you}


class SeatCreateApi(APIView):
    throttle_classes = (SeatJoinThrottle,)

    @extend_schema(
        request=serializers.SeatCreateIn,
        responses={201: serializers.SeatCreateOut, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Take a free seat (the first, or the one named), or (host) put an AI in a seat",
    )
    def post(self, request: Request, code: str) -> Response:
        selectors.room_get_by_code(code)
        data = serializers.SeatCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "ai" in v:
            seat = services.seat_ai_set(code, bearer_token(request), v["seat"], v["ai"])
            return Response({"seat": seat}, status=status.HTTP_201_CREATED)
        seat, token = services.seat_claim(code, v["name"], v.get("seat"))
        return Response({"seat": seat, "token": token}, status=status.HTTP_201_CREATED)


class SeatDetailApi(APIView):
    @extend_schema(
        request=serializers.SeatUpdateIn,
        responses={200: serializers.RoomOut, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Arrange the table before a match: swap two seats, or set or clear an AI",
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
        data = serializers.SeatUpdateIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        token = bearer_token(request)
        if "move_to" in v:
            room = services.seat_move(code, token, seat, v["move_to"])
        else:
            services.seat_ai_set(code, token, seat, v["ai"])
        you = selectors.seat_for_token(room, token)
        return Response(_room_out(request, room, None if you is None else you.index))

    @extend_schema(
        responses={204: None, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Free a seat: the host removes an AI or a player; a player leaves its own seat",
    )
    def delete(self, request: Request, code: str, seat: int) -> Response:
        services.seat_clear(code, bearer_token(request), seat)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchStartApi(APIView):
    rematch = False

    @extend_schema(
        request=None,
        responses={201: serializers.MatchStartOut, **{HTTP_STATUS[c]: r for c, r in ERRORS.items()}},
        summary="Start the match once every seat is filled (host)",
    )
    def post(self, request: Request, code: str) -> Response:
        match = services.match_start(code, bearer_token(request), rematch=self.rematch)
        return Response({"number": match.number, "version": match.version}, status=status.HTTP_201_CREATED)


class MatchRematchApi(MatchStartApi):
    rematch = True


class MatchRecordApi(APIView):
    @extend_schema(
        responses={200: serializers.MatchRecordOut, 404: ERRORS["not_found"]},
        summary="The record of a match: each finished hand's revealed seed and its actions",
        description=(
            "To anyone with the room link. `n` counts the matches started in the room from 0. "
            "Only finished hands are included, never the hand being played: each one's seed "
            "is revealed at its end, so dealing it with the published shuffle and replaying "
            "its actions through the rules gives the hand as played."
        ),
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        return Response(match_records.match_record(code, number))
