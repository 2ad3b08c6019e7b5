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


def _words(path: str) -> list[str]:
    return [w.replace("-", "_") for w in path.removeprefix("/api/v1/").split("/") if w and not w.startswith("{")]


def _answers_a_collection(schema, operation) -> bool:
    for status, response in operation["responses"].items():
        for content in response.get("content", {}).values() if status.startswith("2") else ():
            body = content["schema"]
            if "$ref" in body:
                body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
            if body.get("type") == "array" or {"results", "next"} <= set(body.get("properties", {})):
                return True
    return False


def test_operation_ids_follow_one_rule_and_are_unique(schema):
    """`<path words>_<verb>`, as generated clients name their functions: no version prefix, no
    one-off names, `list` exactly for the GETs that answer an array or a page."""
    verbs = {"post": "create", "put": "update", "patch": "partial_update", "delete": "destroy"}
    ids = []
    for path, method, operation in _operations(schema):
        verb = verbs.get(method) or ("list" if _answers_a_collection(schema, operation) else "retrieve")
        assert operation["operationId"] == "_".join([*_words(path), verb]), (method, path)
        ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    assert {"games_list", "games_retrieve", "matches_moves_list", "analyses_retrieve",
            "accounts_me_webhooks_deliveries_list", "games_rules_retrieve"} <= set(ids)


def test_every_operation_has_its_own_summary_and_description(schema):
    """Each operation says what it does in a summary of its own; a description, where there is one,
    belongs to that operation alone (none inherited from a shared base class)."""
    from matches.apis.query import Api

    base_doc = " ".join(Api.__doc__.split())
    summaries, descriptions = [], []
    for path, method, operation in _operations(schema):
        assert len(operation.get("summary", "")) >= 6, (method, path)
        summaries.append(operation["summary"])
        if operation.get("description"):
            assert " ".join(operation["description"].split()) != base_doc, (method, path)
            descriptions.append(operation["description"])
    assert len(summaries) == len(set(summaries)), [s for s in summaries if summaries.count(s) > 1]
    assert len(descriptions) == len(set(descriptions)), [d for d in descriptions if descriptions.count(d) > 1]


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


# --- Rules the schema states, read from the catalogue, the engines and the validators -------------

def _enum(schema, prop):
    """The enum a property refers to (through allOf/oneOf and $ref), without the blank or null."""
    found = []
    for part in [prop, *prop.get("allOf", []), *prop.get("oneOf", [])]:
        if "$ref" in part:
            part = schema["components"]["schemas"][part["$ref"].rsplit("/", 1)[1]]
        found += [v for v in part.get("enum", []) if v not in ("", None)]
    return found


def test_game_variant_and_level_enums_are_the_catalogues(schema):
    import games
    from ai_workers.engines import LEVELS

    bodies = schema["components"]["schemas"]
    every_variant = {name for rules in games.GAMES.values() for name in [*rules.variants, *rules.variant_aliases]}
    two_seat = {slug for slug, rules in games.GAMES.items() if rules.min_players <= 2 <= rules.max_players}
    assert set(_enum(schema, bodies["ChallengeInRequest"]["properties"]["game"])) == set(games.GAMES)
    for body in ("LadderInRequest", "TournamentInRequest"):
        assert set(_enum(schema, bodies[body]["properties"]["game"])) == two_seat != set(games.GAMES)
    for body in ("ChallengeInRequest", "LadderInRequest", "TournamentInRequest"):
        variant = bodies[body]["properties"]["variant"]
        assert set(_enum(schema, variant)) == every_variant and "advanced" in every_variant
        for slug, rules in games.GAMES.items():      # which game has which: in the description
            assert f"{slug}: {', '.join(sorted([*rules.variants, *rules.variant_aliases]))}" in variant["description"]
    assert _enum(schema, bodies["AnalysisInRequest"]["properties"]["level"]) == [lv for lv in LEVELS if lv != "random"]
    opponent = bodies["ChallengeInRequest"]["properties"]["opponents"]["items"]["pattern"]
    import re
    assert all(re.match(opponent, f"ai:{level}") for level in LEVELS)
    assert not any(re.match(opponent, entry) for entry in ("ai:grandmaster", "ai:", "   ", "a:b"))
    assert re.match(opponent, "bob")


def test_the_catalogue_values_the_schema_lists_are_accepted(as_alice, settings):
    """Every game with each of its variants (as the description pairs them) starts a match."""
    import games

    settings.MAX_ACTIVE_ENGINE_MATCHES = 0      # no limit: one match per pair
    for slug, rules in sorted(games.GAMES.items()):
        for variant in [*rules.variants, *rules.variant_aliases]:
            seats = ["ai:random"] * (rules.min_players - 1)
            answer = as_alice.post("/api/v1/challenges/", {"game": slug, "variant": variant, "opponents": seats},
                                 format="json")
            assert answer.status_code == 201, (slug, variant, answer.json())
    refused = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "variant": "express",
                                                         "opponents": ["ai:random"]}, format="json")
    assert refused.status_code == 400 and refused.json()["detail"] == {"variant": "express"}, refused.json()


def test_password_rules_come_from_the_validators(schema, settings):
    from django.contrib.auth.password_validation import password_validators_help_texts

    for body in ("RegisterInRequest", "ResetConfirmInRequest"):
        password = schema["components"]["schemas"][body]["properties"]["password"]
        assert password["minLength"] == 8 == settings.AUTH_PASSWORD_VALIDATORS[1]["OPTIONS"]["min_length"]
        assert all(text in password["description"] for text in password_validators_help_texts())
        import re
        assert re.match(password["pattern"], "12345678a") and not re.match(password["pattern"], "12345678")
        assert not re.match(password["pattern"], "abc\x00defgh")


def test_a_short_password_is_refused_by_the_length_the_validators_set(anon, settings):
    answer = anon.post("/api/v1/accounts/", {"username": "shorty", "password": "seven77"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error"
    assert "password" in answer.json()["detail"]


def test_every_free_text_field_of_a_request_excludes_nul(schema, anon):
    import re

    from matches.apis.schema import NO_NUL, NOT_BLANK

    def strings(node):
        if isinstance(node, dict):
            if node.get("type") == "string" and not {"enum", "format"} & node.keys() and node.get("maxLength") != 0:
                yield node
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, list):
            for value in node:
                yield from strings(value)

    bodies = [body for name, body in schema["components"]["schemas"].items() if name.endswith("Request")]
    queries = [p["schema"] for _, _, op in _operations(schema) for p in op.get("parameters", []) if p["in"] == "query"]
    found = list(strings(bodies)) + list(strings(queries))
    assert len(found) > 25
    for node in found:
        assert "pattern" in node and not re.match(node["pattern"], "a\x00b"), node
        if node.get("minLength", 0) and node["pattern"] in (NO_NUL, NOT_BLANK):    # trimmed, then not blank
            assert node["pattern"] == NOT_BLANK and not re.match(NOT_BLANK, " \t "), node
    answer = anon.post("/api/v1/accounts/", {"username": "nul", "password": "a long enough\x00 passphrase"},
                       format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error"


def test_a_password_is_taken_as_typed_spaces_included(anon):
    typed = "  a long enough passphrase 42  "
    assert anon.post("/api/v1/accounts/", {"username": "spacey", "password": typed}, format="json").status_code == 201
    assert anon.post("/api/v1/auth/token/", {"username": "spacey", "password": typed}, format="json").status_code == 200
    trimmed = anon.post("/api/v1/auth/token/", {"username": "spacey", "password": typed.strip()}, format="json")
    assert trimmed.status_code == 400 and trimmed.json()["code"] == "invalid_credentials"


@pytest.mark.parametrize("path, body", [
    ("/api/v1/challenges/", lambda: {"game": "hasami-shogi", "opponents": ["BOB"]}),
    ("/api/v1/accounts/me/blocks/", lambda: {"username": "Bob"}),
    ("/api/v1/reports/", lambda: {"player": "bOb", "reason": "rude"}),
])
def test_players_are_named_in_any_case_in_bodies_too(as_alice, bob, path, body):
    assert as_alice.post(path, body(), format="json").status_code == 201


def test_the_player_filter_finds_any_case(as_alice, alice, bob):
    from tests.services import factories

    factories.match(alice, bob)
    assert as_alice.get("/api/v1/matches/?player=BOB").json()["count"] == 1
