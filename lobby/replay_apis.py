"""The replay page's API: every position of a finished hand, every hand face up, and the
Hard AI's review of a seat's decisions (docs/protocol.md, "Replayed positions", "Reviews").
Apart from lobby/apis.py so the replay's endpoints and their schemas stay together."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lobby import match_records, reviews
from lobby.apis import bearer_token
from lobby.serializers import ErrorOut, RecordSeat
from lobby.services import MAX_PLAYERS


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


class ReviewQuery(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)


class ReviewItemOut(serializers.Serializer):  # type: ignore[type-arg]
    hand = serializers.IntegerField(help_text="the finished hand, counted from 0 as in the record")
    move = serializers.IntegerField(help_text="the action's index in the hand (the replay's `move`)")
    played = serializers.DictField(help_text="the action the seat took")
    best = serializers.DictField(help_text="the Hard AI's choice from the seat's view at that moment")
    loss = serializers.FloatField(help_text="Hard's estimate of `best` less that of `played`, at least 0")
    why = serializers.CharField(help_text="one sentence: why `best`")
    unit = serializers.CharField(help_text='"points" (marks in Texas 42 scored in marks)')


class ReviewComputingOut(serializers.Serializer):  # type: ignore[type-arg]
    status = serializers.ChoiceField(choices=["computing"])


class MatchReviewApi(APIView):
    @extend_schema(
        request=None,
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.QUERY, required=True,
                                     description="the seat reviewed, from 0")],
        responses={200: ReviewItemOut(many=True),
                   202: OpenApiResponse(ReviewComputingOut, description="being worked out: ask again")},
        summary="The Hard AI's review of a seat's decisions in the match's finished hands",
        operation_id="match_review",
        description=(
            "For each decision of seat `seat` with a choice, in the finished hands of match `n`: "
            "Hard's choice from that seat's view at that moment, and what the move played cost by "
            "Hard's own estimate (docs/protocol.md, \"Reviews\"). The seat's own token may ask at "
            "any time, anyone once the match is over (another seat's token before that: 403). "
            "202 while a hand is still being reviewed in the background."
        ),
    )
    def get(self, request: Request, code: str, number: int) -> Response:
        query = ReviewQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            items = reviews.review_get(code, number, query.validated_data["seat"], bearer_token(request))
        except reviews.Computing:
            return Response({"status": "computing"}, status=202)
        return Response(items)
