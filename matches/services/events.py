"""Event rows: one per user told of a change, written in the transaction that made it.

Each user's events are read on their own (`?after=<id>` of one user), so a user's event ids must
grow in commit order, or a client could step past an event whose transaction commits late. So a
writer takes locks (held until its transaction ends) before it takes ids: on PostgreSQL
transaction-scoped advisory locks; SQLite transactions here are IMMEDIATE, one writer at a time,
which gives the same order. After commit, listeners are woken.

A plain `notify` takes the one event lock exclusively: writers queue one behind the other, as
everywhere before. Inside `batched()` (the move path) events are gathered and written when the
block ends, in one statement that takes the event lock shared and then one lock per recipient, in
id order: moves whose recipients differ do not wait for each other at all, moves told to the same
user queue on that user's lock, and every plain writer still waits for them all (and they for it).
Locks taken in one statement, shared lock first, recipients in order, cannot deadlock; so a batch
must be the last events its transaction writes (`move_submit` and `engine_move_apply` end with it)."""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from typing import Iterable

from django.db import connection, transaction
from django.utils import timezone

from matches import wakeup
from matches.models import Event

# pg_advisory_xact_lock key for event writers (any fixed 64-bit number unique to this use), and
# the base of the per-recipient keys of a batch (base + user id).
_EVENT_LOCK = 0x50_45_41_52_4C_45_56_54
_RECIPIENT_LOCK_BASE = 0x50_45_55_53_00_00_00_00
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
def batched():
    """Events notified inside the block are written together at its end (inside the caller's
    transaction), under the recipients' locks (module docstring). Nested blocks join the outer
    one; on an exception nothing is written. The block must end its transaction's event writes."""
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
        _write(rows, per_recipient=True)


def _write(rows: list[Event], per_recipient: bool = False) -> None:
    # No savepoint: inside the caller's transaction the lock and rows stand or fall with it.
    with transaction.atomic(savepoint=False):
        ids = list(dict.fromkeys(row.user_id for row in rows))
        match_ids = {row.payload["match"] for row in rows if isinstance(row.payload.get("match"), int)}
        transaction.on_commit(lambda: wakeup.publish(ids, match_ids))
        if connection.vendor == "postgresql":
            _insert_locked(rows, per_recipient)
        else:
            Event.objects.bulk_create(rows)


def _insert_locked(rows: list[Event], per_recipient: bool) -> None:
    """Take the locks and insert the rows in one statement: the join cannot produce a row (and so
    take an id) before its one-row side has taken every lock."""
    now = timezone.now()
    values = ", ".join(["(%s, %s, %s::jsonb, %s)"] * len(rows))
    if per_recipient:
        keys = sorted({_RECIPIENT_LOCK_BASE + row.user_id for row in rows})
        lock, params = _RECIPIENTS_LOCK, [keys, _EVENT_LOCK]
    else:
        lock, params = "SELECT pg_advisory_xact_lock(%s)", [_EVENT_LOCK]
    for row in rows:
        params += [row.user_id, row.kind, json.dumps(row.payload), now]
    with connection.cursor() as cursor:
        cursor.execute('INSERT INTO matches_event (user_id, kind, payload, created_at) '
                       'SELECT v.user_id, v.kind, v.payload, v.created_at '
                       f'FROM ({lock}) AS event_lock, '
                       f'(VALUES {values}) AS v(user_id, kind, payload, created_at)', params)


# The shared event lock first (a one-time filter, run before the scan), then each recipient's key
# in ascending order (the array is sorted), all before the one row comes out.
_RECIPIENTS_LOCK = ("SELECT count(pg_advisory_xact_lock(key)) FROM unnest(%s::bigint[]) AS key "
                    "WHERE (SELECT pg_advisory_xact_lock_shared(%s)::text) = ''")
