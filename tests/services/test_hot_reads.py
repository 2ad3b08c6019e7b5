"""The hot reads (matches/selectors/rows.py) give exactly what the querysets they stand for give:
every concrete field, related objects, annotations, nothing deferred; on PostgreSQL they are plain
SQL, elsewhere the querysets themselves. Arguments plain SQL cannot bind go the queryset's way."""
import datetime

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from matches.models import ApiToken, ConditionalMoves, Event, MatchSeat
from matches.selectors import accounts, events, matches
from matches.services import events as event_services
from matches.services.accounts import token_create, token_digest

from .factories import UserFactory, challenge, match

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    assert not obj.get_deferred_fields() and not obj._state.adding and obj._state.db == "default"
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _plain_sql_ran(queries, table: str) -> bool:
    """Whether the read was the plain statement (PostgreSQL) rather than the ORM's."""
    return any(f"FROM {table} AS " in q["sql"] for q in queries.captured_queries)


@pytest.mark.parametrize("lock", [False, True])
def test_a_match_with_its_seats_is_the_querysets(lock):
    made = match(UserFactory(), UserFactory(), days_per_move=3)
    ConditionalMoves.objects.create(match=made, seat=1, ply=0, tree={})
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        got = matches.match_with_seats(made.pk, lock=lock)
        expected = list(matches._seats_with_match(made.pk, lock=lock))
    assert _plain_sql_ran(queries, "matches_matchseat") == (connection.vendor == "postgresql")
    assert _fields(got) == _fields(expected[0].match)
    assert isinstance(got.created_at, datetime.datetime) and got.created_at.tzinfo is not None
    assert isinstance(got.state, dict) and got.time_control == {"kind": "per_move", "days": 3}
    assert [_fields(s) for s in got.seat_list] == [_fields(s) for s in expected]
    assert [s.clock for s in got.seat_list] == [datetime.timedelta(days=3)] * 2
    assert [_fields(s.user) for s in got.seat_list] == [_fields(s.user) for s in expected]
    assert all(s.match is got for s in got.seat_list)
    if lock:
        assert [s.has_conditional for s in got.seat_list] == [s.has_conditional for s in expected] == [False, True]
    with CaptureQueriesContext(connection) as later:
        assert matches.seats_of(got) == got.seat_list and got.seat_list[0].user.username
    assert not later.captured_queries


def test_an_engine_seat_has_no_user():
    pending = challenge(UserFactory(), ["ai:random"])
    got = matches.match_with_seats(pending.match_id)
    assert [(s.user, s.ai_level) for s in got.seat_list] == [
        (s.user, s.ai_level) for s in matches._seats_with_match(pending.match_id)]
    assert any(s.user is None and s.ai_level == "random" for s in got.seat_list)


def test_no_match_and_ids_past_a_bigint_find_nothing():
    assert matches.match_with_seats(10**6) is None
    assert matches.match_with_seats(2**70) is None and matches.match_with_seats(-(2**70)) is None


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_needs_a_transaction():
    made = match(UserFactory(), UserFactory())
    with pytest.raises(TransactionManagementError):
        matches.match_with_seats(made.pk, lock=True)
    with transaction.atomic():
        assert matches.match_with_seats(made.pk, lock=True).pk == made.pk


def test_a_token_with_its_user_is_the_querysets():
    user = UserFactory()
    _, key = token_create(user=user)
    got = accounts.token_with_user(token_digest(key))
    expected = ApiToken.objects.select_related("user").get(digest=token_digest(key))
    assert _fields(got) == _fields(expected) and _fields(got.user) == _fields(expected.user)
    assert got.user.is_active is True and got.created_at.tzinfo is not None
    assert accounts.token_with_user("0" * 64) is None


def test_events_after_a_cursor_are_the_querysets():
    ann, ben = UserFactory(), UserFactory()
    for n in range(5):
        event_services.notify([ann, ben], "move", {"n": n, "nested": {"list": [n]}})
    first = Event.objects.filter(user=ann).order_by("id").first()
    with CaptureQueriesContext(connection) as queries:
        got = events.events_after(ann, first.pk, 3)
    assert _plain_sql_ran(queries, "matches_event") == (connection.vendor == "postgresql")
    expected = list(Event.objects.filter(user_id=ann.pk, pk__gt=first.pk).order_by("id")[:3])
    assert [_fields(e) for e in got] == [_fields(e) for e in expected]
    assert [e.payload["n"] for e in got] == [1, 2, 3] and got[0].payload["nested"] == {"list": [1]}
    assert events.events_after(ann, 2**70, 3) == [] and events.events_after(ann, got[-1].pk, 0) == []


def test_the_seats_of_a_list_come_with_it():
    made = match(UserFactory(), UserFactory())
    listed = matches.matches_query().get(pk=made.pk)
    with CaptureQueriesContext(connection) as queries:
        assert [s.seat for s in matches.seats_of(listed)] == [0, 1]
    assert not queries.captured_queries
    assert list(MatchSeat.objects.filter(match=made).values_list("seat", flat=True)) == [0, 1]
