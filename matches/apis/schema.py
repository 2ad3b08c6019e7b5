"""Shared API plumbing: validated input, typed pages, and the error responses each endpoint
documents (their codes come from `matches.errors.CODES`)."""
from __future__ import annotations

from collections import defaultdict
from typing import Callable

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.errors import CODES, ServiceError

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
