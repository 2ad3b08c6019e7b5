"""One wake-up source per process of the ASGI service, fanned out in memory to every waiting client.

A `Hub` belongs to one event loop. Its listener holds one Redis subscription (a pattern over every
user's and match's channel, matches/wakeup.py) and sets the `Waiter`s of the users and matches a
message names. Its poller reads the event table after the highest id it has seen, in one query
for the whole process, and wakes the users (and the matches named in the payloads) it finds: every
`STREAM_POLL_SECONDS` while Redis is down or absent, every `STREAM_SAFETY_POLL_SECONDS` while
subscribed (so a lost message costs at most that long). When the subscription (re)starts every
waiter is woken once: a message published while it was down is not lost, the readers look at the
database. The database stays the truth: a wake-up only says "look now".
"""
from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import weakref
from contextlib import contextmanager
from typing import Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from matches.models import Event
from matches.wakeup import MATCH_CHANNEL, USER_CHANNEL

log = logging.getLogger(__name__)
_PATTERNS = (USER_CHANNEL.format("*"), MATCH_CHANNEL.format("*"))
_POLL_BATCH = 2000
_RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)


class Waiter:
    """A flag one client waits on; set by any wake-up of what it watches."""

    __slots__ = ("_flag", "__weakref__")

    def __init__(self) -> None:
        self._flag = asyncio.Event()

    def wake(self) -> None:
        self._flag.set()

    async def wait(self, seconds: float) -> bool:
        """Wait up to `seconds` for a wake-up (True) and re-arm; False on time-out."""
        if seconds > 0 and not self._flag.is_set():
            try:
                await asyncio.wait_for(self._flag.wait(), seconds)
            except TimeoutError:
                return False
        woken = self._flag.is_set()
        self._flag.clear()
        return woken


class Hub:
    def __init__(self) -> None:
        self._users: dict[int, set[Waiter]] = {}
        self._matches: dict[int, set[Waiter]] = {}
        self._tasks: list[asyncio.Task] = []
        self.subscribed = False
        self._high_water: int | None = None
        self._poll_now = asyncio.Event()

    @property
    def waiting(self) -> int:
        return sum(len(w) for w in self._users.values()) + sum(len(w) for w in self._matches.values())

    @contextmanager
    def watch(self, *, user_id: int | None = None, match_id: int | None = None) -> Iterator[Waiter]:
        """A waiter woken by the user's new events and/or the match's changes, while the block runs.
        Register before reading the database, so a wake-up between the read and the wait is kept."""
        self._start()
        waiter = Waiter()
        keys = [(self._users, user_id), (self._matches, match_id)]
        for table, key in keys:
            if key is not None:
                table.setdefault(key, set()).add(waiter)
        try:
            yield waiter
        finally:
            for table, key in keys:
                if key is not None and key in table:
                    table[key].discard(waiter)
                    if not table[key]:
                        del table[key]

    def wake_users(self, user_ids) -> None:
        for user_id in user_ids:
            for waiter in self._users.get(user_id, ()):
                waiter.wake()

    def wake_matches(self, match_ids) -> None:
        for match_id in match_ids:
            for waiter in self._matches.get(match_id, ()):
                waiter.wake()

    def wake_all(self) -> None:
        for table in (self._users, self._matches):
            for waiters in table.values():
                for waiter in waiters:
                    waiter.wake()

    def _start(self) -> None:
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        # A context of their own: not the first request's (whose per-request thread ends with it).
        self._tasks.append(loop.create_task(self._poll(), context=contextvars.Context()))
        if settings.REDIS_URL:
            self._tasks.append(loop.create_task(self._listen(), context=contextvars.Context()))

    # --- the subscription ---------------------------------------------------------------------

    def _on_message(self, message: dict) -> None:
        channel = message.get("channel", b"")
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        prefix, _, key = channel.rpartition(":")
        if not key.isdigit():
            return
        if prefix + ":" == USER_CHANNEL.format(""):
            self.wake_users([int(key)])
        elif prefix + ":" == MATCH_CHANNEL.format(""):
            self.wake_matches([int(key)])

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        failures = 0
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, health_check_interval=15,
                                             retry=no_retries())
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(*_PATTERNS)
                self.subscribed, failures = True, 0
                log.info("event wake-ups: subscribed")
                self.wake_all()          # anything published while unsubscribed: look now
                while True:
                    message = await pubsub.get_message(timeout=15.0)
                    if message is not None:
                        self._on_message(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:   # noqa: BLE001 — Redis down: the poller reads the database meanwhile
                if self.subscribed or failures == 0:
                    log.warning("event wake-ups: Redis unavailable (%r), polling the database", exc)
                    self._poll_now.set()
                self.subscribed = False
                failures += 1
            finally:
                self.subscribed = False
                await _close_quietly(pubsub, client)
            await asyncio.sleep(_RECONNECT_SECONDS[min(failures, len(_RECONNECT_SECONDS)) - 1])

    # --- the database poller ----------------------------------------------------------------------

    async def _poll(self) -> None:
        while True:
            try:
                await self.poll_once()
            except asyncio.CancelledError:
                raise
            except Exception:   # noqa: BLE001 — the database is down: try again next interval
                log.warning("event wake-ups: could not read new events", exc_info=True)
            interval = settings.STREAM_SAFETY_POLL_SECONDS if self.subscribed else settings.STREAM_POLL_SECONDS
            try:        # the listener cuts a long sleep short when the subscription is lost
                await asyncio.wait_for(self._poll_now.wait(), interval)
            except TimeoutError:
                pass
            self._poll_now.clear()

    async def poll_once(self) -> None:
        """Wake the users and matches of every event committed since the last look."""
        if self._high_water is None:
            self._high_water = await _latest_event_id()
            return
        rows = await _events_since(self._high_water)
        if not rows:
            return
        self._high_water = rows[-1][0]
        self.wake_users({user_id for _, user_id, _ in rows})
        self.wake_matches({p["match"] for _, _, p in rows if isinstance(p, dict) and isinstance(p.get("match"), int)})


def no_retries():
    """Fail at once when Redis is gone (redis-py retries with back-off by default): the database
    polling takes over sooner, and this loop reconnects on its own schedule."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    return Retry(NoBackoff(), 0)


async def _close_quietly(pubsub, client) -> None:
    for closing in (pubsub.aclose, client.aclose):
        try:
            await closing()
        except Exception:   # noqa: BLE001 — closing a connection that is already gone
            pass


def db_call(function):
    """`function` as a coroutine run on the loop's small shared thread pool, not on the request's
    own thread: a waiting client holds no thread and no database connection; the pool's few
    threads keep theirs, dropped after an error so the next call connects afresh."""
    @functools.wraps(function)
    def guarded(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Exception:
            connection.close()
            raise
    return sync_to_async(guarded, thread_sensitive=False)


@db_call
def _latest_event_id() -> int:
    return Event.objects.order_by("-id").values_list("id", flat=True).first() or 0


@db_call
def _events_since(after: int) -> list[tuple[int, int, dict]]:
    return list(Event.objects.filter(pk__gt=after).order_by("id").values_list("id", "user_id", "payload")[:_POLL_BATCH])


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running event loop's hub (one per process under uvicorn)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found
