"""Bounded input: bodies over the limit are refused unread (413), JSON nests at most 32 deep, and
body fields keep their JSON types."""
import asyncio
import io
import json

import pytest
from django.core.handlers.wsgi import WSGIHandler

from matches.apis.parsers import MAX_JSON_DEPTH, nests_deeper_than

pytestmark = pytest.mark.django_db
CHALLENGE = {"game": "hasami-shogi", "opponents": ["ai:random"]}


def _raw(client, path, body: bytes, content_type="application/json"):
    return client.generic("POST", path, body, content_type=content_type)


def test_a_body_over_the_limit_is_413(as_alice, anon, settings):
    assert settings.MAX_BODY_BYTES == 64 * 1024
    padding = json.dumps({**CHALLENGE, "pad": "x" * (64 * 1024)}).encode()
    for client, path in ((as_alice, "/api/v1/challenges/"), (anon, "/api/v1/accounts/")):
        response = _raw(client, path, padding)
        assert response.status_code == 413
        assert response.json() == {"code": "payload_too_large", "message": response.json()["message"],
                                   "detail": {"limit": 64 * 1024}}
    assert as_alice.post("/api/v1/challenges/", CHALLENGE).status_code == 201


def test_the_limit_is_a_setting(as_alice, settings):
    settings.MAX_BODY_BYTES = 40
    assert as_alice.post("/api/v1/challenges/", {**CHALLENGE, "pad": "x" * 40}).status_code == 413


class _Unreadable(io.RawIOBase):
    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def test_the_body_is_refused_before_it_is_read(db):
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/accounts/", "SERVER_NAME": "testserver",
               "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": _Unreadable(),
               "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(200 * 1024 * 1024),
               "REMOTE_ADDR": "127.0.0.1"}
    started = []
    body = b"".join(WSGIHandler()(environ, lambda status, headers: started.append(status)))
    assert started[0].startswith("413 ") and json.loads(body)["code"] == "payload_too_large"


def _asgi_call(messages, headers):
    from pearlsite.limits import limit_asgi_body

    seen, sent = [], []

    async def app(scope, receive, send):
        while True:
            message = await receive()
            seen.append(message)
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/v1/accounts/", "headers": headers}
    asyncio.run(limit_asgi_body(app)(scope, receive, send))
    return seen, sent, messages


def test_asgi_refuses_a_declared_or_streamed_body_over_the_limit(settings):
    settings.MAX_BODY_BYTES = 10
    chunk = {"type": "http.request", "body": b"x" * 6, "more_body": True}
    seen, sent, unread = _asgi_call([dict(chunk)] * 5, [(b"content-length", b"30")])
    assert not seen and sent[0]["status"] == 413 and len(unread) == 5     # refused unread
    seen, sent, unread = _asgi_call([dict(chunk)] * 5, [])                  # chunked: read up to the limit
    assert not seen and sent[0]["status"] == 413 and len(unread) == 3
    small = [{"type": "http.request", "body": b"abc", "more_body": True}, {"type": "http.request", "body": b"d"}]
    seen, sent, _ = _asgi_call(list(small), [])
    assert seen == small and sent[0]["status"] == 200


@pytest.mark.parametrize("body", ["[" * 1000, "[" * 60000, "[" * 33 + "]" * 33, '{"a":' * 40 + "1" + "}" * 40,
                                  "[" * 100000])
def test_deep_json_is_a_400_not_a_recursion_error(as_alice, body, settings):
    settings.MAX_BODY_BYTES = 200_000
    response = _raw(as_alice, "/api/v1/challenges/", body.encode())
    assert response.status_code == 400
    assert response.json()["code"] == "json_too_deep"


@pytest.mark.parametrize("text,limit,deeper", [
    ('{"move": "[[[[{{{{\\"[[[", "x": [1]}', 1, True),
    ('{"move": "[[[[{{{{\\"[[[", "x": [1]}', 2, False),
    ('{"a": [{"b": [1]}]}', 3, True),
    ("[" * 40 + "]" * 40, 39, True),
    ("[" * 40 + "]" * 40, 40, False),
    ("[" + "[]," * 50 + "[]]", 2, False),
    ("[" + "[]," * 50 + "[]]", 1, True),
    ("[" * 50, 32, True),
    ("]" * 50, 32, False),
])
def test_depth_is_counted_outside_strings(text, limit, deeper):
    assert nests_deeper_than(text, limit) is deeper


def test_json_at_the_depth_limit_is_parsed(as_alice):
    nested = "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    body = '{"game": "hasami-shogi", "opponents": ["ai:random"], "x": %s}' % nested
    assert _raw(as_alice, "/api/v1/challenges/", body.encode()).status_code == 201


@pytest.mark.parametrize("body,content_type,code", [
    (b'{"game": NaN}', "application/json", "parse_error"),
    (b'{"game": "\xff"}', "application/json", "parse_error"),
    (b"game=hasami-shogi", "application/x-www-form-urlencoded", "unsupported_media_type"),
    (b'["a list"]', "application/json", "validation_error"),
    (b'{"game": "hasami-shogi", "opponents": ["ai:random"], "seat": 1e999}', "application/json", "validation_error"),
])
def test_bodies_that_are_not_json_objects(as_alice, body, content_type, code):
    response = _raw(as_alice, "/api/v1/challenges/", body, content_type)
    assert 400 <= response.status_code < 500 and response.json()["code"] == code


@pytest.mark.parametrize("extra,field", [
    ({"seat": "0"}, "seat"), ({"rated": "true"}, "rated"), ({"rated": 1}, "rated"),
    ({"days_per_move": True}, "days_per_move"), ({"opponents": [5]}, "opponents"),
    ({"game": 5}, "game"), ({"options": []}, "options"), ({"days_per_move": 2.5}, "days_per_move"),
])
def test_body_fields_keep_their_json_types(as_alice, extra, field):
    response = as_alice.post("/api/v1/challenges/", {**CHALLENGE, **extra})
    assert response.status_code == 400 and response.json()["code"] == "validation_error"
    assert field in response.json()["detail"]


def test_options_are_read_by_the_catalogue(as_alice):
    assert as_alice.post("/api/v1/challenges/", {**CHALLENGE, "options": {"capture_goal": 3}}).status_code == 201
    refused = as_alice.post("/api/v1/challenges/", {**CHALLENGE, "options": {"capture_goal": "3"}})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_options"


def test_nested_objects_keep_their_json_types(as_alice):
    response = as_alice.patch("/api/v1/accounts/me/", {"profile": {"display_name": "", "bio": 0}})
    assert response.status_code == 400 and response.json()["detail"] == {"profile": {"bio": ["must be a string, not int"]}}


@pytest.mark.parametrize("path", ["/api/v1/games/?format=xml", "/api/v1/events/stream/?format=AAA"])
def test_an_unknown_format_is_406_not_404(as_alice, path):
    response = as_alice.get(path)
    assert response.status_code == 406 and response.json()["code"] == "not_acceptable"


def test_refusals_are_json_whatever_the_operation_answers_in(as_alice):
    response = as_alice.get("/api/v1/events/stream/?format=sse&junk=1")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["detail"] == {"parameter": "junk"}
