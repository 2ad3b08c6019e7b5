"""Reads on the hot paths (the token, the match with its seats, the events after a cursor) whose
SQL is compiled once per process instead of on every request.

Compiling a queryset with joins, annotations and a lock costs Django more CPU than PostgreSQL
takes to answer it. A `PreparedQuery` compiles its queryset once (per database alias), keeps the
SQL, where each argument sits among the parameters, and how a row becomes model instances, and
then only binds new arguments: the rows come back exactly as the queryset would give them
(instances from `from_db`, related objects cached, annotations set, field converters applied)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable

from django.db import connections, router
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError


_BIGINT_MIN, _BIGINT_MAX = -(2**63), 2**63 - 1


class _Sentinel:
    """Distinctive stand-ins for the arguments while the query is compiled: each must reach the
    parameters unchanged, exactly once (a value that shapes the SQL, like a LIMIT, cannot)."""

    @staticmethod
    def value(kind: type, index: int):
        if kind is int:
            return -(2**62) - 7919 * (index + 1)
        if kind is str:
            return f"\x00prepared-argument-{index}\x00"
        raise TypeError(f"prepared query arguments must be int or str, not {kind.__name__}")


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple
    slots: tuple[int, ...]              # parameter position of each argument
    locks: bool
    model: type
    fields: slice
    init_list: list[str]
    populators: list
    annotations: tuple[tuple[str, int], ...]
    converters: tuple[tuple[int, tuple, Any], ...]


class PreparedQuery:
    """`build(*args)` returns the queryset of `model` for these arguments (ints and strs, of
    `kinds`, that the queryset uses only as filter values). Calling the prepared query runs it and
    returns the list the queryset would. `shaped=True`: `build` also takes a keyword `shape`, a
    hashable that changes the SQL itself (a slice's bounds); each shape is compiled once."""

    def __init__(self, model: type, build: Callable[..., QuerySet], *kinds: type, shaped: bool = False):
        self._model, self._build, self._kinds, self._shaped = model, build, kinds, shaped
        self._plans: dict[tuple[Hashable, str], _Plan] = {}
        self._for_write: bool | None = None

    def __call__(self, *args, shape: Hashable = None) -> list:
        if not all(type(arg) is kind and (kind is not int or _BIGINT_MIN <= arg <= _BIGINT_MAX)
                   for arg, kind in zip(args, self._kinds, strict=True)):
            # Anything else (a huge id, a str for an int) goes Django's way, with its conversions.
            return list(self._build(*args, shape=shape) if self._shaped else self._build(*args))
        alias = self._alias()
        plan = self._plans.get((shape, alias))
        if plan is None:
            sentinels = [_Sentinel.value(kind, i) for i, kind in enumerate(self._kinds)]
            queryset = self._build(*sentinels, shape=shape) if self._shaped else self._build(*sentinels)
            self._for_write = bool(queryset.query.select_for_update)
            alias = queryset.db
            plan = self._plans[(shape, alias)] = self._compile(queryset)
        connection = connections[alias]
        if plan.locks and connection.features.has_select_for_update and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(plan.params)
        for slot, value in zip(plan.slots, args, strict=True):
            params[slot] = value
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        return [self._instance(plan, alias, connection, row) for row in rows]

    def _alias(self) -> str:
        if self._for_write:
            return router.db_for_write(self._model)
        return router.db_for_read(self._model)

    def _compile(self, queryset: QuerySet) -> _Plan:
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        slots = []
        for index, kind in enumerate(self._kinds):
            sentinel = _Sentinel.value(kind, index)
            found = [i for i, p in enumerate(params) if type(p) is kind and p == sentinel]
            if len(found) != 1:
                raise ValueError(f"argument {index} must reach the SQL as exactly one parameter, "
                                 f"not {len(found)}")
            slots.append(found[0])
        if compiler.has_extra_select or compiler.query.combinator:
            raise ValueError("a prepared query reads its model's columns (no extra select, no union)")
        select, klass_info = compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        converters = compiler.get_converters([s[0] for s in select[0:compiler.col_count]])
        return _Plan(
            sql=sql, params=tuple(params), slots=tuple(slots), locks=bool(queryset.query.select_for_update),
            model=klass_info["model"], fields=slice(start, end),
            init_list=[s[0].target.attname for s in select[start:end]],
            populators=get_related_populators(klass_info, select, queryset.db),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
            converters=tuple((pos, tuple(convs), expression) for pos, (convs, expression) in converters.items()))

    @staticmethod
    def _instance(plan: _Plan, alias: str, connection, row: tuple):
        if plan.converters:
            row = list(row)
            for pos, convs, expression in plan.converters:
                value = row[pos]
                for converter in convs:
                    value = converter(value, expression, connection)
                row[pos] = value
        obj = plan.model.from_db(alias, plan.init_list, row[plan.fields])
        for populator in plan.populators:
            populator.populate(row, obj)
        for name, pos in plan.annotations:
            setattr(obj, name, row[pos])
        return obj
