"""End to end on PostgreSQL with a real Celery worker on the `notify` queue, a private redis-server
as the broker and a real SMTP server: a move mails the away player once; with the broker down
during the move, the mail arrives once the broker is back, once. Skipped without PostgreSQL or a
`redis-server` binary."""
from __future__ import annotations

import contextlib
import shutil
import time

import pytest
from celery import current_app
from django.db import connection
from kombu.exceptions import KombuError

from notifications.models import Notification
from notifications.services import preferences
from tests.matches.helpers import play, start_match
from tests.matches.test_engine_job_faults import (
    RedisServer,
    Worker,
    _point_celery,
    _wait,
)

from .helpers import verified

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]
TICK = "notifications.tasks.tick"


@pytest.fixture
def stack(tmp_path, smtp_server):
    """A private broker, this process's Celery app pointed at it, and a notify worker mailing to
    the in-process SMTP server."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    from pearlsite.celery import app

    server = RedisServer(tmp_path)
    server.start()
    saved = (app.conf.CELERY_BROKER_URL, app.conf.CELERY_TASK_ALWAYS_EAGER)
    _point_celery(app, server.url, eager=False)
    worker = Worker(server.url, "notify", "notify", tmp_path, EMAIL_URL=f"smtp://127.0.0.1:{smtp_server.port}",
                    PEARLSITE_SITE_URL="http://testserver", PEARLSITE_NOTIFY_ACTIVE_MINUTES="0",
                    PEARLSITE_NOTIFY_RETRY_FIRST_SECONDS="1", PEARLSITE_WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8")
    try:
        yield server, smtp_server
    finally:
        worker.stop()
        server.stop()
        _point_celery(app, *saved)


def _beat() -> None:
    """What celery beat does every NOTIFY_TICK_SECONDS: send the tick (to the worker)."""
    current_app.signature(TICK).apply_async(queue="notify")


def _mails_to(inbox, address: str) -> list:
    return [m for rcpt, m in inbox.messages if address in rcpt]


def _away(user, address: str) -> None:
    verified(user, address)
    preferences.preferences_update(user=user, channels={"challenge_received": []})


def test_a_move_sends_the_away_player_one_your_turn_mail(stack, as_alice, as_bob, bob):
    _, inbox = stack
    _away(bob, "bob@example.org")
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    started = time.monotonic()
    _beat()
    _wait(lambda: _mails_to(inbox, "bob@example.org"), 30, "no your-turn mail", every=0.1)
    print(f"\nyour-turn mail {time.monotonic() - started:.2f} s after the tick")
    for _ in range(3):                                                 # later ticks add nothing
        _beat()
    row = Notification.objects.get(kind="your_turn", channel="email")
    current_app.signature("notifications.tasks.deliver", args=(row.pk,)).apply_async(queue="notify")   # a duplicate
    time.sleep(1.5)
    (mail,) = _mails_to(inbox, "bob@example.org")
    assert mail["Subject"] == "Your move in 1 game" and f"/matches/{match_id}/" in mail.get_body(("plain",)).get_content()
    assert Notification.objects.get(pk=row.pk).status == "sent"


def test_with_the_broker_down_during_the_move_the_mail_comes_once_it_is_back(stack, as_alice, as_bob, bob):
    server, inbox = stack
    _away(bob, "bob@example.org")
    match_id = start_match(as_alice, as_bob)
    server.stop()
    started = time.monotonic()
    play(as_alice, match_id, "e1-e5", ply=0)                          # 201 all the same
    request_seconds = time.monotonic() - started
    with pytest.raises((KombuError, OSError)):                       # beat cannot send its tick either
        _beat()
    server.start()
    back = time.monotonic()
    _wait(lambda: _mails_to(inbox, "bob@example.org"), 60, "no mail after the broker returned", every=0.5,
          between=_beat_quietly)
    print(f"\nbroker down: move answered in {request_seconds:.2f} s; mail {time.monotonic() - back:.2f} s "
          f"after the broker returned")
    time.sleep(1.5)
    assert request_seconds < 2.0
    assert len(_mails_to(inbox, "bob@example.org")) == 1


def _beat_quietly() -> None:
    with contextlib.suppress(KombuError, OSError):                   # the broker is still starting
        _beat()


def test_digest_reminders_reset_and_webhook_retries_through_the_worker(stack, as_alice, as_bob, bob, anon, receiver):
    """The other mails and a webhook, through the real worker, SMTP server and HTTP receiver."""
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from matches.models import ApiToken, Match

    _, inbox = stack
    _away(bob, "bob@example.org")
    zone = "Pacific/Auckland"
    preferences.preferences_update(user=bob, time_zone=zone, digest="daily",
                                   digest_hour=timezone.now().astimezone(ZoneInfo(zone)).hour)
    hook = as_bob.post("/api/v1/accounts/me/webhooks/", {"url": receiver.url, "kinds": ["deadline_reminder"]},
                       format="json").json()
    receiver.plan = [500]                                              # the first delivery fails
    match_id = start_match(as_alice, as_bob, days_per_move=1)
    play(as_alice, match_id, "e1-e5", ply=0)
    now = timezone.now()
    Match.objects.filter(pk=match_id).update(turn_started_at=now - timedelta(hours=21),
                                             deadline=now + timedelta(hours=3))    # three hours left
    _beat()
    _wait(lambda: len(_mails_to(inbox, "bob@example.org")) >= 3, 30, "no digest and reminder", every=0.1)
    subjects = sorted(m["Subject"] for m in _mails_to(inbox, "bob@example.org"))
    assert subjects == ["Your Pearlsite digest", "Your move in 1 game", "Your move: under 4 h left in Hasami Shogi"]
    digest = next(m for m in _mails_to(inbox, "bob@example.org") if m["Subject"] == "Your Pearlsite digest")
    assert f"/matches/{match_id}/" in digest.get_body(("plain",)).get_content() and "NZ" in str(digest)
    _wait(lambda: len(receiver.requests) >= 2, 30, "the webhook was not retried", every=0.2,
          between=_beat_quietly)
    first, second = receiver.requests[:2]
    assert first["headers"]["X-Pearlsite-Delivery"] == second["headers"]["X-Pearlsite-Delivery"]
    delivery = as_bob.get(f"/api/v1/accounts/me/webhooks/{hook['id']}/deliveries/").json()["results"][0]
    assert (delivery["status"], delivery["attempts"], delivery["response_status"]) == ("sent", 2, 200)
    play(as_bob, match_id, "a9-a8", ply=1)                            # bob moves: no more reminders
    for _ in range(3):
        _beat()
    time.sleep(1.5)
    assert len(_mails_to(inbox, "bob@example.org")) == 3
    anon.post("/api/v1/auth/password-reset/", {"login": "bob"}, format="json")   # sent right after commit
    _wait(lambda: len(_mails_to(inbox, "bob@example.org")) == 4, 30, "no reset mail", every=0.1)
    reset = _mails_to(inbox, "bob@example.org")[-1].get_body(("plain",)).get_content()
    uid, token = reset.split("/accounts/password-reset/")[1].split()[0].strip("/").split("/")
    done = anon.post("/api/v1/auth/password-reset/confirm/", {"uid": uid, "token": token,
                                                              "password": "a-brand-new-phrase"}, format="json")
    assert done.status_code == 204 and not ApiToken.objects.filter(user=bob).exists()
