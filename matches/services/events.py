"""Event rows: one per user told of a change, written in the transaction that made it.

Ids must grow in commit order, or a client reading `?after=<id>` could step past an event whose
transaction commits late. So every writer takes one lock (held until its transaction ends) before
it takes ids: on PostgreSQL a transaction-scoped advisory lock; SQLite transactions here are
IMMEDIATE, one writer at a time, which gives the same order. After commit, listeners are woken."""
from __future__ import annotations

from typing import Iterable

from django.db import connection, transaction

from matches import wakeup
from matches.models import Event

# pg_advisory_xact_lock key for event writers (any fixed 64-bit number unique to this use).
_EVENT_LOCK = 0x50_45_41_52_4C_45_56_54


def notify(users: Iterable, kind: str, payload: dict) -> None:
    """An event for each distinct user in `users` (None entries, engine seats, are skipped)."""
    if kind not in Event.Kind.values:
        raise ValueError(f"unknown event kind {kind!r}: add it to Event.Kind")
    seen: dict[int, object] = {}
    for user in users:
        if user is not None:
            seen.setdefault(user.pk, user)
    if not seen:
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_EVENT_LOCK])
        Event.objects.bulk_create([Event(user=u, kind=kind, payload=payload) for u in seen.values()])
        ids = list(seen)
        transaction.on_commit(lambda: wakeup.publish(ids))
