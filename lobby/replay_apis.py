"""The replay page's API: every position of a finished hand, every hand face up
(docs/protocol.md, "Replayed positions"). Apart from lobby/apis.py so the replay's one
endpoint and its schema stay together."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lobby import match_records
from lobby.serializers import ErrorOut, RecordSeat


class PositionOut(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(allow_null=True, help_text="who moved to this position; null: the deal")
    action = serializers.DictField(allow_null=True, help_text="the action, as in the record; null: the deal")
    view = serializers.DictField(help_text="the spectator's view, less the `shared` keys and the log")
    hands = serializers.ListField(child=serializers.ListField(), help_text="every seat's tiles, face up")
    events = serializers.ListField(child=serializers.DictField(), help_text="the log events this move added")


class HandPositionsOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    number = serializers.IntegerField()
    hand = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="how many hands of the match are finished")
    game = serializers.CharField()
    players = serializers.IntegerField()
    seats = RecordSeat(many=True)
    seed = serializers.CharField()
    commitment = serializers.CharField()
    shared = serializers.DictField(help_text="the view keys every position shares (options, teams, ...)")
    scores_before = serializers.ListField(child=serializers.IntegerField())
    scores_after = serializers.ListField(child=serializers.IntegerField())
    summary = serializers.DictField(allow_null=True, help_text="the hand's summary, as `last_hand` of a view")
    match_over = serializers.BooleanField()
    result = serializers.DictField(allow_null=True)
    positions = PositionOut(many=True)


class HandPositionsApi(APIView):
    @extend_schema(
        request=None,
        responses={200: HandPositionsOut, 404: OpenApiResponse(ErrorOut, description="not_found")},
        summary="Every position of a finished hand, every hand face up",
        operation_id="hand_positions",
        description=(
            "To anyone with the room link. `h` counts the finished hands of match `n` from 0, "
            "as in its record; the hand being played answers 404 like a hand that never was. "
            "Position 0 is the deal; position i follows the hand's i-th action."
        ),
    )
    def get(self, request: Request, code: str, number: int, hand: int) -> Response:
        return Response(match_records.hand_positions_get(code, number, hand))
