"""While the Redis that is also the broker is known to be down (the rate limits' circuit breaker
is open), a request does not try to send its engine job: it stays queued, and the sweep sends it
once the broker answers. Wake-ups are not published then either."""
import pytest

from matches import redis_link, wakeup
from matches.models import EngineJob
from matches.services import dispatch, jobs, play

from .factories import challenge

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_known_down(settings, monkeypatch):
    from pearlsite.celery import app

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(app.conf, "broker_url", settings.REDIS_URL)   # the broker is that Redis
    # The broker is that Redis, whichever Celery app an earlier test left current.
    monkeypatch.setattr(dispatch, "_broker_failed_just_now", lambda: redis_link.breaker.is_open)
    monkeypatch.setattr(dispatch, "_send_paused_until", 0.0)
    redis_link.breaker.failed(ConnectionError("refused"))
    yield
    redis_link.breaker.succeeded()


def test_a_move_does_not_wait_for_a_broker_known_down(users, redis_known_down, monkeypatch,
                                                      django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(dispatch, "_publish", lambda job, payload: sent.append(job.pk) or True)
    ann = users[0]
    match_id = challenge(ann, ["ai:random"]).match_id
    with django_capture_on_commit_callbacks(execute=True):
        play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    job = EngineJob.objects.get(match_id=match_id)
    assert job.status == EngineJob.Status.QUEUED and sent == []
    assert jobs.sweep()["sent"] == 1 and sent == [job.pk]              # the sweep sends regardless


def test_wake_ups_are_not_published_while_redis_is_known_down(redis_known_down, monkeypatch):
    published = []

    class Client:
        def pipeline(self, transaction=True):
            return self

        def publish(self, channel, message):
            published.append(channel)

        def execute(self):
            return []

    monkeypatch.setattr(wakeup, "_redis", Client)
    monkeypatch.setattr(wakeup, "_quiet_until", 0.0)
    wakeup.publish([1, 2])
    assert published == []
    redis_link.breaker.succeeded()                                      # Redis answers again
    wakeup.publish([1, 2])
    assert sorted(published) == ["pearlsite:events:1", "pearlsite:events:2"]
