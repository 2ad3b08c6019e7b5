"""The hot reads as plain SQL on PostgreSQL: a request's token with its user, a match with its
seats (locked for a write), a user's events after a cursor.

They run on every move or poll, and Django compiles a queryset again on each call: for the match
with its seats that costs the web process several times what PostgreSQL takes to answer. So on
PostgreSQL each is one parameterised statement, written once over its models' concrete columns,
and its rows become instances the documented way: `Model.from_db`, each field's `from_db_value`
(psycopg already gives every other column its Python type), related objects assigned through their
descriptors. Other databases run the queryset each read is defined by; tests compare the two."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import connections
from django.db.models import Model

# A value outside a bigint cannot be bound to these statements; the queryset answers it instead.
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


def plain_sql(alias: str, *ints) -> bool:
    """True when the read may be plain SQL: PostgreSQL, and every integer argument a bigint."""
    return connections[alias].vendor == "postgresql" and all(
        type(n) is int and BIGINT_MIN <= n <= BIGINT_MAX for n in ints)


class Columns:
    """A model's concrete columns under a table alias: the SELECT list, and a row's slice of them
    made an instance (as the ORM makes it from the same columns)."""

    def __init__(self, model: type[Model], alias: str):
        fields = list(model._meta.concrete_fields)
        self.model, self.width = model, len(fields)
        self.table = f'{model._meta.db_table} AS {alias}'
        self.sql = ", ".join(f'{alias}."{f.column}"' for f in fields)
        self.pk = f'{alias}."{model._meta.pk.column}"'
        self.names = [f.attname for f in fields]
        self.converters = [(i, f.from_db_value) for i, f in enumerate(fields) if hasattr(f, "from_db_value")]

    def instance(self, row: Sequence, start: int, alias: str) -> Model:
        values = row[start:start + self.width]
        if self.converters:
            values, connection = list(values), connections[alias]
            for i, convert in self.converters:
                values[i] = convert(values[i], None, connection)
        return self.model.from_db(alias, self.names, values)


def fetch(alias: str, sql: str, params: Sequence) -> list[tuple]:
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
