"""The `<id:...>` path converter for row ids, registered once for the API's and the pages' URLs.

Every key is a BigAutoField: a signed 64-bit integer. An id beyond it (or one with a sign) does
not resolve, so it is an ordinary 404 on every database instead of an overflow inside one
(SQLite cannot bind it; PostgreSQL refuses it)."""
from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1


class IdConverter:
    # 19 digits hold every id; to_python turns away those of them past MAX_ID.
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(f"{value} is past the largest id")
        return number

    def to_url(self, value: int) -> str:
        if not 0 <= int(value) <= MAX_ID:
            raise ValueError(f"{value} is not an id")
        return str(value)


register_converter(IdConverter, "id")
