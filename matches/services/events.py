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
must be the last events its transaction writes (`move_submit` and `engine_move_apply` end with it).

A batch can also carry other writes of its transaction (`write_along`): on PostgreSQL plain
data-modifying statements that travel as `WITH` items of the batch's statement, so a move's record,
its match row and its events take one round trip. Such a write must not be read before the batch is
written (or `write_held` sends it earlier)."""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from contextlib import contextmanager

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
    _pending.rows, _pending.held = [], []
    try:
        yield
        rows, held = _pending.rows, _pending.held
    finally:
        _pending.rows = _pending.held = None
    if rows:
        _write(rows, per_recipient=True, held=held)
    elif held:
        _send(held)


Held = tuple[str, list, Callable[[object], None] | None]


def write_along(sql: str, params: list, returned: Callable[[object], None] | None = None) -> None:
    """A data-modifying statement of the caller's transaction (`INSERT …`, `UPDATE …`), sent with
    the events of the enclosing `batched()` block: on PostgreSQL as one of the `WITH` items of
    their statement (or of a statement of its own at the block's end if it has no events), on
    other databases on its own at the block's end. With `returned`, the
    statement ends in `RETURNING <one column>` of one row, and `returned` gets that value once it
    has run. Outside a batch it runs now. Held statements run in one statement, so no two of them
    may write the same row."""
    item = (sql, list(params), returned)
    held = getattr(_pending, "held", None)
    if held is None:
        _send([item])
    else:
        held.append(item)


def write_held() -> None:
    """Send the writes held by `write_along` now (before a statement that must see them)."""
    held = getattr(_pending, "held", None)
    if held:
        items = list(held)
        held.clear()
        _send(items)


def _with(held: list[Held]) -> tuple[str, list, str]:
    """The WITH clause of held writes, its parameters and the list of their returned values."""
    clause = "WITH " + ", ".join(f"held_{i} AS ({sql})" for i, (sql, _, _) in enumerate(held)) + " "
    params = [p for _, item_params, _ in held for p in item_params]
    values = ", ".join(f"(SELECT * FROM held_{i})" for i, (_, _, returned) in enumerate(held) if returned)
    return clause, params, values


def _returned(held: list[Held], row) -> None:
    values = iter(row or ())
    for _, _, returned in held:
        if returned is not None:
            returned(next(values))


def _send(held: list[Held]) -> None:
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":     # no data-modifying WITH: one statement each
            for sql, params, returned in held:
                cursor.execute(sql, params)
                if returned is not None:
                    returned(cursor.fetchone()[0])
            return
        clause, params, values = _with(held)
        cursor.execute(clause + "SELECT " + (values or "NULL"), params)
        row = cursor.fetchone()
    _returned(held, row)


def _write(rows: list[Event], per_recipient: bool = False, held: list[Held] = ()) -> None:
    # No savepoint: inside the caller's transaction the lock and rows stand or fall with it.
    with transaction.atomic(savepoint=False):
        ids = list(dict.fromkeys(row.user_id for row in rows))
        match_ids = {row.payload["match"] for row in rows if isinstance(row.payload.get("match"), int)}
        transaction.on_commit(lambda: wakeup.publish(ids, match_ids))
        if connection.vendor == "postgresql":
            _insert_locked(rows, per_recipient, list(held))
        else:
            if held:
                _send(list(held))
            Event.objects.bulk_create(rows)


def _insert_locked(rows: list[Event], per_recipient: bool, held: list[Held]) -> None:
    """Take the locks and insert the rows in one statement: the join cannot produce a row (and so
    take an id) before its one-row side has taken every lock. Held writes go first, as its WITH
    items (they lock no new rows: their rows are the transaction's already)."""
    now = timezone.now()
    values = ", ".join(["(%s, %s, %s::jsonb, %s)"] * len(rows))
    if per_recipient:
        keys = sorted({_RECIPIENT_LOCK_BASE + row.user_id for row in rows})
        lock, params = _RECIPIENTS_LOCK, [keys, _EVENT_LOCK]
    else:
        lock, params = "SELECT pg_advisory_xact_lock(%s)", [_EVENT_LOCK]
    for row in rows:
        params += [row.user_id, row.kind, json.dumps(row.payload), now]
    clause, held_params, returning = _with(held) if held else ("", [], "")
    with connection.cursor() as cursor:
        cursor.execute(clause + 'INSERT INTO matches_event (user_id, kind, payload, created_at) '
                       'SELECT v.user_id, v.kind, v.payload, v.created_at '
                       f'FROM ({lock}) AS event_lock, '
                       f'(VALUES {values}) AS v(user_id, kind, payload, created_at)'
                       + (f' RETURNING {returning}' if returning else ''), held_params + params)
        row = cursor.fetchone() if returning else None
    if held:
        _returned(held, row)


# The shared event lock first (a one-time filter, run before the scan), then each recipient's key
# in ascending order (the array is sorted), all before the one row comes out.
_RECIPIENTS_LOCK = ("SELECT count(pg_advisory_xact_lock(key)) FROM unnest(%s::bigint[]) AS key "
                    "WHERE (SELECT pg_advisory_xact_lock_shared(%s)::text) = ''")
