"""Accounts done right: tokens hashed at rest, listable, revocable and expiring; password rules;
usernames unique regardless of case; reserved names refused."""
import hashlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from matches.models import ApiToken

pytestmark = pytest.mark.django_db


def _login(anon, username="alice", password="alice-secret-pw", **extra):
    response = anon.post("/api/v1/auth/token/", {"username": username, "password": password, **extra})
    assert response.status_code == 200, response.content
    return response.json()


def _with(client_for, key):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_tokens_are_stored_as_digests(anon, alice):
    key = _login(anon)["token"]
    token = ApiToken.objects.get(digest=hashlib.sha256(key.encode()).hexdigest())
    assert token.user == alice and token.prefix == key[:8]
    stored = [value for row in ApiToken.objects.values_list() for value in row]
    assert key not in stored


def test_tokens_are_listed_without_keys(anon, alice, client_for):
    first, second = _login(anon), _login(anon)
    listed = _with(client_for, second["token"]).get("/api/v1/auth/tokens/").json()
    assert listed["count"] == 3                               # the persona's own, and two logins
    rows = {row["id"]: row for row in listed["results"]}
    assert rows[second["id"]]["current"] and not rows[first["id"]]["current"]
    assert all("token" not in row and set(row) == {"id", "prefix", "created_at", "last_used_at", "expires_at",
                                                   "current"} for row in listed["results"])
    assert rows[second["id"]]["last_used_at"] is not None


def test_revoking_one_token(anon, alice, as_bob, client_for):
    first, second = _login(anon), _login(anon)
    assert as_bob.delete(f"/api/v1/auth/tokens/{first['id']}/").json()["code"] == "token_not_found"
    me = _with(client_for, second["token"])
    assert me.delete(f"/api/v1/auth/tokens/{first['id']}/").status_code == 204
    assert _with(client_for, first["token"]).get("/api/v1/events/").json()["code"] == "authentication_failed"
    assert me.get("/api/v1/events/").status_code == 200
    assert me.delete(f"/api/v1/auth/tokens/{first['id']}/").status_code == 404


def test_logout_this_token_or_all(anon, alice, client_for):
    first, second, third = _login(anon), _login(anon), _login(anon)
    assert _with(client_for, first["token"]).delete("/api/v1/auth/token/").status_code == 204
    assert _with(client_for, first["token"]).get("/api/v1/events/").status_code == 401
    assert _with(client_for, second["token"]).get("/api/v1/events/").status_code == 200
    assert _with(client_for, second["token"]).delete("/api/v1/auth/token/?all=true").status_code == 204
    assert _with(client_for, third["token"]).get("/api/v1/events/").status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    assert anon.delete("/api/v1/auth/token/").status_code == 401


def test_idle_tokens_expire(anon, alice, client_for, settings):
    settings.TOKEN_IDLE_DAYS = 30
    key = _login(anon)["token"]
    ApiToken.objects.filter(user=alice).update(last_used_at=timezone.now() - timedelta(days=29))
    assert _with(client_for, key).get("/api/v1/events/").status_code == 200     # and that use counts
    ApiToken.objects.filter(user=alice).update(last_used_at=timezone.now() - timedelta(days=31))
    assert _with(client_for, key).get("/api/v1/events/").json()["code"] == "authentication_failed"


def test_a_token_may_have_a_hard_expiry(anon, alice, client_for):
    made = _login(anon, expires_in_days=7)
    expires = timezone.datetime.fromisoformat(made["expires_at"].replace("Z", "+00:00"))
    assert timedelta(days=6, hours=23) < expires - timezone.now() <= timedelta(days=7)
    assert _with(client_for, made["token"]).get("/api/v1/events/").status_code == 200
    ApiToken.objects.filter(pk=made["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert _with(client_for, made["token"]).get("/api/v1/events/").status_code == 401


@pytest.mark.parametrize("username,password,problem", [
    ("erin", "8734561209", "entirely numeric"),
    ("erin", "password1", "too common"),
    ("bartholomew", "bartholomew1", "too similar"),
    ("erin", "Xy7!", "at least 8"),
])
def test_password_rules_name_the_problem(anon, username, password, problem):
    response = anon.post("/api/v1/accounts/", {"username": username, "password": password})
    assert response.status_code == 400
    assert problem in str(response.json()["detail"])
    assert not get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["Alice", "ALICE", "alice"])
def test_usernames_are_unique_regardless_of_case(anon, alice, username):
    response = anon.post("/api/v1/accounts/", {"username": username, "password": "a-long-enough-secret-9"})
    assert response.status_code == 409 and response.json()["code"] == "username_taken"


def test_the_database_refuses_a_case_twin(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username="ALICE", password="x")


def test_login_takes_the_username_in_any_case(anon, alice):
    assert _login(anon, username="ALICE")["token"]


@pytest.mark.parametrize("username,code", [
    ("admin", "invalid_username"), ("Admin", "invalid_username"), ("system", "invalid_username"),
    ("anonymous", "invalid_username"), ("ai:easy", "validation_error"), ("AI:easy", "validation_error"),
])
def test_reserved_names_are_refused(anon, username, code):
    response = anon.post("/api/v1/accounts/", {"username": username, "password": "a-long-enough-secret-9"})
    assert response.status_code == 400 and response.json()["code"] == code


def test_the_reserved_names_hold_in_the_service(db):
    from matches.services.accounts import account_register
    from tests.services.factories import refusal_code

    assert refusal_code(lambda: account_register(username="ai:strong", password="a-long-enough-secret-9")) \
        == "invalid_username"


def test_plain_tokens_move_to_digests(alice, client_for):
    """The migration from the former plain-text token table: keys become digests, the table is emptied."""
    import importlib

    migration = importlib.import_module("matches.migrations.0004_api_tokens")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id integer, created timestamp)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)", ["f" * 40, alice.pk, timezone.now()])
    from django.apps import apps

    migration.move_plain_tokens(apps, SimpleNamespace(connection=connection))
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)
        cursor.execute("DROP TABLE authtoken_token")
    assert _with(client_for, "f" * 40).get("/api/v1/events/").status_code == 200
