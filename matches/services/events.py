"""Event rows: one per user told of a change, written in the transaction that made it.

Ids must grow in commit order, or a client reading `?after=<id>` could step past an event whose
transaction commits late. So every writer takes one lock (held until its transaction ends) before
it takes ids: on PostgreSQL a transaction-scoped advisory lock; SQLite transactions here are
IMMEDIATE, one writer at a time, which gives the same order. After commit, listeners are woken.

Inside `batched()` (the move path) events are gathered and written when the block ends: one lock,
one INSERT, and the lock is taken as late as possible, so concurrent moves wait on it only for
their last statement and the commit."""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from typing import Iterable

import psycopg
from django.db import connection, transaction
from django.utils import timezone

from matches import wakeup
from matches.models import Event

# pg_advisory_xact_lock key for event writers (any fixed 64-bit number unique to this use).
_EVENT_LOCK = 0x50_45_41_52_4C_45_56_54
_pending = threading.local()
_KINDS = frozenset(Event.Kind.values)      # `Kind.values` builds a new list on every access


def notify(users: Iterable, kind: str, payload: dict) -> None:
    """An event for each distinct user in `users` (None entries, engine seats, are skipped)."""
    if kind not in _KINDS:
        raise ValueError(f"unknown event kind {kind!r}: add it to Event.Kind")
    seen: dict[int, object] = {}
    for user in users:
        if user is not None:
            seen.setdefault(user.pk, user)
    if not seen:
        return
    rows = [Event(user=u, kind=kind, payload=payload) for u in seen.values()]
    batch = getattr(_pending, "rows", None)
    if batch is not None:
        batch.extend(rows)
    else:
        _write(rows)


@contextmanager
def batched(*, ends_transaction: bool = False):
    """Events notified inside the block are written together at its end (inside the caller's
    transaction). Nested blocks join the outer one; on an exception nothing is written.

    `ends_transaction=True` promises that the block is the last thing its transaction does. When
    that transaction is the outermost one (it commits right after the block), the events' INSERT
    and the COMMIT go to PostgreSQL as one query: the event lock is then held only while the
    server inserts and commits, never while the web process waits for a CPU to send the COMMIT,
    which on a busy machine made every concurrent move queue behind that wait."""
    if getattr(_pending, "rows", None) is not None:
        yield
        return
    _pending.rows = []
    try:
        yield
        rows = _pending.rows
    finally:
        _pending.rows = None
    if rows:
        _write(rows, commit=ends_transaction and _commits_after_block())


def _commits_after_block() -> bool:
    """The current atomic block is the outermost one, bound to commit when it ends."""
    return (connection.vendor == "postgresql" and connection.in_atomic_block and connection.commit_on_exit
            and len(connection.atomic_blocks) == 1 and not connection.savepoint_ids
            and not connection.needs_rollback)


def _write(rows: list[Event], commit: bool = False) -> None:
    # No savepoint: inside the caller's transaction the lock and rows stand or fall with it.
    with transaction.atomic(savepoint=False):
        ids = list(dict.fromkeys(row.user_id for row in rows))
        match_ids = {row.payload["match"] for row in rows if isinstance(row.payload.get("match"), int)}
        transaction.on_commit(lambda: wakeup.publish(ids, match_ids))
        if connection.vendor == "postgresql":
            _insert_locked(rows, commit=commit)
        else:
            Event.objects.bulk_create(rows)


def _insert_locked(rows: list[Event], commit: bool = False) -> None:
    """Take the lock and insert the rows in one statement: the join cannot produce a row (and so
    take an id) before its one-row side has run the lock function. `commit`: the transaction's
    COMMIT follows in the same query (psycopg then finds the transaction over, and Django's own
    commit at the end of the block has nothing left to do)."""
    now = timezone.now()
    values = ", ".join(["(%s, %s, %s::jsonb, %s)"] * len(rows))
    params: list = [_EVENT_LOCK]
    for row in rows:
        params += [row.user_id, row.kind, json.dumps(row.payload), now]
    sql = ('INSERT INTO matches_event (user_id, kind, payload, created_at) '
           'SELECT v.user_id, v.kind, v.payload, v.created_at '
           'FROM (SELECT pg_advisory_xact_lock(%s)) AS event_lock, '
           f'(VALUES {values}) AS v(user_id, kind, payload, created_at)')
    with connection.cursor() as cursor:
        # Several statements in one query need the simple query protocol (client-side binding).
        if commit and isinstance(cursor.cursor, psycopg.ClientCursor):
            sql += "; COMMIT"
        cursor.execute(sql, params)
