"""Query parameters, declared and checked: each view names an input serializer for its query string;
an unknown or malformed parameter is a 400 `invalid_filter` naming it, and the schema documents
exactly the declared ones."""
from __future__ import annotations

import functools

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.errors import ServiceError

# Parameters any view may receive without declaring them (DRF's own format suffix override).
_ALWAYS_ALLOWED = frozenset({"format"})


class PageQueryIn(serializers.Serializer):
    page = serializers.IntegerField(required=False, min_value=1, help_text="page number, from 1 (50 items a page)")


# Per declaring class: its parameter names, and what an empty query string validates to (the
# defaults). Building a serializer deep-copies its fields: most requests need not.
_FIELD_NAMES: dict[type, frozenset[str]] = {}
_DEFAULTS: dict[type, dict] = {}


def parse_query(serializer_cls: type[serializers.Serializer], request: Request) -> dict:
    """The validated query string of `request`, or a ServiceError naming the first bad parameter."""
    empty = not request.query_params
    if empty and serializer_cls in _DEFAULTS:
        return dict(_DEFAULTS[serializer_cls])
    fields = _FIELD_NAMES.get(serializer_cls)
    if fields is None:
        fields = _FIELD_NAMES[serializer_cls] = frozenset(serializer_cls().fields)
    for name in request.query_params:
        if name not in fields and name not in _ALWAYS_ALLOWED:
            raise ServiceError("invalid_filter", f"unknown query parameter {name!r}", detail={"parameter": name})
    data = {name: request.query_params.get(name) for name in fields if name in request.query_params}
    serializer = serializer_cls(data=data)
    if not serializer.is_valid():
        name, problems = next(iter(serializer.errors.items()))
        raise ServiceError("invalid_filter", f"{name}: {problems[0]}", detail={"parameter": name})
    if empty:
        _DEFAULTS[serializer_cls] = dict(serializer.validated_data)
    return serializer.validated_data


def query_params(serializer_cls: type[serializers.Serializer]):
    """Decorate a view method: `request.query` holds the validated parameters of `serializer_cls`."""
    def decorate(method):
        @functools.wraps(method)
        def checked(self, request: Request, *args, **kwargs):
            request.query = parse_query(serializer_cls, request)
            return method(self, request, *args, **kwargs)
        checked.query_serializer = serializer_cls
        return extend_schema(parameters=[serializer_cls])(checked)
    return decorate


class NoQueryIn(serializers.Serializer):
    """The query string of a handler that takes no parameters."""


class Api(APIView):
    """The base of every endpoint: a handler without `@query_params` takes no query parameters, and
    a refusal is JSON whatever format the operation answers in (SVG, text, Markdown, event streams)."""

    def finalize_response(self, request: Request, response, *args, **kwargs):
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    def initial(self, request: Request, *args, **kwargs) -> None:
        # A method the endpoint does not serve is 405 whatever the credentials (DRF would
        # authenticate first, and answer a stale token's 401 to a TRACE).
        if request.method.lower() not in self.http_method_names or not hasattr(self, request.method.lower()):
            raise MethodNotAllowed(request.method)
        super().initial(request, *args, **kwargs)
        handler = getattr(self, request.method.lower(), None)
        if handler is not None and not hasattr(handler, "query_serializer"):
            parse_query(NoQueryIn, request)
