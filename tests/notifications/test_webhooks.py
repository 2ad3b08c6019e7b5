"""Webhooks: signed JSON POSTs with a stable id, retried with backoff after a failure, switched off
after repeated failure (the owner is told by mail), refused for non-public addresses after DNS
resolution, never following redirects; the owner reads the delivery log."""
from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from matches.models import Match
from notifications import netguard, webhook_client
from notifications.models import Notification, Webhook
from tests.matches.helpers import play, start_match

from .helpers import tick, verified

pytestmark = pytest.mark.django_db
HOOKS = "/api/v1/accounts/me/webhooks/"


def _register(client, url, kinds=("your_turn",), expect=201):
    response = client.post(HOOKS, {"url": url, "kinds": list(kinds)}, format="json")
    assert response.status_code == expect, response.json()
    return response.json()


def _check_signature(request, secret):
    headers = request["headers"]
    expected = hmac.new(secret.encode(), f"{headers['X-Pearlsite-Timestamp']}.".encode() + request["body"],
                        hashlib.sha256).hexdigest()
    assert headers["X-Pearlsite-Signature"] == f"sha256={expected}"


def test_a_move_arrives_signed_at_the_webhook(as_alice, as_bob, receiver):
    hook = _register(as_bob, receiver.url)
    assert len(hook["secret"]) == 64
    assert "secret" not in as_bob.get(HOOKS).json()[0]                # shown once
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    (request,) = receiver.requests
    _check_signature(request, hook["secret"])
    body = json.loads(request["body"])
    assert body["kind"] == "your_turn" and body["data"]["match"] == match_id
    assert request["headers"]["X-Pearlsite-Delivery"] == body["id"]
    assert request["headers"]["Content-Type"] == "application/json"


def test_a_failed_delivery_is_retried_with_backoff_under_the_same_id(as_alice, as_bob, receiver, settings):
    _register(as_bob, receiver.url)
    receiver.plan = [500, 503]
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    row = Notification.objects.get(channel="webhook")
    assert (row.status, row.attempts, row.response_status) == ("pending", 1, 500)
    first_retry = row.due_at
    tick()
    assert len(receiver.requests) == 1                                # not before its time
    with time_machine.travel(first_retry + timedelta(seconds=1), tick=False):
        tick()
    row.refresh_from_db()
    assert row.attempts == 2 and row.due_at - (first_retry + timedelta(seconds=1)) >= timedelta(
        seconds=2 * settings.NOTIFY_RETRY_FIRST_SECONDS - 2)          # the wait doubles
    with time_machine.travel(row.due_at + timedelta(seconds=1), tick=False):
        tick()
    row.refresh_from_db()
    assert (row.status, row.attempts, row.response_status) == ("sent", 3, 200)
    ids = {r["headers"]["X-Pearlsite-Delivery"] for r in receiver.requests}
    assert len(receiver.requests) == 3 and len(ids) == 1
    log = as_bob.get(f"{HOOKS}{row.webhook_id}/deliveries/").json()
    assert log["count"] == 1 and log["results"][0]["status"] == "sent" and log["results"][0]["attempts"] == 3
    assert as_alice.get(f"{HOOKS}{row.webhook_id}/deliveries/").status_code == 404


def test_redirects_are_not_followed(as_alice, as_bob, receiver):
    _register(as_bob, receiver.url)
    receiver.plan = [302]
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    assert [r["path"] for r in receiver.requests] == ["/hook"]
    assert Notification.objects.get(channel="webhook").response_status == 302


def test_a_webhook_failing_again_and_again_is_switched_off_and_its_owner_told(as_alice, as_bob, bob, receiver,
                                                                            settings):
    settings.WEBHOOK_DISABLE_AFTER = 3
    verified(bob)
    hook = _register(as_bob, receiver.url, kinds=["your_turn", "challenge_received"])
    receiver.plan = [500] * 10
    for _ in range(3):
        start_match(as_alice, as_bob)
    tick()
    row = Webhook.objects.get(pk=hook["id"])
    assert not row.active and row.failures == 3 and "answered 500" in row.disabled_reason
    tick()                                                            # the mail written meanwhile
    assert [m.subject for m in mail.outbox if "webhook" in m.subject] == ["A webhook of yours was switched off"]
    assert as_bob.patch(f"{HOOKS}{hook['id']}/", {"active": True}, format="json").json()["failures"] == 0


@pytest.mark.parametrize("url", ["https://127.0.0.1/hook", "https://169.254.169.254/latest/meta-data/",
                                 "https://localhost/hook", "https://10.1.2.3/", "https://[::1]/",
                                 "https://metadata.google.internal/", "http://example.org/hook",
                                 "ftp://example.org/", "https://user:pw@example.org/"])
def test_urls_to_private_addresses_are_refused(as_bob, url):
    refused = as_bob.post(HOOKS, {"url": url, "kinds": ["your_turn"]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] in {"webhook_url_refused", "validation_error"}
    assert not Webhook.objects.exists()


def test_addresses_are_checked_again_at_send_time(monkeypatch):
    """A name that resolved to a public address when registered may point at 127.0.0.1 later."""
    calls = []

    def resolve(host, port, **kwargs):
        calls.append(host)
        return [(2, 1, 6, "", ("169.254.169.254", port))]

    monkeypatch.setattr(netguard.socket, "getaddrinfo", resolve)
    answer = webhook_client.post("https://hooks.example.org/x", "s" * 64, "id-1", {"kind": "your_turn"})
    assert answer.status is None and "169.254.169.254" in answer.error and calls == ["hooks.example.org"]


def test_the_allowed_networks_setting_opens_named_networks_only(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    assert netguard.check("http://127.0.0.1:9/x").address == "127.0.0.1"
    with pytest.raises(netguard.Refused):
        netguard.check("http://169.254.169.254/")
    with pytest.raises(netguard.Refused):
        netguard.check("https://10.0.0.1/")


def test_limits_on_the_number_of_webhooks_and_on_other_peoples(as_bob, as_alice, receiver, settings):
    settings.WEBHOOKS_PER_USER = 1
    hook = _register(as_bob, receiver.url)
    assert _register(as_bob, receiver.url, expect=429)["code"] == "too_many_webhooks"
    assert as_alice.delete(f"{HOOKS}{hook['id']}/").status_code == 404
    assert as_bob.delete(f"{HOOKS}{hook['id']}/").status_code == 204


def test_hidden_information_never_reaches_a_mail_or_webhook(as_alice, as_bob, as_carol, client_for, dave, bob,
                                                            receiver):
    """New Eleusis: hands and the secret rule stay out of every mail and webhook body."""
    from random import Random

    from games.new_eleusis.cards import card_text

    rule = "rank(cur) > rank(prev) or suit(cur) == suit(prev)"
    verified(bob)
    _register(as_bob, receiver.url, kinds=["your_turn", "challenge_received", "match_finished", "offer_made"])
    as_dave = client_for(dave)
    created = as_alice.post("/api/v1/challenges/", {"game": "new-eleusis", "options": {"rule": rule},
                                                     "opponents": ["bob", "carol", "dave"]}, format="json").json()
    for client in (as_bob, as_carol, as_dave):
        client.post(f"/api/v1/challenges/{created['id']}/accept/")
    match = Match.objects.get()
    clients = {0: as_alice, 1: as_bob, 2: as_carol, 3: as_dave}
    rng = Random(5)
    for _ in range(12):
        match.refresh_from_db()
        if match.status != "active":
            break
        client = clients[match.to_move]
        legal = client.get(f"/api/v1/matches/{match.pk}/").json()["legal_moves"]
        client.post(f"/api/v1/matches/{match.pk}/moves/", {"move": rng.choice(legal), "ply": match.ply}, format="json")
        with time_machine.travel(timezone.now() + timedelta(hours=2)):
            tick()
    hands = {card_text(k) for seat, hand in enumerate(match.state["hands"]) if seat != 1 for k in hand}
    sent = [r["body"].decode() for r in receiver.requests] + [
        m.body + m.alternatives[0].content for m in mail.outbox]
    assert len(receiver.requests) >= 3 and any("Your move" in m.subject for m in mail.outbox)
    for text in sent:
        assert rule not in text and "rank(cur)" not in text and '"hands"' not in text and '"seed"' not in text
        assert '"rule"' not in text
        others = [card for card in hands if f'"{card}"' in text]
        assert not others, (others, text)
