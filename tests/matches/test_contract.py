"""What a client generated from the schema relies on: a bad token is a documented 401 everywhere,
the token scheme is HTTP bearer (the older `Token` keyword still works), the event stream is text
with a declared Last-Event-ID header, operation ids and descriptions are each operation's own.
And what the production server (WSGI, as gunicorn calls it) does with HEAD and chunked bodies."""
from __future__ import annotations

import io
import json
import time
from wsgiref.util import setup_testing_defaults

import pytest
import yaml

from pearlsite.wsgi import application

pytestmark = pytest.mark.django_db

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture
def schema(anon):
    return yaml.safe_load(anon.get("/api/schema/").content)


def _operations(schema):
    return [(path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()
            if method in METHODS]


CREDENTIAL_FREE = {("post", "/api/v1/accounts/"), ("post", "/api/v1/auth/token/")}


def test_every_authenticating_operation_documents_the_401_of_a_bad_token(schema):
    for path, method, operation in _operations(schema):
        if (method, path) in CREDENTIAL_FREE:
            assert "security" not in operation and "401" not in operation["responses"]
        else:
            assert "authentication_failed" in operation["responses"]["401"]["description"], (method, path)


def test_the_token_scheme_is_http_bearer_and_anonymous_access_is_marked(schema):
    assert schema["components"]["securitySchemes"]["tokenAuth"]["type"] == "http"
    assert schema["components"]["securitySchemes"]["tokenAuth"]["scheme"] == "bearer"
    optional = {(m, p) for p, m, op in _operations(schema) if {} in op.get("security", [])}
    assert ("get", "/api/v1/games/") in optional and ("post", "/api/v1/matches/{id}/moves/") not in optional


def test_a_stale_token_blocks_neither_registering_nor_logging_in(anon, alice):
    anon.credentials(HTTP_AUTHORIZATION="Bearer expired-long-ago")
    assert anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"}).status_code == 200
    assert anon.post("/api/v1/accounts/", {"username": "newcomer", "password": "a long enough passphrase 42"}
                     ).status_code == 201
    assert anon.delete("/api/v1/auth/token/").json()["code"] == "authentication_failed"


def test_operation_ids_are_uniform_and_descriptions_are_each_operations_own(schema):
    from matches.apis.query import Api

    base_doc = Api.__doc__.split()[0:4]
    for path, method, operation in _operations(schema):
        assert not operation["operationId"].startswith("v1_"), operation["operationId"]
        assert operation.get("summary"), (method, path)
        assert operation.get("description", "").split()[0:4] != base_doc, (method, path)


def test_the_event_stream_is_text_with_a_last_event_id_header(schema):
    operation = schema["paths"]["/api/v1/events/stream/"]["get"]
    assert operation["responses"]["200"]["content"] == {"text/event-stream": {"schema": {"type": "string"}}}
    headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
    assert headers["Last-Event-ID"]["schema"]["pattern"] == "^[0-9]*$"


@pytest.mark.parametrize("keyword", ["Bearer", "Token", "bearer"])
def test_either_keyword_authenticates(anon, alice, keyword):
    anon.credentials(HTTP_AUTHORIZATION=f"{keyword} {alice.api_key}")
    assert anon.get("/api/v1/accounts/me/").json()["username"] == "alice"


@pytest.mark.parametrize("header", ["Bearer nonsense", "Token nonsense", "Bearer", "Bearer a b"])
def test_a_bad_token_on_an_open_operation_is_authentication_failed(anon, header):
    anon.credentials(HTTP_AUTHORIZATION=header)
    response = anon.get("/api/v1/games/")
    assert response.status_code == 401 and response.json()["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == "Bearer"


def test_players_are_found_in_any_case(anon, alice):
    assert anon.get("/api/v1/players/ALICE/").json()["username"] == "alice"
    assert anon.get("/api/v1/players/Alice/ratings/hasami-shogi/").status_code == 200
    assert anon.get("/api/v1/players/nobody/").json()["code"] == "player_not_found"


# --- The WSGI application as gunicorn calls it (Django's test client drops HEAD bodies itself) ----

@pytest.fixture
def wsgi():
    """Calls straight into the WSGI application; the test's transaction stays open (the handlers that
    close connections between requests are detached meanwhile)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)

    def call(method: str, path: str, body: bytes | None = None, **headers):
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "wsgi.input": io.BytesIO(body or b""),
                   **{f"HTTP_{k.upper()}": v for k, v in headers.items()}}
        if "HTTP_CONTENT_TYPE" in environ:
            environ["CONTENT_TYPE"] = environ.pop("HTTP_CONTENT_TYPE")
        setup_testing_defaults(environ)
        answer = {}

        def start_response(status, response_headers, exc_info=None):
            answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

        result = application(environ, start_response)
        try:
            answer["body"] = b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()
        return answer

    yield call
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def test_head_answers_have_the_get_headers_and_no_body(wsgi):
    got, head = wsgi("GET", "/api/v1/games/"), wsgi("HEAD", "/api/v1/games/")
    assert head["status"] == 200 and head["body"] == b"" and got["body"]
    assert head["headers"]["Content-Length"] == str(len(got["body"]))


def test_head_of_the_event_stream_answers_at_once(wsgi, alice, settings):
    settings.EVENT_STREAM_SECONDS = 20
    started = time.monotonic()
    head = wsgi("HEAD", "/api/v1/events/stream/", AUTHORIZATION=f"Bearer {alice.api_key}")
    assert time.monotonic() - started < 5
    assert head["status"] == 200 and head["body"] == b""
    assert head["headers"]["Content-Type"] == "text/event-stream"


def test_a_chunked_body_is_read(wsgi):
    body = json.dumps({"username": "chunky", "password": "a long enough passphrase 42"}).encode()
    answer = wsgi("POST", "/api/v1/accounts/", body, CONTENT_TYPE="application/json", TRANSFER_ENCODING="chunked")
    assert answer["status"] == 201, answer["body"]
    assert json.loads(answer["body"])["username"] == "chunky"


def test_a_chunked_body_over_the_limit_is_refused_unread(wsgi, settings):
    settings.MAX_BODY_BYTES = 100
    answer = wsgi("POST", "/api/v1/accounts/", b"x" * 10_000, CONTENT_TYPE="application/json",
                  TRANSFER_ENCODING="chunked")
    assert answer["status"] == 413
    assert json.loads(answer["body"]) == {"code": "payload_too_large", "detail": {"limit": 100},
                                          "message": "the request body is larger than 100 bytes"}


def test_an_empty_format_is_not_acceptable(anon):
    response = anon.get("/api/v1/games/?format=")
    assert response.status_code == 406 and response.json()["code"] == "not_acceptable"


def test_a_refused_username_says_what_is_allowed(anon):
    response = anon.post("/api/v1/accounts/", {"username": "jörg", "password": "a long enough passphrase 42"})
    assert response.status_code == 400
    assert "ASCII letters" in response.json()["detail"]["username"][0]


def test_game_path_parameters_list_the_catalogue(schema):
    import games

    for path in ("/api/v1/games/{slug}/", "/api/v1/players/{username}/ratings/{game}/"):
        parameters = {p["name"]: p for p in schema["paths"][path]["get"]["parameters"] if p["in"] == "path"}
        named = parameters.get("slug") or parameters["game"]
        assert named["schema"]["enum"] == sorted(games.GAMES)
