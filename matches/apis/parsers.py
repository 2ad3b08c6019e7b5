"""The one body format: JSON, UTF-8, nested at most `MAX_JSON_DEPTH` deep.

The depth is measured before parsing, without recursion (strings removed, then a running sum over
the brackets), so `[` × 60000 is a 400 `json_too_deep` instead of a RecursionError. The body's
size is already bounded by the request limit (pearlsite/limits.py)."""
from __future__ import annotations

import json
import re
from itertools import accumulate

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer

from matches.errors import ServiceError

MAX_JSON_DEPTH = 32
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deeply `text` nests arrays and objects (brackets inside strings do not count)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


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
        depth = json_depth(text)
        if depth > MAX_JSON_DEPTH:
            raise ServiceError("json_too_deep", f"the body nests {depth} levels deep; at most {MAX_JSON_DEPTH}",
                               detail={"depth": depth, "limit": MAX_JSON_DEPTH})
        try:
            return json.loads(text, parse_constant=_refuse_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
