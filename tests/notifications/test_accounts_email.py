"""Account e-mail: optional at sign-up, verified by a signed expiring link, unique in any case,
private; the password reset by mail revokes every token and session."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import ApiToken
from notifications.models import EmailAddress, Notification

from .helpers import link_in, tick, verified

pytestmark = pytest.mark.django_db


def _signup(client, username: str, email: str | None = None, expect: int = 201):
    body = {"username": username, "password": "a-long-pass-phrase"}
    if email is not None:
        body["email"] = email
    response = client.post("/api/v1/accounts/", body, format="json")
    assert response.status_code == expect, response.json()
    return response.json()


def test_signup_with_an_address_mails_a_link_that_verifies_it(anon):
    token = _signup(anon, "erin", "Erin@Example.ORG")["token"]
    row = EmailAddress.objects.get(user__username="erin")
    assert (row.address, row.verified) == ("Erin@example.org", False)
    tick()
    (message,) = mail.outbox
    assert message.to == ["Erin@example.org"] and "Verify" in message.subject
    path = link_in(message.body, "/accounts/verify/")
    page = anon.get(path)
    assert page.status_code == 200 and b"verified" in page.content
    erin = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    assert erin.get("/api/v1/accounts/me/email/").json() == {
        "email": "Erin@example.org", "verified": True, "verified_at": erin.get("/api/v1/accounts/me/email/").json()[
            "verified_at"]}
    assert EmailAddress.objects.get(user__username="erin").verified


def test_the_link_expires_and_a_changed_address_needs_verifying_again(anon, alice, as_alice, settings):
    as_alice.put("/api/v1/accounts/me/email/", {"email": "alice@example.org"}, format="json")
    tick()
    old_link = link_in(mail.outbox[-1].body, "/accounts/verify/")
    with time_machine.travel(timezone.now() + timedelta(hours=settings.EMAIL_VERIFY_HOURS, minutes=1)):
        assert anon.get(old_link).status_code == 400
    verified(alice)
    changed = as_alice.put("/api/v1/accounts/me/email/", {"email": "alice@new.example"}, format="json").json()
    assert changed == {"email": "alice@new.example", "verified": False, "verified_at": None}
    assert anon.get(old_link).status_code == 400                     # a link for the old address
    tick()
    assert mail.outbox[-1].to == ["alice@new.example"]
    assert anon.get(link_in(mail.outbox[-1].body, "/accounts/verify/")).status_code == 200


def test_addresses_are_unique_regardless_of_case_and_a_refused_signup_makes_nothing(anon, alice, as_alice):
    verified(alice, "alice@example.org")
    refused = anon.post("/api/v1/accounts/", {"username": "mallory", "password": "a-long-pass-phrase",
                                              "email": "ALICE@example.org"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "email_taken"
    assert not ApiToken.objects.filter(user__username="mallory").exists()
    assert not EmailAddress.objects.filter(user__username="mallory").exists()
    taken = as_alice.put("/api/v1/accounts/me/email/", {"email": "Alice@Example.org"}, format="json")
    assert taken.status_code == 200                                   # one's own address, in another case
    _signup(anon, "frank", "frank@example.org")
    clash = APIClient(HTTP_AUTHORIZATION=f"Token {_signup(anon, 'gus')['token']}").put(
        "/api/v1/accounts/me/email/", {"email": "FRANK@example.org"}, format="json")
    assert clash.status_code == 409 and clash.json()["code"] == "email_taken"


def test_nobody_else_sees_an_address(alice, as_bob, anon):
    verified(alice, "alice@example.org")
    for client in (as_bob, anon):
        body = client.get("/api/v1/players/alice/").content.decode()
        assert "alice@example.org" not in body
    assert "alice@example.org" not in as_bob.get("/api/v1/accounts/me/email/").content.decode()


def test_only_the_verification_mail_goes_to_an_unverified_address(alice, as_alice, as_bob):
    from tests.matches.helpers import play, start_match

    as_bob.put("/api/v1/accounts/me/email/", {"email": "bob@example.org"}, format="json")
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)                          # bob's turn
    tick()
    assert [m.subject for m in mail.outbox] == ["Verify your e-mail address"]
    assert not Notification.objects.filter(user__username="bob").exclude(kind="verify_email").exists()


def test_a_reset_answers_alike_for_everyone_and_mails_only_a_verified_address(alice, anon):
    verified(alice, "alice@example.org")
    tick()
    mail.outbox.clear()
    answers = {login: anon.post("/api/v1/auth/password-reset/", {"login": login}, format="json")
               for login in ("alice", "ALICE@example.org", "nobody", "nobody@example.org")}
    assert {(r.status_code, r.content) for r in answers.values()} == {(202, answers["alice"].content)}
    tick()
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]     # one mail for two asks (one window)


def test_a_reset_link_sets_a_new_password_and_revokes_every_token_and_session(alice, as_alice, anon, client):
    verified(alice)
    client.force_login(alice)
    assert client.get("/settings/notifications/").status_code == 200
    anon.post("/api/v1/auth/password-reset/", {"login": "alice"}, format="json")
    tick()
    path = link_in(mail.outbox[-1].body, "/accounts/password-reset/")
    uid, token = path.strip("/").split("/")[-2:]
    assert anon.get(path).status_code == 200
    done = anon.post("/api/v1/auth/password-reset/confirm/",
                     {"uid": uid, "token": token, "password": "another-long-phrase"}, format="json")
    assert done.status_code == 204
    assert as_alice.get("/api/v1/accounts/me/").status_code == 401    # old token gone
    assert not ApiToken.objects.filter(user=alice).exists()
    assert client.get("/settings/notifications/").status_code == 302   # the session ended
    again = anon.post("/api/v1/auth/password-reset/confirm/",
                      {"uid": uid, "token": token, "password": "third-long-phrase"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "invalid_link"
    login = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "another-long-phrase"}, format="json")
    assert login.status_code == 200


def test_the_reset_pages_set_a_password(alice, client):
    verified(alice)
    assert client.post("/accounts/password-reset/", {"login": "alice"}).status_code == 200
    tick()
    path = link_in(mail.outbox[-1].body, "/accounts/password-reset/")
    response = client.post(path, {"password": "page-set-passphrase", "password_again": "page-set-passphrase"})
    assert response.status_code == 302
    assert client.login(username="alice", password="page-set-passphrase")


def test_reset_requests_are_rate_limited(anon, settings):
    from rest_framework.settings import api_settings

    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "password_reset": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert api_settings.DEFAULT_THROTTLE_RATES["password_reset"] == "2/hour"
    codes = [anon.post("/api/v1/auth/password-reset/", {"login": "x"}, format="json").status_code for _ in range(3)]
    assert codes == [202, 202, 429]


def test_signup_page_takes_an_optional_address(client):
    response = client.post("/accounts/signup/", {"username": "gina", "password": "a-long-pass-phrase",
                                                 "password_again": "a-long-pass-phrase", "email": "gina@example.org"})
    assert response.status_code == 302
    assert EmailAddress.objects.get(user__username="gina").address == "gina@example.org"
    response = client.post("/accounts/signup/", {"username": "hal", "password": "a-long-pass-phrase",
                                                 "password_again": "a-long-pass-phrase"})
    assert response.status_code == 302 and not EmailAddress.objects.filter(user__username="hal").exists()
