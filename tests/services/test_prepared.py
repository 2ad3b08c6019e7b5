"""Prepared reads give exactly what their querysets give: the same rows, fields, related objects
and annotations; and arguments the SQL cannot bind as they are go Django's own way."""
import pytest
from django.db import transaction
from django.db.models import Exists, OuterRef

from matches.models import ConditionalMoves, MatchSeat
from matches.selectors.prepared import PreparedQuery

from .factories import UserFactory, match

pytestmark = pytest.mark.django_db


def _seats(match_id):
    return MatchSeat.objects.select_related("match", "user").filter(match_id=match_id).order_by("seat") \
        .annotate(has_conditional=Exists(ConditionalMoves.objects.filter(match_id=OuterRef("match_id"))))


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_rows_related_objects_and_annotations_are_the_querysets():
    made = match(UserFactory(), UserFactory())
    prepared = PreparedQuery(MatchSeat, _seats, int)
    for _ in range(2):                    # compiled on the first call, reused on the second
        got, expected = prepared(made.pk), list(_seats(made.pk))
        assert [_fields(s) for s in got] == [_fields(s) for s in expected]
        assert [_fields(s.match) for s in got] == [_fields(s.match) for s in expected]
        assert [s.user and _fields(s.user) for s in got] == [s.user and _fields(s.user) for s in expected]
        assert [s.has_conditional for s in got] == [s.has_conditional for s in expected] == [False, False]
        assert all(not s._state.adding and s._state.db == "default" for s in got)
    assert prepared(made.pk + 1000) == []


def test_shapes_are_compiled_apart():
    made = match(UserFactory(), UserFactory())
    prepared = PreparedQuery(MatchSeat, lambda match_id, shape: _seats(match_id)[:shape], int, shaped=True)
    assert [s.seat for s in prepared(made.pk, shape=1)] == [0]
    assert [s.seat for s in prepared(made.pk, shape=2)] == [0, 1]


def test_arguments_it_cannot_bind_go_through_the_queryset():
    made = match(UserFactory(), UserFactory())
    prepared = PreparedQuery(MatchSeat, _seats, int)
    try:                                  # SQLite cannot take the number at all; PostgreSQL finds nothing
        expected = list(_seats(2**70))
    except OverflowError:
        with pytest.raises(OverflowError):
            prepared(2**70)
    else:
        assert prepared(2**70) == expected == []
    assert [s.seat for s in prepared(str(made.pk))] == [0, 1]


def test_a_locking_read_runs_in_a_transaction():
    made = match(UserFactory(), UserFactory())
    prepared = PreparedQuery(MatchSeat, lambda match_id: _seats(match_id).select_for_update(of=("match",)), int)
    with transaction.atomic():
        assert len(prepared(made.pk)) == 2


def test_an_argument_that_does_not_reach_the_parameters_is_refused():
    prepared = PreparedQuery(MatchSeat, lambda limit: MatchSeat.objects.all()[:limit], int)
    with pytest.raises(ValueError):
        prepared(3)
