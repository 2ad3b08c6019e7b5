"""The event stream: ids in commit order, reading after a cursor, waiting for the next events and
following them. Waiting is driven by a fake clock, never by sleeping."""
import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches.models import Event
from matches.selectors import events as selectors
from matches.services import events

from .factories import UserFactory

pytestmark = pytest.mark.django_db


class FakeTime:
    """A monotonic clock that moves only when someone waits; `on_wait` runs at each wait."""

    def __init__(self, on_wait=None):
        self.now = 0.0
        self.waits: list[float] = []
        self.on_wait = on_wait

    def clock(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds
        if self.on_wait:
            self.on_wait(len(self.waits))


def test_unknown_kinds_are_refused():
    with pytest.raises(ValueError):
        events.notify([UserFactory()], "something_new", {})
    assert not Event.objects.exists()


def test_reading_after_a_cursor_never_repeats_or_skips():
    ann, ben = UserFactory(), UserFactory()
    for ply in range(5):
        events.notify([ann, ben], "move", {"ply": ply})
    seen, cursor = [], 0
    while batch := selectors.events_after(ann, cursor, limit=2):
        seen += [e.payload["ply"] for e in batch]
        cursor = batch[-1].pk
    assert seen == [0, 1, 2, 3, 4]
    assert [e.user for e in selectors.events_after(ben, 0, 10)] == [ben] * 5


def test_a_wait_answers_as_soon_as_an_event_arrives():
    ann = UserFactory()
    fake = FakeTime(on_wait=lambda n: n == 3 and events.notify([ann], "your_turn", {"match": 1}))
    found = selectors.wait_for_events(ann, 0, 10, timeout=30, wait=fake.wait, clock=fake.clock, interval=1.0)
    assert [e.kind for e in found] == ["your_turn"]
    assert fake.now == 3.0          # three one-second looks, not the whole 30 s


def test_a_wait_with_nothing_to_show_ends_at_its_timeout():
    ann = UserFactory()
    fake = FakeTime()
    assert selectors.wait_for_events(ann, 0, 10, timeout=2.5, wait=fake.wait, clock=fake.clock) == []
    assert fake.waits == [1.0, 1.0, 0.5]


def test_following_sends_what_is_pending_then_heartbeats_then_new_events_and_ends():
    ann = UserFactory()
    events.notify([ann], "match_started", {"match": 1})
    fake = FakeTime(on_wait=lambda n: n == 12 and events.notify([ann], "move", {"match": 1}))
    stream = selectors.follow(ann, 0, duration=20, heartbeat=5, wait=fake.wait, clock=fake.clock, interval=1.0)
    items = [("beat" if e is None else e.kind, fake.now) for e in stream]
    assert items == [("match_started", 0), ("beat", 5), ("beat", 10), ("move", 12), ("beat", 17)]
    assert fake.now == 20


def test_following_without_time_sends_only_what_is_pending():
    ann = UserFactory()
    events.notify([ann], "your_turn", {"match": 1})
    first = Event.objects.get().pk
    events.notify([ann], "move", {"match": 1})
    fake = FakeTime()
    kinds = [e.kind for e in selectors.follow(ann, first, duration=0, heartbeat=5, wait=fake.wait, clock=fake.clock)]
    assert kinds == ["move"] and fake.waits == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ids_follow_commit_order_under_concurrency():
    """A writer that starts later waits for the one that holds the event lock, so its ids are
    larger and a reader never sees a later id before an earlier one commits."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    ann = UserFactory()
    inserted, release, second_done = threading.Event(), threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            events.notify([ann], "move", {"n": 1})
            inserted.set()
            release.wait(10)
        connection.close()

    def second():
        inserted.wait(10)
        events.notify([ann], "move", {"n": 2})
        second_done.set()
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert inserted.wait(10)
    assert not second_done.wait(0.5)          # it queues behind the open transaction
    assert selectors.events_after(ann, 0, 10) == []
    release.set()
    for t in threads:
        t.join(10)
    assert [e.payload["n"] for e in selectors.events_after(ann, 0, 10)] == [1, 2]


def _batched_notify(users, n):
    with events.batched():
        events.notify(users, "move", {"n": n})


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second_writes, waits", [
    ("batch to another user", False), ("batch to the same user", True), ("plain write", True)])
def test_a_batch_waits_only_for_writers_to_the_same_users(second_writes, waits):
    """Batches (the move path) lock their recipients: a batch to other users goes on at once, one
    to the same user queues behind the open one (ids in commit order for that user), and a plain
    writer queues behind every batch."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    ann, ben, cid = UserFactory(), UserFactory(), UserFactory()
    inserted, release, second_done = threading.Event(), threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            _batched_notify([ann, ben], 1)
            inserted.set()
            release.wait(10)
        connection.close()

    def second():
        inserted.wait(10)
        with transaction.atomic():
            if second_writes == "batch to another user":
                _batched_notify([cid], 2)
            elif second_writes == "batch to the same user":
                _batched_notify([cid, ben], 2)
            else:
                events.notify([cid], "move", {"n": 2})
        second_done.set()
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert inserted.wait(10)
    assert second_done.wait(0.5) is not waits
    release.set()
    for t in threads:
        t.join(10)
    assert second_done.is_set()
    ids = {e.payload["n"]: e.pk for e in Event.objects.filter(user=cid)} | {
        e.payload["n"]: e.pk for e in Event.objects.filter(user=ben)}
    if waits:
        assert [e.payload["n"] for e in selectors.events_after(ben, 0, 10)] == ([1, 2] if "same" in second_writes
                                                                                 else [1])
        assert ids[1] < ids[2]


@pytest.mark.django_db(transaction=True)
def test_a_batch_at_the_end_of_a_transaction_commits_with_it(monkeypatch):
    """The batch is the transaction's last statement and the COMMIT follows on its own: the rows and
    the events are committed together, the commit hooks run once; nested in an outer transaction,
    the batch waits for that one's commit."""
    from matches import wakeup

    published = []
    monkeypatch.setattr(wakeup, "publish", lambda ids, match_ids=(): published.append(list(ids)))
    ann, ben = UserFactory(), UserFactory()
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            ann.first_name = "Ann"
            ann.save(update_fields=["first_name"])
            with events.batched():
                events.notify([ann, ben], "move", {"n": 1})
    if connection.vendor == "postgresql":
        assert "pg_advisory_xact_lock" in queries.captured_queries[-2]["sql"]
        assert queries.captured_queries[-1]["sql"] == "COMMIT"
    assert published == [[ann.pk, ben.pk]]
    assert transaction.get_autocommit()
    assert type(ann).objects.get(pk=ann.pk).first_name == "Ann"
    assert [e.user_id for e in selectors.events_after(ben, 0, 10)] == [ben.pk]

    with transaction.atomic():
        with transaction.atomic():
            with events.batched():
                events.notify([ann], "move", {"n": 2})
        assert published == [[ann.pk, ben.pk]]           # not committed yet
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                raise RuntimeError("the outer transaction carries on")
    assert published == [[ann.pk, ben.pk], [ann.pk]]
    assert [e.payload["n"] for e in selectors.events_after(ann, 0, 10)] == [1, 2]


def _rename(user, name: str, returned=None) -> None:
    table = user._meta.db_table
    events.write_along(f'UPDATE "{table}" SET first_name = %s WHERE id = %s' + (" RETURNING id" if returned else ""),
                       [name, user.pk], returned=returned)


@pytest.mark.django_db(transaction=True)
def test_writes_along_a_batch_go_with_its_events():
    """Writes held by a batch are sent with its events (on PostgreSQL in the same statement), their
    returned values handed back once they ran; without events they go on their own at the end;
    `write_held` sends them earlier; outside a batch they run at once."""
    ann, ben = UserFactory(), UserFactory()
    got = []
    with CaptureQueriesContext(connection) as queries, transaction.atomic(), events.batched():
        _rename(ann, "Ann", returned=got.append)
        _rename(ben, "Ben")
        events.notify([ann, ben], "move", {"n": 1})
        assert got == [] and not [q for q in queries.captured_queries if "first_name" in q["sql"]]  # not yet
    assert got == [ann.pk]
    names = dict(type(ann).objects.values_list("pk", "first_name"))
    assert (names[ann.pk], names[ben.pk]) == ("Ann", "Ben")
    assert [e.user_id for e in selectors.events_after(ben, 0, 10)] == [ben.pk]
    sql = [q["sql"] for q in queries.captured_queries]
    if connection.vendor == "postgresql":       # BEGIN, the one statement, COMMIT
        assert len(sql) == 3 and sql[1].startswith("WITH held_0 AS (UPDATE") and "held_1 AS (UPDATE" in sql[1]
        assert "INSERT INTO matches_event" in sql[1] and "RETURNING (SELECT * FROM held_0)" in sql[1]

    with transaction.atomic():
        with events.batched():
            _rename(ann, "Anna", returned=got.append)
            events.write_held()
            assert got == [ann.pk, ann.pk] and type(ann).objects.get(pk=ann.pk).first_name == "Anna"
            _rename(ben, "Benno", returned=got.append)
            assert got == [ann.pk, ann.pk]
        assert got == [ann.pk, ann.pk, ben.pk] and type(ben).objects.get(pk=ben.pk).first_name == "Benno"
    _rename(ann, "Annie", returned=got.append)                   # no batch: at once
    assert got[-1] == ann.pk and type(ann).objects.get(pk=ann.pk).first_name == "Annie"


def test_a_batch_that_fails_sends_none_of_its_writes():
    ann = UserFactory(first_name="Ann")
    with CaptureQueriesContext(connection) as queries, pytest.raises(RuntimeError), transaction.atomic(), \
            events.batched():
        _rename(ann, "Bob")
        events.notify([ann], "move", {"n": 1})
        raise RuntimeError("the move is refused")
    assert not [q for q in queries.captured_queries if "first_name" in q["sql"]]
    assert type(ann).objects.get(pk=ann.pk).first_name == "Ann" and not Event.objects.exists()


@pytest.mark.redis
def test_a_listener_wakes_on_a_published_event(settings):
    import time

    from matches import wakeup

    if not settings.REDIS_URL:
        pytest.skip("needs Redis (set REDIS_URL=redis://...)")
    with wakeup.Listener(4242) as listener:
        assert listener.interval > 1
        wakeup.publish([4242])
        started = time.monotonic()
        listener.wait(10)
        assert time.monotonic() - started < 2
