"""Waking long polls and event streams when a user's events commit.

With REDIS_URL set, `publish` (after commit) sends the user ids on one pub/sub channel per user
and a `Listener` wakes as soon as one arrives; without Redis a listener just sleeps its interval
and the caller polls the database. Either way the database stays the truth: a lost message only
delays an answer by one interval.

`publish` runs after commit on the move path, so it never raises and never waits long: one
pipelined round trip with a short timeout, and after a failure it stays quiet for
`_QUIET_AFTER_FAILURE` seconds (the readers poll the database meanwhile). Match pages listen on
one channel per match. The ASGI service's processes listen with one subscription each
(matches/fanout.py); `Listener` is the threaded path's, one subscription per waiting request."""
from __future__ import annotations

import logging
import threading
import time
from typing import Iterable

from django.conf import settings

log = logging.getLogger(__name__)
USER_CHANNEL = "pearlsite:events:{}"
MATCH_CHANNEL = "pearlsite:matches:{}"
_QUIET_AFTER_FAILURE = 5.0
_client = None
_client_lock = threading.Lock()
_quiet_until = 0.0


def _redis():
    global _client
    if not settings.REDIS_URL:
        return None
    with _client_lock:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
        return _client


def publish(user_ids: Iterable[int], match_ids: Iterable[int] = ()) -> None:
    """Tell listeners these users have new events and these matches changed (best effort:
    errors are logged, not raised)."""
    from matches import redis_link

    global _quiet_until
    client = _redis()
    if client is None or redis_link.breaker.is_open or time.monotonic() < _quiet_until:
        return
    try:
        pipe = client.pipeline(transaction=False)
        for user_id in set(user_ids):
            pipe.publish(USER_CHANNEL.format(user_id), b"1")
        for match_id in set(match_ids):
            pipe.publish(MATCH_CHANNEL.format(match_id), b"1")
        pipe.execute()
    except Exception:   # noqa: BLE001 — a wake-up is an optimisation; pollers still find the rows
        _quiet_until = time.monotonic() + _QUIET_AFTER_FAILURE
        log.warning("could not publish event wake-ups; quiet for %s s", _QUIET_AFTER_FAILURE, exc_info=True)


class Listener:
    """`with Listener(user_id) as listener: listener.wait(seconds)` returns early on a wake-up."""

    def __init__(self, user_id: int):
        self.user_id = user_id
        self._pubsub = None

    def __enter__(self) -> "Listener":
        client = _redis()
        if client is not None:
            try:
                self._pubsub = client.pubsub(ignore_subscribe_messages=True)
                self._pubsub.subscribe(USER_CHANNEL.format(self.user_id))
            except Exception:   # noqa: BLE001 — fall back to plain polling
                log.warning("could not subscribe to event wake-ups", exc_info=True)
                self._pubsub = None
        return self

    @property
    def interval(self) -> float:
        """How long to wait between looks at the database: long when a wake-up will come."""
        return 5.0 if self._pubsub is not None else 1.0

    def __exit__(self, *exc) -> None:
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except Exception:   # noqa: BLE001
                pass

    def wait(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self._pubsub is None:
            time.sleep(seconds)
            return
        try:
            self._pubsub.get_message(timeout=seconds)
        except Exception:   # noqa: BLE001
            log.warning("event wake-up channel failed; polling instead", exc_info=True)
            self._pubsub = None
            time.sleep(seconds)


class Slots:
    """A cap on requests that hold a thread while they wait (long polls and streams): past it,
    a request answers at once instead of waiting."""

    def __init__(self, count: int):
        self._semaphore = threading.BoundedSemaphore(count) if count > 0 else None

    def acquire(self) -> bool:
        return self._semaphore is not None and self._semaphore.acquire(blocking=False)

    def release(self) -> None:
        if self._semaphore is not None:
            self._semaphore.release()
