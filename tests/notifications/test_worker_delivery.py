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
                    PEARLSITE_SITE_URL="http://testserver", PEARLSITE_NOTIFY_ACTIVE_MINUTES="0")
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
