"""Waking long polls and event streams when a user's events commit.

With REDIS_URL set, `publish` (after commit) sends the user ids on one pub/sub channel per user
and a `Listener` wakes as soon as one arrives; without Redis a listener just sleeps its interval
and the caller polls the database. Either way the database stays the truth: a lost message only
delays an answer by one interval."""
from __future__ import annotations

import logging
import threading
import time
from typing import Iterable

from django.conf import settings

log = logging.getLogger(__name__)
_CHANNEL = "pearlsite:events:{}"
_client = None
_client_lock = threading.Lock()


def _redis():
    global _client
    if not settings.REDIS_URL:
        return None
    with _client_lock:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return _client


def publish(user_ids: Iterable[int]) -> None:
    """Tell listeners these users have new events (best effort: errors are logged, not raised)."""
    from matches import redis_link

    client = _redis()
    if client is None or redis_link.breaker.is_open:     # Redis failed just now: do not wait for it
        return
    try:
        for user_id in set(user_ids):
            client.publish(_CHANNEL.format(user_id), b"1")
    except Exception:   # noqa: BLE001 — a wake-up is an optimisation; pollers still find the rows
        log.warning("could not publish event wake-ups", exc_info=True)


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
                self._pubsub.subscribe(_CHANNEL.format(self.user_id))
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
