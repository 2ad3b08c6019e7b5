"""The settings page's forms: address, webhooks (the secret shown once); the pages reached from mails."""
from __future__ import annotations

import pytest
from django.core import mail

from notifications.models import EmailAddress, Webhook

from .helpers import link_in, tick

pytestmark = pytest.mark.django_db


def test_set_an_address_on_the_page_and_verify_it_from_the_mail(bob, client):
    client.force_login(bob)
    assert client.post("/settings/notifications/email/", {"email": "bob@example.org"}).status_code == 302
    page = client.get("/settings/notifications/").content.decode()
    assert "bob@example.org" in page and "not verified" in page
    tick()
    assert client.get(link_in(mail.outbox[-1].body, "/accounts/verify/")).status_code == 200
    assert EmailAddress.objects.get(user=bob).verified
    assert client.get("/accounts/verify/not-a-token/").status_code == 400
    assert client.post("/settings/notifications/email/", {"email": "nonsense"}).status_code == 400


def test_a_webhook_made_on_the_page_shows_its_secret_once(bob, client, receiver):
    client.force_login(bob)
    response = client.post("/settings/notifications/webhooks/", {"url": receiver.url, "kinds": ["your_turn"]})
    assert response.status_code == 302
    hook = Webhook.objects.get(user=bob)
    assert hook.secret in client.get("/settings/notifications/").content.decode()
    assert hook.secret not in client.get("/settings/notifications/").content.decode()
    refused = client.post("/settings/notifications/webhooks/", {"url": "https://169.254.169.254/", "kinds": ["your_turn"]})
    assert refused.status_code == 400 and b"not a public address" in refused.content
    assert client.post(f"/settings/notifications/webhooks/{hook.pk}/delete/").status_code == 302
    assert not Webhook.objects.exists()


def test_the_settings_page_needs_a_sign_in(client):
    assert client.get("/settings/notifications/").status_code == 302
