"""Event rows: one per user told of a change, written in the transaction that made it."""
from __future__ import annotations

from typing import Iterable

from matches.models import Event


def notify(users: Iterable, kind: str, payload: dict) -> None:
    """An event for each distinct user in `users` (None entries, engine seats, are skipped)."""
    seen: dict[int, object] = {}
    for user in users:
        if user is not None:
            seen.setdefault(user.pk, user)
    Event.objects.bulk_create([Event(user=u, kind=kind, payload=payload) for u in seen.values()])
