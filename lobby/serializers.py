"""Input and output shapes of the HTTP API (they also write the OpenAPI schema).

Input fields are strict: a string is a JSON string, an integer a JSON integer (not `2.0`, not
`"2"`, not `true`), a boolean a JSON boolean; an unknown field is refused. Every field's
mistake is reported at once (docs/api.md). The rules that need the room (who may do what, a
free seat) are the services'; a game's options are checked against their one declaration in
`games/` (`games.options`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from games import options as game_options
from lobby.errors import worded
from lobby.services import AI_LEVELS, MAX_PLAYERS, MIN_PLAYERS, NAME_MAX_LENGTH

#: Joiners that emoji sequences and some scripts need; every other format character of the
#: basic plane (bidirectional overrides, invisible marks) could make one name pass for
#: another. Beyond it the format characters are the tags of flag emoji and a few scripts'
#: marks, which a name may hold.
_FORMAT_ALLOWED = frozenset({"\u200c", "\u200d"})


def _refused_in_names(char: str) -> bool:
    category = unicodedata.category(char)
    return category in {"Cc", "Cs"} or (category == "Cf" and char not in _FORMAT_ALLOWED and char <= "\uffff")


def _char_class(chars: list[int]) -> str:
    """A regular-expression class of these code points (all in the basic plane) as `\\uXXXX`
    escapes, which Python's `re`, the schema validators and the generators all read."""

    def esc(point: int) -> str:
        return f"\\u{point:04X}"

    parts: list[str] = []
    start = prev = chars[0]
    for point in [*chars[1:], -1]:
        if point == prev + 1:
            prev = point
            continue
        parts.append(esc(start) if start == prev else f"{esc(start)}-{esc(prev)}")
        start = prev = point
    return "".join(parts)


#: Lone surrogates never arrive (the JSON parser refuses them), and a schema's regular
#: expression may not name them. Every refused character and every space is in the basic
#: plane, so only it is scanned (all of Unicode took half a second of each process's start).
_BASIC_PLANE = range(0x10000)
_REFUSED = [p for p in _BASIC_PLANE if _refused_in_names(chr(p)) and not 0xD800 <= p <= 0xDFFF]
_SPACES = [p for p in _BASIC_PLANE if chr(p).isspace() and not _refused_in_names(chr(p))]
#: A name as the schema says it: at least one character that is not a space, none refused.
NAME_PATTERN = f"^[^{_char_class(_REFUSED)}]*[^{_char_class(_REFUSED + _SPACES)}][^{_char_class(_REFUSED)}]*$"


class StrictCharField(serializers.CharField):
    default_error_messages = {"wrong_type": gettext_lazy("must be a string")}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("wrong_type")
        return str(super().to_internal_value(data))


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"wrong_type": gettext_lazy("must be a whole number")}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("wrong_type")
        return int(super().to_internal_value(data))


class StrictChoiceField(serializers.ChoiceField):
    default_error_messages = {"wrong_type": gettext_lazy("must be a string")}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("wrong_type")
        return super().to_internal_value(data)


class NameField(StrictCharField):
    """A player's name: spaces collapsed and trimmed, 1 to 40 characters (before and after),
    no control or invisible characters (refused, not stripped, so the player learns why)."""

    default_error_messages = {  # noqa: RUF012
        "control_character": gettext_lazy("a name cannot contain control or invisible characters"),
        "blank": gettext_lazy("a name cannot be empty"),
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, allow_blank=True, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        raw = super().to_internal_value(data)
        if any(_refused_in_names(c) for c in raw):
            self.fail("control_character")
        if len(raw) > NAME_MAX_LENGTH:
            raise serializers.ValidationError(
                gettext("a name is at most %(length)s characters") % {"length": NAME_MAX_LENGTH},
                code="max_length")
        clean = " ".join(raw.split())
        if not clean:
            self.fail("blank")
        return clean


class StrictSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Refuses fields it does not know (each one named) and a body that is not an object."""

    def to_internal_value(self, data: Any) -> Any:
        if type(data) is not dict:  # a form's QueryDict (no JSON body at all) is not one either
            raise serializers.ValidationError(
                {"body": [serializers.ErrorDetail(gettext("the body must be a JSON object"),
                                                  code="not_an_object")]})
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors.update(exc.detail if isinstance(exc.detail, dict) else {"body": exc.detail})
            value = None
        for name in data:
            if name not in self.fields:
                errors[str(name)] = [serializers.ErrorDetail(gettext("unknown field"), code="unknown_field")]
        if errors:
            raise serializers.ValidationError(errors)
        return value


def _option_details(found: list[game_options.OptionError]) -> dict[str, Any]:
    return {
        f"options.{e.option}" if e.option not in ("options", "players") else e.option:
            [serializers.ErrorDetail(worded(e.template, e.params), code=e.code)]
        for e in found
    }


def _seconds(minimum: int, **kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=minimum, max_value=3600, required=False, **kwargs)


class RoomCreateIn(StrictSerializer):
    game = StrictChoiceField(choices=game_options.game_names())
    players = StrictIntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS)
    options = serializers.JSONField(required=False, default=dict)
    name = NameField()
    grace_seconds = _seconds(0)
    turn_seconds = _seconds(5, allow_null=True)

    def to_internal_value(self, data: Any) -> Any:
        """Every mistake at once: the fields', then each option refused on its own, then (all
        else being right) what the engine says of the options together."""
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors = dict(exc.detail) if isinstance(exc.detail, dict) else {"body": exc.detail}
            value = None
        game = data.get("game") if isinstance(data, dict) else None
        if game in game_options.game_names() and "options" not in errors and isinstance(data, dict):
            errors.update(_option_details(game_options.errors(game, data.get("options", {}))))
        if errors:
            raise serializers.ValidationError(errors)
        return value


class RoomCreateOut(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    link = serializers.CharField(help_text="the room's path, /r/<code>")
    url = serializers.URLField(help_text="the absolute link to share: PUBLIC_URL or the network address")
    seat = serializers.IntegerField()
    token = serializers.CharField(
        help_text="the host's seat token: send it as `Authorization: Bearer <token>`"
    )


class RoomUpdateIn(StrictSerializer):
    players = StrictIntegerField(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, required=False)
    options = serializers.JSONField(required=False)
    grace_seconds = _seconds(0)
    turn_seconds = _seconds(5, allow_null=True)

    def validate_options(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise serializers.ValidationError(gettext("options must be a JSON object"), code="not_an_object")
        return value


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


class SeatCreateIn(StrictSerializer):
    name = NameField(required=False)
    seat = StrictIntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, required=False, help_text="a free seat; default the first"
    )
    ai = StrictChoiceField(choices=AI_LEVELS, required=False)

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        if "ai" in attrs:
            if "seat" not in attrs:
                raise serializers.ValidationError(
                    {"seat": gettext("an AI needs the seat to put it in")}, code="required"
                )
            if "name" in attrs:
                raise serializers.ValidationError({"name": gettext("an AI seat takes no name")},
                                                  code="not_allowed")
        elif "name" not in attrs:
            raise serializers.ValidationError({"name": gettext("a name is required to join")},
                                              code="required")
        return attrs


class SeatUpdateIn(StrictSerializer):
    move_to = StrictIntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, required=False, help_text="the seat to swap with"
    )
    ai = StrictChoiceField(
        choices=AI_LEVELS, allow_null=True, required=False, help_text="an AI level, or null to open the seat"
    )

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        if ("move_to" in attrs) == ("ai" in attrs):
            raise serializers.ValidationError({"body": gettext("send exactly one of move_to and ai")},
                                              code="one_of")
        return attrs


class SeatCreateOut(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    token = serializers.CharField(required=False)


class MatchStartOut(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    version = serializers.IntegerField()


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


class FieldErrorOut(serializers.Serializer):  # type: ignore[type-arg]
    field = serializers.CharField(help_text="the field: `name`, `options.set`, `body` for the whole body")
    code = serializers.CharField(
        help_text="stable: `required`, `wrong_type`, `max_value`, `not_a_choice`, ..."
    )
    detail = serializers.CharField(help_text="for people")


class ErrorOut(serializers.Serializer):  # type: ignore[type-arg]
    """Every refusal under /api/: problem details (RFC 9457), `application/problem+json`; a
    body that fails validation adds `errors`, a list of `FieldErrorOut`."""

    type = serializers.CharField(help_text="about:blank: the status says what kind of problem")
    title = serializers.CharField(help_text="the status phrase")
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="what went wrong, for people")
    code = serializers.CharField(help_text="stable, for programs (docs/api.md)")
