"""The one body format: JSON, UTF-8, nested at most `MAX_JSON_DEPTH` deep.

The depth is checked before parsing, without recursion (strings removed, then innermost bracket
pairs deleted pass by pass), so `[` × 60000 is a 400 `json_too_deep` instead of a RecursionError. The body's
size is already bounded by the request limit (pearlsite/limits.py)."""
from __future__ import annotations

import json
import re

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer

from matches.errors import ServiceError

MAX_JSON_DEPTH = 32
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_AS_PARENS = str.maketrans("[{]}", "(())")


def nests_deeper_than(text: str, limit: int) -> bool:
    """Whether `text` nests arrays and objects more than `limit` deep (brackets inside strings do
    not count). Each pass deletes the innermost pairs, all at once and in C, so `limit` passes
    empty any body nested at most `limit` deep; an opener left over is deeper (or never closed)."""
    if text.count("[") + text.count("{") <= limit:
        return False                  # the common case: too few openers to be deep
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_AS_PARENS)
    for _ in range(limit):
        shorter = brackets.replace("()", "")
        if shorter == brackets:
            break
        brackets = shorter
    return "(" in brackets


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class JSONParser(BaseParser):
    media_type = "application/json"
    renderer_class = JSONRenderer

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            text = stream.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError(f"the body is not UTF-8: {exc}") from None
        if nests_deeper_than(text, MAX_JSON_DEPTH):
            raise ServiceError("json_too_deep", f"the body nests arrays and objects more than {MAX_JSON_DEPTH} "
                               "levels deep", detail={"limit": MAX_JSON_DEPTH})
        try:
            return json.loads(text, parse_constant=_refuse_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
