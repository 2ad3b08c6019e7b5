"""Clocks: per-move and Fischer time controls, vacations, timeouts settled once, time warnings.
Every deadline is reached by moving a controllable clock (time-machine), never by sleeping."""
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.models import Event, Match, Rating
from matches.selectors.clocks import clocks_payload, parse_time_control
from matches.selectors.vacations import vacation_payload
from matches.services import challenges, clocks, play, results, vacations

from .factories import challenge, match as make_match, refusal_code

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)
FISCHER = {"kind": "fischer", "initial_days": 3, "increment_days": 1, "max_days": 4}


@pytest.fixture
def start():
    moment = timezone.now().replace(microsecond=0)
    with time_machine.travel(moment, tick=False) as traveller:
        yield traveller, moment


def _at(traveller, moment):
    traveller.move_to(moment)


def _stored(match):
    return Match.objects.get(pk=match.pk)


def _clocks(match):
    stored = _stored(match)
    return [(c["remaining"], c["running"]) for c in clocks_payload(stored, list(stored.seats.order_by("seat")))]


@pytest.mark.parametrize("given, days, expected", [
    (None, 3, {"kind": "per_move", "days": 3}),
    ({"kind": "per_move", "days": 14}, None, {"kind": "per_move", "days": 14}),
    (FISCHER, None, FISCHER),
    (None, None, None),
])
def test_time_controls_are_normalised(given, days, expected):
    assert parse_time_control(given, days) == expected


@pytest.mark.parametrize("given, days", [
    ({"kind": "per_move", "days": 3}, 3), ({"kind": "blitz"}, None), ({"kind": "per_move", "days": 0}, None),
    ({"kind": "per_move", "days": True}, None), ({"kind": "per_move", "days": 2, "extra": 1}, None),
    ({"kind": "fischer", "initial_days": 5, "increment_days": 1, "max_days": 4}, None),
    ({"kind": "fischer", "initial_days": 5}, None), ("3 days", None),
])
def test_bad_time_controls_are_refused(given, days):
    assert refusal_code(lambda: parse_time_control(given, days)) == "invalid_time_control"


def test_rated_matches_need_a_clock(users):
    ann, ben, _ = users
    assert refusal_code(lambda: challenges.challenge_create(creator=ann, game="hasami-shogi", opponents=[ben.username],
                                                            rated=True)) == "rated_needs_clock"
    assert challenge(ann, [ben], rated=True, time_control=FISCHER).time_control == FISCHER


def test_a_per_move_clock_gives_every_turn_its_days(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=2)
    assert _stored(match).deadline == t0 + 2 * DAY
    _at(traveller, t0 + timedelta(hours=30))
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    assert _stored(match).deadline == t0 + timedelta(hours=30) + 2 * DAY
    assert _clocks(match) == [(2 * 86400, False), (2 * 86400, True)]


def test_a_fischer_bank_shrinks_while_thinking_and_grows_by_the_increment_up_to_the_cap(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, time_control={**FISCHER, "increment_days": 2})
    assert _stored(match).deadline == t0 + 3 * DAY
    _at(traveller, t0 + 2 * DAY)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")          # 3 - 2 + 2 = 3 days
    assert _stored(match).deadline == t0 + 2 * DAY + 3 * DAY          # ben's untouched bank
    _at(traveller, t0 + 2 * DAY + timedelta(hours=1))
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8")          # 3 d - 1 h + 2 d > 4 d: capped
    assert _clocks(match) == [(3 * 86400, True), (4 * 86400, False)]
    assert _stored(match).deadline == t0 + 2 * DAY + timedelta(hours=1) + 3 * DAY


def test_engines_have_no_clock(users, start, django_capture_on_commit_callbacks):
    ann = users[0]
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(ann, ["ai:random"], seat=1, days_per_move=1)
    match = _stored(made.match)
    assert match.to_move == 1 and match.ply == 1     # the engine has replied already
    assert [c["remaining"] for c in clocks_payload(match, list(match.seats.order_by("seat")))] == [None, 86400]


def test_moving_after_the_deadline_is_refused_and_changes_nothing(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=1)
    _at(traveller, t0 + DAY)
    assert refusal_code(lambda: play.move_submit(match_id=match.pk, user=ann, move="e1-e5")) == "time_out"
    assert refusal_code(lambda: results.match_resign(match_id=match.pk, user=ben)) == "time_out"
    assert _stored(match).ply == 0 and _stored(match).status == "active"


def test_a_seat_that_never_moved_before_its_deadline_aborts_the_match_unrated(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=1, rated=True)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    _at(traveller, t0 + DAY + timedelta(minutes=1))
    assert results.match_claim_timeouts() == [match.pk]
    stored = _stored(match)
    assert stored.status == "aborted" and stored.result["termination"] == "aborted"
    assert not Rating.objects.exists()


def test_a_timeout_after_both_moved_loses_and_is_rated(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=1, rated=True)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
    _at(traveller, t0 + timedelta(hours=23))
    assert results.match_claim_timeouts() == []
    _at(traveller, t0 + DAY)
    assert results.match_claim_timeouts() == [match.pk]
    stored = _stored(match)
    assert stored.result == {"winners": [1], "scores": [0.0, 1.0], "termination": "timeout"}
    assert Rating.objects.get(user=ben).rating > 1500
    assert _clocks(match) == [(0, False), (86400, False)]
    assert Event.objects.filter(kind="match_finished").count() == 2


def test_vacation_pauses_running_clocks_and_starts_new_turns_paused(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    mine = make_match(ann, ben, days_per_move=2)                 # ann to move
    theirs = make_match(ben, ann, days_per_move=2)               # ben to move
    _at(traveller, t0 + DAY)
    vacations.vacation_start(user=ann)
    assert _stored(mine).deadline is None
    assert _clocks(mine)[0] == (86400, False)
    play.move_submit(match_id=theirs.pk, user=ben, move="e1-e5")  # ann's turn begins while away
    assert _stored(theirs).deadline is None and _clocks(theirs)[1] == (2 * 86400, False)
    _at(traveller, t0 + 11 * DAY)
    assert results.match_claim_timeouts() == []                  # nothing runs out while away
    vacations.vacation_end(user=ann)
    assert _stored(mine).deadline == t0 + 11 * DAY + DAY         # the day that was left
    assert _stored(theirs).deadline == t0 + 11 * DAY + 2 * DAY
    account = vacation_payload(ann)
    assert account["used_seconds"] == 10 * 86400 and account["left_seconds"] == 20 * 86400


def test_a_vacation_ends_when_the_allowance_runs_out(users, start, settings):
    settings.VACATION_DAYS_PER_YEAR = 5
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=2)
    vacations.vacation_start(user=ann)
    _at(traveller, t0 + 4 * DAY)
    assert vacations.vacations_end_used_up() == []
    _at(traveller, t0 + 6 * DAY)
    assert vacations.vacations_end_used_up() == [ann.pk]
    assert _stored(match).deadline == t0 + 5 * DAY + 2 * DAY     # resumed when the allowance ran out
    assert refusal_code(lambda: vacations.vacation_start(user=ann)) == "no_vacation_left"
    assert refusal_code(lambda: vacations.vacation_end(user=ann)) == "not_on_vacation"


def test_the_allowance_is_per_calendar_year(users, settings):
    settings.VACATION_DAYS_PER_YEAR = 2
    ann = users[0]
    with time_machine.travel("2031-12-01T00:00:00Z", tick=False) as traveller:
        vacations.vacation_start(user=ann)
        assert refusal_code(lambda: vacations.vacation_start(user=ann)) == "already_on_vacation"
        traveller.move_to("2031-12-05T00:00:00Z")
        vacations.vacation_end(user=ann)
        assert vacation_payload(ann)["left_seconds"] == 0
        traveller.move_to("2032-01-01T00:00:01Z")
        assert vacation_payload(ann)["left_seconds"] == 2 * 86400
        vacations.vacation_start(user=ann)


def test_a_time_warning_goes_once_a_day_before_the_deadline(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=3)
    _at(traveller, t0 + DAY + timedelta(hours=23))
    assert clocks.clocks_send_warnings() == []
    _at(traveller, t0 + 2 * DAY)
    assert clocks.clocks_send_warnings() == [match.pk]
    assert clocks.clocks_send_warnings() == []
    warning = Event.objects.get(kind="time_warning")
    assert warning.user == ann and warning.payload["deadline"] == (t0 + 3 * DAY).isoformat()
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")     # a new turn, a new warning
    _at(traveller, t0 + 4 * DAY)
    assert clocks.clocks_send_warnings() == [match.pk]


def test_a_short_turn_is_warned_halfway(users, start):
    traveller, t0 = start
    ann, ben, _ = users
    match = make_match(ann, ben, days_per_move=1)
    _at(traveller, t0 + timedelta(hours=11))
    assert clocks.clocks_send_warnings() == []
    _at(traveller, t0 + timedelta(hours=12))
    assert clocks.clocks_send_warnings() == [match.pk]


def _race(*calls):
    """Run the calls at the same instant on threads of their own (each with its own connection)."""
    import threading

    from django.db import connection

    barrier, out = threading.Barrier(len(calls)), [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            out[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_settle_and_warn_each_match_exactly_once():
    from django.db import connection

    from .factories import UserFactory

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    t0 = timezone.now()
    pairs = [(UserFactory(), UserFactory()) for _ in range(8)]
    with time_machine.travel(t0, tick=False):
        ids = []
        for ann, ben in pairs:
            match = make_match(ann, ben, days_per_move=1, rated=True)
            play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
            play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
            ids.append(match.pk)
    warned = _race(lambda: clocks.clocks_send_warnings(now=t0 + timedelta(hours=13)),
                   lambda: clocks.clocks_send_warnings(now=t0 + timedelta(hours=13)))
    assert sorted(warned[0] + warned[1]) == sorted(ids)
    assert Event.objects.filter(kind="time_warning").count() == len(ids)
    later = t0 + DAY + timedelta(minutes=1)
    settled = _race(lambda: results.match_claim_timeouts(now=later, batch=3),
                    lambda: results.match_claim_timeouts(now=later, batch=3))
    assert sorted(settled[0] + settled[1]) == sorted(ids)
    assert Event.objects.filter(kind="match_finished").count() == 2 * len(ids)
    assert set(Rating.objects.values_list("games", flat=True)) == {1}
