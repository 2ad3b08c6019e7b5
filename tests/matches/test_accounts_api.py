import pytest

pytestmark = pytest.mark.django_db


def test_register_returns_a_working_token(anon, client_for):
    response = anon.post("/api/v1/accounts/", {"username": "erin", "password": "long-enough-pw"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "erin" and len(body["token"]) == 40
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/events/").status_code == 200


def test_token_endpoint(anon, alice, client_for):
    ok = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-pw"}, format="json")
    assert ok.status_code == 200 and len(ok.json()["token"]) == 40
    assert ok.json()["prefix"] == ok.json()["token"][:8] and ok.json()["expires_at"] is None
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Token {ok.json()['token']}")
    assert client.get("/api/v1/events/").status_code == 200
    bad = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "nope-nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_credentials"


@pytest.mark.parametrize("body,status,code", [
    ({"username": "alice", "password": "another-long-pw"}, 409, "username_taken"),
    ({"username": "erin", "password": "short"}, 400, "validation_error"),
    ({"username": "erin", "password": "password"}, 400, "weak_password"),
    ({"username": "e:rin", "password": "long-enough-pw"}, 400, "validation_error"),
    ({"password": "long-enough-pw"}, 400, "validation_error"),
])
def test_register_errors(anon, alice, body, status, code):
    response = anon.post("/api/v1/accounts/", body, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]


def test_bad_token_and_missing_auth(anon):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert client.get("/api/v1/events/").json()["code"] == "authentication_failed"
    response = anon.get("/api/v1/events/")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    assert anon.post("/api/v1/challenges/", {"game": "hasami-shogi"}, format="json").status_code == 401


def test_malformed_json_is_a_400(as_alice):
    response = as_alice.generic("POST", "/api/v1/challenges/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "parse_error"
