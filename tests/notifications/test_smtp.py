"""Mail through a real SMTP server (aiosmtpd, in this process): both parts, the headers, and a
server that refuses for a while (the mail is retried, and sent once)."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from notifications.models import Notification
from notifications.services import preferences
from tests.matches.helpers import play, start_match

from .helpers import tick, verified

pytestmark = pytest.mark.django_db


def test_a_your_turn_mail_crosses_a_real_smtp_server(smtp_server, as_alice, as_bob, bob):
    verified(bob, "bob@example.org")
    preferences.preferences_update(user=bob, channels={"challenge_received": []})
    tick()
    smtp_server.messages.clear()
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    ((recipients, message),) = smtp_server.messages
    assert recipients == ["bob@example.org"] and message["Subject"] == "Your move in 1 game"
    assert message.get_content_type() == "multipart/alternative"
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert f"http://testserver/matches/{match_id}/" in text and f'href="http://testserver/matches/{match_id}/"' in html
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert str(message["List-Unsubscribe"]).strip().startswith("<http://testserver/notifications/unsubscribe/")


def test_a_refusing_server_delays_the_mail_and_it_is_sent_once(smtp_server, as_alice, as_bob, bob):
    verified(bob, "bob@example.org")
    preferences.preferences_update(user=bob, channels={"challenge_received": []})
    tick()
    smtp_server.messages.clear()
    smtp_server.refuse = True
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    row = Notification.objects.get(kind="your_turn")
    assert (row.status, row.attempts) == ("pending", 1) and "451" in row.last_error
    smtp_server.refuse = False
    with time_machine.travel(row.due_at + timedelta(seconds=1), tick=False):
        tick()
        tick()
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 2)
    assert len(smtp_server.messages) == 1
