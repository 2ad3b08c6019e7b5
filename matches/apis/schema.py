"""Shared API plumbing: validated input, typed pages, and the error responses each endpoint
documents (their codes come from `matches.errors.CODES`)."""
from __future__ import annotations

from collections import defaultdict
from typing import Callable

from django.contrib.auth.password_validation import (MinimumLengthValidator, NumericPasswordValidator,
                                                     get_default_password_validators,
                                                     password_validators_help_texts)
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from ai_workers.engines import LEVELS
from matches.errors import CODES, ServiceError
from matches.services.analysis import ANALYSIS_LEVELS

from .caching import conditional

# Every endpoint may answer these.
COMMON_CODES = ("throttled", "not_acceptable")
BODY_CODES = ("parse_error", "json_too_deep", "validation_error", "unsupported_media_type", "payload_too_large")
AUTH_CODES = ("not_authenticated", "authentication_failed")


class ErrorOut(serializers.Serializer):
    code = serializers.CharField(help_text="a stable code; see each response's description")
    message = serializers.CharField(help_text="for people; may change")
    detail = serializers.DictField(help_text="machine-readable specifics (e.g. the current ply)")


def errors(*codes: str, body: bool = False, auth: bool = False) -> dict:
    """`responses=` entries for these codes, grouped by status, each listing its codes. Errors are
    JSON whatever the operation's own format (SVG, text, Markdown, event streams)."""
    chosen = list(codes) + list(COMMON_CODES) + (list(BODY_CODES) if body else []) \
        + (list(AUTH_CODES) if auth else [])
    by_status: dict[int, list[str]] = defaultdict(list)
    for code in chosen:
        by_status[CODES[code][0]].append(code)
    return {(status, "application/json"): OpenApiResponse(ErrorOut, description="; ".join(
        f"`{c}`: {CODES[c][1]}" for c in sorted(set(found))))
        for status, found in by_status.items()}


# --- Fields whose schema the catalogue, the engines and the validators state ------------------
# The services still decide (an unknown game is 400 `unknown_game`, not a validation error); the
# schema lists the same values, read from the same sources, so typed clients get enums.

NO_NUL = r"^[^\u0000]*$"          # every DRF CharField refuses NUL characters
# ... and one that may not be blank refuses whitespace alone: it trims first, with str.strip, whose
# whitespace (str.isspace: all below U+3001) is listed here rather than as \s (JavaScript's differs).
_STRIPPED = "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x3001)) if c.isspace())
NOT_BLANK = rf"^[^\u0000]*[^{_STRIPPED}\u0000][^\u0000]*$"


def game_slugs(seats: int | None = None) -> list[str]:
    """The catalogue's slugs (those a game of `seats` players can use, if given)."""
    return sorted(slug for slug, rules in games.GAMES.items()
                  if seats is None or rules.min_players <= seats <= rules.max_players)


def variant_names() -> list[str]:
    """Every variant name and alias of any game: "standard" (every game's) first, the rest sorted."""
    names = {name for rules in games.GAMES.values() for name in [*rules.variants, *rules.variant_aliases]}
    return sorted(names, key=lambda name: (name != "standard", name))


def variants_by_game() -> str:
    return "; ".join(f"{slug}: {', '.join(sorted([*rules.variants, *rules.variant_aliases]))}"
                     for slug, rules in sorted(games.GAMES.items()))


def opponent_pattern() -> str:
    """`ai:<level>` for an engine level, else a username (which never holds a ':')."""
    return rf"^(?:ai:(?:{'|'.join(LEVELS)})|[^:\u0000]*[^:{_STRIPPED}\u0000][^:\u0000]*)$"


def password_min_length() -> int:
    """The least length the configured password validators ask for (0 without MinimumLengthValidator)."""
    return max([v.min_length for v in get_default_password_validators() if isinstance(v, MinimumLengthValidator)],
               default=0)


def password_schema() -> dict:
    """What the configured password validators can be stated as: their least length (the field's
    minLength), and with NumericPasswordValidator at least one character that is not a digit. The
    rest (common passwords, likeness to the username) is in the description."""
    numeric = any(isinstance(v, NumericPasswordValidator) for v in get_default_password_validators())
    return {"type": "string", "description": " ".join(password_validators_help_texts()),
            "pattern": r"^[^\u0000]*[^0-9\u0000][^\u0000]*$" if numeric else NO_NUL}


# The enums' values (named in settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
GAME_SLUGS = game_slugs()
TWO_PLAYER_GAME_SLUGS = game_slugs(seats=2)
VARIANT_NAMES = variant_names()


@extend_schema_field({"type": "string", "enum": GAME_SLUGS})
class GameSlugField(serializers.CharField):
    """A game of the catalogue."""


@extend_schema_field({"type": "string", "enum": TWO_PLAYER_GAME_SLUGS})
class TwoPlayerGameField(serializers.CharField):
    """A game two can play (ladders and tournaments pair two players)."""


@extend_schema_field({"type": "string", "enum": VARIANT_NAMES})
class VariantField(serializers.CharField):
    """A named variant or alias; which ones each game has is the catalogue's, said in the description."""

    def __init__(self, *, help_text: str = "a named variant (or an alias) of the game", **kwargs):
        super().__init__(help_text=f"{help_text}. Per game: {variants_by_game()}", **kwargs)


@extend_schema_field({"type": "string", "enum": [*VARIANT_NAMES, ""]})
class VariantOrBlankField(VariantField):
    """A variant, or "" for none (the standard settings)."""


@extend_schema_field({"type": "string", "pattern": opponent_pattern()})
class OpponentField(serializers.CharField):
    """A username or `ai:<level>`."""


@extend_schema_field({"type": "string", "enum": list(ANALYSIS_LEVELS)})
class AnalysisLevelField(serializers.CharField):
    """An engine level that analyses (every one but random)."""


@extend_schema_field(password_schema())
class PasswordField(serializers.CharField):
    """A new password, taken as typed (spaces too, as Django's own forms do): shorter than the
    validators' least length is a 400 `validation_error`; the other validators are the service's
    (400 `weak_password`)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_length", password_min_length() or None)
        super().__init__(trim_whitespace=False, **kwargs)


class TimeControlSchema(serializers.Serializer):
    """A clock: per move (`days`) or Fischer (`initial_days`, `increment_days`, `max_days`)."""

    kind = serializers.ChoiceField(choices=["per_move", "fischer"])
    days = serializers.IntegerField(required=False, help_text="per_move: days for every turn (1-60)")
    initial_days = serializers.IntegerField(required=False, help_text="fischer: the bank at the start (1-60)")
    increment_days = serializers.IntegerField(required=False, help_text="fischer: added after each move (0-30)")
    max_days = serializers.IntegerField(required=False, help_text="fischer: the most a bank holds (up to 120)")

    def to_representation(self, instance):
        return {k: v for k, v in super().to_representation(instance).items() if v is not None}


_OUTPUT: dict[tuple[type, bool], serializers.BaseSerializer] = {}


def rendered(serializer_cls: type[serializers.Serializer], data, many: bool = False):
    """`serializer_cls(data, many=many).data` (as plain dicts and lists), from one kept instance per
    class: building a serializer deep-copies all its fields on every request, while
    `to_representation` only reads them (so threads may share the instance)."""
    serializer = _OUTPUT.get((serializer_cls, many))
    if serializer is None:
        serializer = _OUTPUT[(serializer_cls, many)] = serializer_cls(many=many)
    return serializer.to_representation(data)


def valid(serializer_cls, request: Request) -> dict:
    serializer = serializer_cls(data=request.data)
    if isinstance(request.data, dict):
        _check_json_types(serializer.fields, request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# JSON bodies carry their own types: DRF would read "5" as 5 and "yes" as true; a body must not.
_JSON_TYPES = ((serializers.BooleanField, bool, "a boolean"), (serializers.IntegerField, int, "an integer"),
               (serializers.CharField, str, "a string"), (serializers.ChoiceField, str, "a string"),
               (serializers.ListField, list, "a list"), (serializers.DictField, dict, "an object"))


def _type_problem(field: serializers.Field, value) -> str | dict | None:
    if value is None:
        return None                       # allow_null decides
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, dict):
            return f"must be an object, not {type(value).__name__}"
        return _type_problems(field.fields, value) or None
    for field_cls, json_type, name in _JSON_TYPES:
        if isinstance(field, field_cls):
            if not isinstance(value, json_type) or (json_type is int and isinstance(value, bool)):
                return f"must be {name}, not {type(value).__name__}"
            if json_type is list and isinstance(field.child, serializers.CharField) \
                    and not all(v is None or isinstance(v, str) for v in value):
                return "every entry must be a string or null"
            return None
    return None


def _type_problems(fields: dict, data: dict) -> dict:
    """{field: [problem]} (nested objects: {field: {inner field: [problem]}}) for wrong JSON types."""
    found = {}
    for name, field in fields.items():
        problem = _type_problem(field, data[name]) if name in data else None
        if problem:
            found[name] = problem if isinstance(problem, dict) else [problem]
    return found


def _check_json_types(fields: dict, data: dict) -> None:
    problems = _type_problems(fields, data)
    if problems:
        raise serializers.ValidationError(problems)


_PAGE_SERIALIZERS: dict[type, type] = {}


def page_of(item_serializer: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The paginated list type of `item_serializer` (count, next, previous, results)."""
    if item_serializer not in _PAGE_SERIALIZERS:
        name = item_serializer.__name__.removesuffix("Out") + "PageOut"
        _PAGE_SERIALIZERS[item_serializer] = type(name, (serializers.Serializer,), {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item_serializer(many=True),
        })
    return _PAGE_SERIALIZERS[item_serializer]


def paginated(request: Request, view: APIView, items, render, out: type[serializers.Serializer],
              etag: Callable[[list, int], str] | None = None) -> Response:
    """A page of `items`; with `etag` (the page's items and the total count → a tag), a 304 when
    the client holds that tag."""
    paginator = PageNumberPagination()
    try:
        page = paginator.paginate_queryset(items, request, view=view)
    except NotFound:
        raise ServiceError("page_not_found", "the page number is past the last page",
                           detail={"parameter": "page"}) from None

    def respond() -> Response:
        return paginator.get_paginated_response(rendered(out, [render(x) for x in page], many=True))

    if etag is None:
        return respond()
    return conditional(request, etag(page, paginator.page.paginator.count), respond)
