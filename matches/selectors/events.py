"""Event reads: a user's events in id order after a cursor, waiting for the next ones, and
following them as a stream. `wait(seconds)` may return early (a wake-up); `clock()` is
monotonic seconds: both are passed in, so the timing is the caller's (and the tests')."""
from __future__ import annotations

import time
from typing import Callable, Iterator

from django.db import router

from matches.models import Event

from . import rows

HEARTBEAT = None    # what `follow` yields when the stream has been quiet for a heartbeat interval


def events_after(user, after: int = 0, limit: int = 50) -> list[Event]:
    """The next `limit` events of `user` with an id above `after`, oldest first. Read on every
    poll: plain SQL on PostgreSQL (rows.py)."""
    alias = router.db_for_read(Event)
    if not rows.plain_sql(alias, user.pk, after, limit):
        return list(Event.objects.using(alias).filter(user_id=user.pk, pk__gt=after).order_by("id")[:limit])
    return [_EVENT.instance(row, 0, alias) for row in rows.fetch(alias, _EVENTS_SQL, [user.pk, after, limit])]


_EVENT = rows.Columns(Event, "e")
_EVENTS_SQL = f"SELECT {_EVENT.sql} FROM {_EVENT.table} WHERE e.user_id = %s AND {_EVENT.pk} > %s ORDER BY {_EVENT.pk} LIMIT %s"


def wait_for_events(user, after: int, limit: int, timeout: float, *, wait: Callable[[float], None],
                    clock: Callable[[], float] = time.monotonic, interval: float = 1.0) -> list[Event]:
    """Like `events_after`, but if there are none, look again until some arrive or `timeout`
    seconds pass (at least every `interval`; sooner when `wait` is woken)."""
    deadline = clock() + timeout
    while True:
        found = events_after(user, after, limit)
        left = deadline - clock()
        if found or left <= 0:
            return found
        wait(min(interval, left))


def follow(user, after: int, *, duration: float, heartbeat: float, wait: Callable[[float], None],
           clock: Callable[[], float] = time.monotonic, interval: float = 1.0,
           batch: int = 100) -> Iterator[Event | None]:
    """Every event after `after` as it arrives, for `duration` seconds; `HEARTBEAT` after each
    quiet `heartbeat` seconds. Events pending at the start are all sent, even with no duration."""
    end = clock() + duration
    next_beat = clock() + heartbeat
    while True:
        found = events_after(user, after, batch)
        for event in found:
            after = event.pk
            yield event
        now = clock()
        if found:
            next_beat = now + heartbeat
            continue
        if now >= end:
            return
        if now >= next_beat:
            yield HEARTBEAT
            next_beat = now + heartbeat
        wait(max(0.0, min(interval, end - now, next_beat - now)))


def event_payload(event: Event) -> dict:
    return {"id": event.pk, "kind": event.kind, "payload": event.payload, "created_at": event.created_at}


def latest_event_id(user) -> int:
    """The id of the user's newest event (0 if none): where a live page starts following."""
    return Event.objects.filter(user_id=user.pk).order_by("-id").values_list("id", flat=True).first() or 0
