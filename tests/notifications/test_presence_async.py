"""Presence under ASGI: an event stream records its player, and the write does not leave a
database connection held by the request's thread for as long as the stream stays open (checked
against a real uvicorn, where every request has a thread of its own)."""
import socket

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import AsyncClient

from matches.services import accounts
from notifications.models import Presence
from tests.matches.test_event_stream_server import Server, redis_server  # noqa: F401 — the fixture

# The async views and the presence write use threads of their own (each its own connection).
pytestmark = pytest.mark.django_db(transaction=True)

RAW_STREAMS = 16


def _server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


async def _open_streams(user, count: int) -> list:
    responses = []
    for _ in range(count):
        await sync_to_async(cache.clear)()           # every stream writes presence, not only the first
        response = await AsyncClient().get("/api/v1/events/stream/", headers={"Authorization": f"Token {user.api_key}"})
        assert response.status_code == 200
        responses.append(response)
    return responses


async def _close(responses) -> None:
    for response in responses:
        await sync_to_async(response.close)()


def test_an_event_stream_records_its_player(alice):
    async def scenario():
        await _close(await _open_streams(alice, 1))

    async_to_sync(scenario)()
    assert Presence.objects.filter(user=alice).exists()


def _open_raw_stream(port: int, token: str) -> socket.socket:
    """A stream opened and left open: its request line sent and its 200 headers read."""
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    client.sendall(f"GET /api/v1/events/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
                   "Accept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += client.recv(4096)
    assert b" 200 " in head.split(b"\r\n", 1)[0]
    return client


@pytest.mark.faults
def test_open_streams_on_uvicorn_hold_no_database_connection_each(redis_server, tmp_path):  # noqa: F811
    server = Server(redis_server.url, tmp_path, PEARLSITE_STREAMS_PER_USER="0", PEARLSITE_STREAMS_PER_ADDRESS="0")
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"present{i}", password="!") for i in range(RAW_STREAMS + 1)])
    tokens = [accounts.token_create(user=user)[1] for user in users]     # one player each: each writes presence
    server.start()
    streams = []
    try:
        streams.append(_open_raw_stream(server.port, tokens[0]))       # the pool's threads connect
        before = _server_connections()
        streams += [_open_raw_stream(server.port, token) for token in tokens[1:]]
        held = _server_connections()
    finally:
        for stream in streams:
            stream.close()
        server.stop()
    assert Presence.objects.filter(user__in=users).count() == RAW_STREAMS + 1
    # Each request's own thread connecting would add a connection per stream.
    assert held - before < RAW_STREAMS // 2
