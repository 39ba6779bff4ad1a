"""Input and output shapes of the HTTP API (they also write the OpenAPI schema).

They check types and sizes only; every rule (options, player counts, who may do what) is
checked by the services and the engine.
"""

from __future__ import annotations

from rest_framework import serializers

from lobby.services import AI_LEVELS, MAX_PLAYERS, MIN_PLAYERS, NAME_MAX_LENGTH


class RoomCreateIn(serializers.Serializer):  # type: ignore[type-arg]
    game = serializers.CharField(max_length=32)
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS)
    options = serializers.DictField(required=False, default=dict)
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    grace_seconds = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    turn_seconds = serializers.IntegerField(min_value=5, max_value=3600, required=False, allow_null=True)


class RoomCreateOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    link = serializers.CharField(help_text="the room's path, /r/<code>")
    url = serializers.URLField(help_text="the absolute link to share: PUBLIC_URL or the network address")
    seat = serializers.IntegerField()
    token = serializers.CharField()


class RoomUpdateIn(serializers.Serializer):  # type: ignore[type-arg]
    players = serializers.IntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, required=False)
    options = serializers.DictField(required=False)
    grace_seconds = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    turn_seconds = serializers.IntegerField(min_value=5, max_value=3600, required=False, allow_null=True)


class SeatInfo(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    name = serializers.CharField()
    ai = serializers.CharField(allow_null=True)
    human = serializers.BooleanField()
    free = serializers.BooleanField()
    connected = serializers.BooleanField(allow_null=True)
    standin_at = serializers.DateTimeField(allow_null=True)
    standin = serializers.BooleanField()


class MatchInfo(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    over = serializers.BooleanField()
    to_move = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    result = serializers.DictField(allow_null=True)


class RoomOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    link = serializers.CharField()
    url = serializers.URLField(help_text="the absolute link to share")
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField()
    resolved_options = serializers.DictField()
    grace_seconds = serializers.IntegerField()
    turn_seconds = serializers.IntegerField(allow_null=True)
    host_seat = serializers.IntegerField()
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        allow_null=True,
        help_text="the seats of each team in a partnership game (seats 0+2 and 1+3), else null",
    )
    revision = serializers.IntegerField(help_text="counts the room's changes: the newer, the higher")
    started = serializers.BooleanField()
    playing = serializers.BooleanField()
    paused = serializers.BooleanField(
        help_text="no player has been connected to the match for a while: nothing moves until one returns"
    )
    match = MatchInfo(allow_null=True)
    seats = SeatInfo(many=True)
    you = serializers.IntegerField(allow_null=True, help_text="the seat of the bearer token, if any")


class SeatCreateIn(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=NAME_MAX_LENGTH, required=False)
    seat = serializers.IntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, required=False, help_text="a free seat; default the first"
    )
    ai = serializers.ChoiceField(choices=AI_LEVELS, required=False)

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        if "ai" in attrs:
            if "seat" not in attrs:
                raise serializers.ValidationError({"seat": "an AI needs the seat to put it in"})
            if "name" in attrs:
                raise serializers.ValidationError({"name": "an AI seat takes no name"})
        elif "name" not in attrs:
            raise serializers.ValidationError({"name": "a name is required to join"})
        return attrs


class SeatUpdateIn(serializers.Serializer):  # type: ignore[type-arg]
    move_to = serializers.IntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, required=False, help_text="the seat to swap with"
    )
    ai = serializers.ChoiceField(
        choices=AI_LEVELS, allow_null=True, required=False, help_text="an AI level, or null to open the seat"
    )

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        if ("move_to" in attrs) == ("ai" in attrs):
            raise serializers.ValidationError({"body": "send exactly one of move_to and ai"})
        return attrs


class SeatCreateOut(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    token = serializers.CharField(required=False)


class MatchStartOut(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    version = serializers.IntegerField()


class ErrorOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    detail = serializers.CharField()
    option = serializers.CharField(required=False)


class GameOut(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()


class RecordSeat(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField()
    ai = serializers.CharField(allow_null=True)


class RecordHand(serializers.Serializer):  # type: ignore[type-arg]
    seed = serializers.CharField(help_text="the hand's secret seed, revealed at its end (hex)")
    commitment = serializers.CharField(help_text="sha256 of the seed (hex), shown before the deal")
    actions = serializers.ListField(
        child=serializers.ListField(), help_text="[seat, action] in the order they were played"
    )


class MatchRecordOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    number = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = serializers.DictField(help_text="the match's options, every default filled in")
    seats = RecordSeat(many=True)
    hands = RecordHand(many=True)
    result = serializers.DictField(allow_null=True, help_text="null until the match is over")
