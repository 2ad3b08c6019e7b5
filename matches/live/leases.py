"""How many streams and waiting long polls one account and one client address hold at once.

Each open stream holds a lease per scope (`user:<id>`, `ip:<address>`). With Redis the leases are
members of one sorted set per scope, scored by their expiry: every process of every server counts
the same set, each process renews its open streams' leases together, and a lease of a process
that died expires after `LEASE_SECONDS`. Every process also counts its own leases in memory; while Redis is
down (or absent) those counts decide, so during an outage each process enforces the limit alone
(an account may then hold the limit once per process). A refused lease is a 429
`too_many_streams`.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
import uuid
import weakref
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings

from .fanout import no_retries

log = logging.getLogger(__name__)
LEASE_SECONDS = 60
_KEY = "pearlsite:streams:{}"
_QUIET_AFTER_FAILURE = 5.0
_local: Counter = Counter()
_held: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # loop → its open leases
_clients: dict = {}
_quiet_until = 0.0
# The leases taken while serving one connection (pearlsite/slow_readers.py opens the scope): when
# the server drops the connection they are given back at once, not when the abandoned response
# is collected (Django does not close a response whose send failed).
_connection_leases: contextvars.ContextVar[list | None] = contextvars.ContextVar("connection_leases", default=None)


@dataclass
class Refusal:
    scope: str          # "user" or "address"
    limit: int


@dataclass(eq=False)
class Lease:
    scopes: list[str]
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    in_redis: bool = False
    released: bool = False
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.get_running_loop)

    def __post_init__(self) -> None:
        held = _connection_leases.get()
        if held is not None:
            held.append(self)

    def release(self) -> None:
        """Give the lease back (idempotent; also from another thread, such as a response's close())."""
        if self.released:
            return
        self.released = True
        self.loop.call_soon_threadsafe(self._give_back)

    def _give_back(self) -> None:
        _local.subtract(self.scopes)
        _held.get(self.loop, set()).discard(self)
        if self.in_redis:
            self.loop.create_task(_redis_call(lambda pipe: _remove(pipe, [self])))


@contextlib.contextmanager
def connection_scope():
    """Around serving one connection: yields a function that gives back every lease taken meanwhile."""
    held: list[Lease] = []
    token = _connection_leases.set(held)
    try:
        yield lambda: [lease.release() for lease in held]
    finally:
        _connection_leases.reset(token)


def _remove(pipe, leases) -> None:
    for lease in leases:
        for scope in lease.scopes:
            pipe.zrem(_KEY.format(scope), lease.token)


def _renew(pipe, leases) -> None:
    expires = time.time() + LEASE_SECONDS
    for lease in leases:
        for scope in lease.scopes:
            pipe.zadd(_KEY.format(scope), {lease.token: expires}, xx=True)


async def _renew_held(loop) -> None:
    """Every third of a lease's lifetime, renew every shared lease this process holds, in one
    pipeline per thousand (not one call per stream, which would queue behind each other)."""
    while True:
        await asyncio.sleep(LEASE_SECONDS / 3)
        held = [lease for lease in _held.get(loop, ()) if lease.in_redis and not lease.released]
        for start in range(0, len(held), 1000):
            await _redis_call(lambda pipe, chunk=held[start:start + 1000]: _renew(pipe, chunk))


def _hold(lease: Lease) -> None:
    held = _held.get(lease.loop)
    if held is None:
        held = _held[lease.loop] = set()
        lease.loop.create_task(_renew_held(lease.loop), context=contextvars.Context())
    held.add(lease)


def _limits(user_id: int | None, address: str | None) -> list[tuple[str, str, int]]:
    wanted = []
    if user_id is not None and settings.STREAMS_PER_USER:
        wanted.append(("user", f"user:{user_id}", settings.STREAMS_PER_USER))
    if address and settings.STREAMS_PER_ADDRESS:
        wanted.append(("address", f"ip:{address}", settings.STREAMS_PER_ADDRESS))
    return wanted


async def acquire(user_id: int | None, address: str | None) -> Lease | Refusal:
    """A lease for one more stream, or the first scope whose limit it would pass."""
    wanted = _limits(user_id, address)
    lease = Lease([scope for _, scope, _ in wanted])
    counts = await _redis_acquire(lease, wanted)
    if counts is None:
        counts = [_local[scope] + 1 for _, scope, _ in wanted]
    else:
        lease.in_redis = True
    for (name, _, limit), count in zip(wanted, counts):
        if count > limit:
            if lease.in_redis:
                lease.released = True
                await _redis_call(lambda pipe: _remove(pipe, [lease]))
            return Refusal(name, limit)
    _local.update(lease.scopes)
    _hold(lease)
    return lease


async def _redis_acquire(lease: Lease, wanted) -> list[int] | None:
    """Add the lease to each scope's set (dropping expired ones) and count them; None without Redis."""
    if not wanted:
        return []
    now = time.time()

    def commands(pipe):
        for _, scope, _ in wanted:
            key = _KEY.format(scope)
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {lease.token: now + LEASE_SECONDS})
            pipe.zcard(key)
            pipe.expire(key, LEASE_SECONDS * 2)

    results = await _redis_call(commands, transaction=True)
    return None if results is None else results[2::4]


async def _redis_call(commands, transaction: bool = False):
    """Run a pipeline; None (and quiet for a while) when Redis is absent or failing."""
    global _quiet_until
    client = _client()
    if client is None or time.monotonic() < _quiet_until:
        return None
    try:
        pipe = client.pipeline(transaction=transaction)
        commands(pipe)
        return await asyncio.wait_for(pipe.execute(), 2.0)
    except Exception as exc:   # noqa: BLE001 — Redis down: each process counts alone meanwhile
        if time.monotonic() >= _quiet_until:
            log.warning("stream limits: Redis unavailable (%r), counting per process for %s s",
                        exc, _QUIET_AFTER_FAILURE)
        _quiet_until = time.monotonic() + _QUIET_AFTER_FAILURE
        return None


def _client():
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        import redis.asyncio as aioredis
        for old in [key for key in _clients if key.is_closed()]:
            del _clients[old]
        # A few connections, shared: a wave of streams opening queues for them instead of
        # opening a connection each.
        pool = aioredis.BlockingConnectionPool.from_url(settings.REDIS_URL, max_connections=16, timeout=2,
                                                        socket_timeout=1, socket_connect_timeout=1,
                                                        retry=no_retries())
        client = _clients[loop] = aioredis.Redis(connection_pool=pool)
    return client
