"""Staff tools through the API: find an account and its matches, revoke its tokens, abort or
adjudicate a stuck match, re-run a failed engine job. Each refuses a non-staff caller (403; 401
without credentials) and then nothing changes."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from matches.models import Analysis, ApiToken, EngineJob, Match, Rating
from matches.services import analysis, dispatch, results
from tests.services import factories

from .helpers import play, snapshot, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_staff(client_for, django_user_model):
    return client_for(django_user_model.objects.create_user(username="opal", password="opal-secret-pw",
                                                            is_staff=True))


def _job_rows() -> list[tuple]:
    return list(EngineJob.objects.order_by("id").values_list("id", "status", "attempts", "last_error"))


def _failed_reply(as_alice) -> EngineJob:
    """alice's engine match whose reply job failed for good (the engine is to move, stuck)."""
    match_id = start_match(as_alice, opponents=["ai:random"], seat=1)     # the engine moves first
    job = EngineJob.objects.get(match_id=match_id)
    dispatch.job_finish(job.pk, EngineJob.Status.FAILED, "the worker crashed", lane=job.lane)
    job.refresh_from_db()
    return job


def test_find_users_by_part_of_the_name(as_staff, alice, bob):
    body = as_staff.get("/api/v1/staff/users/", {"q": "LIC"}).json()
    assert [u["username"] for u in body["results"]] == ["alice"]
    assert body["results"][0]["tokens"] == 1 and body["results"][0]["is_active"] is True
    assert as_staff.get("/api/v1/staff/users/").json()["count"] == 3        # alice, bob and the staff member


def test_see_a_users_matches(as_staff, alice, bob, carol):
    live = factories.match(alice, bob)
    finished = factories.match(alice, carol)
    results.match_resign(match_id=finished.pk, user=carol)
    factories.match(bob, carol)
    ids = [m["id"] for m in as_staff.get("/api/v1/staff/users/alice/matches/").json()["results"]]
    assert ids == [finished.pk, live.pk]
    active = as_staff.get("/api/v1/staff/users/alice/matches/", {"status": "active"}).json()["results"]
    assert [m["id"] for m in active] == [live.pk]
    assert as_staff.get("/api/v1/staff/users/nobody/matches/").json()["code"] == "user_not_found"


def test_revoke_every_token_of_a_user(as_staff, as_alice, alice):
    held = ApiToken.objects.filter(user=alice).count()
    assert as_alice.get("/api/v1/accounts/me/").status_code == 200
    response = as_staff.post("/api/v1/staff/users/alice/tokens/revoke/")
    assert response.status_code == 200 and response.json() == {"revoked": held}
    assert as_alice.get("/api/v1/accounts/me/").status_code == 401
    assert as_staff.post("/api/v1/staff/users/nobody/tokens/revoke/").status_code == 404


def test_abort_a_stuck_match(as_staff, alice, bob, as_alice):
    match = factories.match(alice, bob)
    play(as_alice, match.pk, "e1-e5", ply=0)
    # Past the point where the players could abort it themselves: staff still can.
    response = as_staff.post(f"/api/v1/staff/matches/{match.pk}/abort/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "aborted" and response.json()["result"]["termination"] == "aborted"
    again = as_staff.post(f"/api/v1/staff/matches/{match.pk}/abort/")
    assert (again.status_code, again.json()["code"]) == (409, "match_finished")
    assert as_staff.post("/api/v1/staff/matches/999999/abort/").status_code == 404


def test_adjudicate_a_stuck_match(as_staff, alice, bob):
    match = factories.match(alice, bob, rated=True, time_control={"kind": "per_move", "days": 3})
    response = as_staff.post(f"/api/v1/staff/matches/{match.pk}/adjudicate/", {"winner": 1}, format="json")
    assert response.status_code == 200, response.json()
    result = response.json()["result"]
    assert result["winners"] == [1] and result["termination"] == "adjudicated" and result["scores"] == [0.0, 1.0]
    assert Rating.objects.filter(user__in=[alice, bob]).count() == 2      # it counted as a rated result


def test_adjudicate_a_draw_and_refuse_a_seat_that_is_not_there(as_staff, alice, bob):
    match = factories.match(alice, bob)
    before = snapshot(match.pk)
    wrong = as_staff.post(f"/api/v1/staff/matches/{match.pk}/adjudicate/", {"winner": 2}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_seat_choice")
    assert snapshot(match.pk) == before
    drawn = as_staff.post(f"/api/v1/staff/matches/{match.pk}/adjudicate/", {"winner": None}, format="json")
    assert drawn.json()["result"]["winners"] == [] and drawn.json()["result"]["scores"] == [0.5, 0.5]


def test_rerun_a_failed_reply_job(as_staff, as_alice, django_capture_on_commit_callbacks):
    job = _failed_reply(as_alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_staff.post(f"/api/v1/staff/engine-jobs/{job.pk}/retry/")
    assert response.status_code == 200, response.json()
    job.refresh_from_db()
    assert job.status == "done" and Match.objects.get(pk=job.match_id).ply == 1     # the engine moved
    again = as_staff.post(f"/api/v1/staff/engine-jobs/{job.pk}/retry/")
    assert (again.status_code, again.json()["code"]) == (409, "job_not_retryable")
    assert again.json()["detail"]["reason"] == "it is done, not failed"


def test_a_reply_for_a_match_that_moved_on_is_not_rerun(as_staff, as_alice):
    job = _failed_reply(as_alice)
    results.match_abort_by_staff(match_id=job.match_id)
    before = _job_rows()
    refused = as_staff.post(f"/api/v1/staff/engine-jobs/{job.pk}/retry/")
    assert refused.status_code == 409 and refused.json()["detail"]["reason"] == "the match has moved on"
    assert _job_rows() == before


def test_rerun_a_failed_analysis(as_staff, alice, bob, django_capture_on_commit_callbacks):
    match = factories.match(alice, bob)
    results.match_resign(match_id=match.pk, user=bob)
    requested = analysis.analysis_request(match_id=match.pk, user=alice, level="easy")
    job = requested.job
    dispatch.job_finish(job.pk, EngineJob.Status.FAILED, "out of memory", lane=job.lane)
    analysis.analysis_failed(analysis_id=requested.pk, error="the engine could not finish")
    listed = as_staff.get("/api/v1/staff/engine-jobs/", {"status": "failed"}).json()["results"]
    assert [j["id"] for j in listed] == [job.pk] and listed[0]["last_error"] == "out of memory"
    with django_capture_on_commit_callbacks(execute=True):
        assert as_staff.post(f"/api/v1/staff/engine-jobs/{job.pk}/retry/").status_code == 200
    assert Analysis.objects.get(pk=requested.pk).status == "done"


STAFF_ONLY = [
    ("get", "/api/v1/staff/users/?q=a", None),
    ("get", "/api/v1/staff/users/alice/matches/", None),
    ("post", "/api/v1/staff/users/alice/tokens/revoke/", None),
    ("post", "/api/v1/staff/matches/{match}/abort/", None),
    ("post", "/api/v1/staff/matches/{match}/adjudicate/", {"winner": 0}),
    ("get", "/api/v1/staff/engine-jobs/", None),
    ("post", "/api/v1/staff/engine-jobs/{job}/retry/", None),
]


@pytest.mark.parametrize("method, url, body", STAFF_ONLY)
def test_everyone_else_is_refused_and_nothing_changes(as_alice, alice, bob, anon, method, url, body):
    match = factories.match(alice, bob)
    job = _failed_reply(as_alice)
    url = url.format(match=match.pk, job=job.pk)
    state = (snapshot(match.pk), _job_rows(), ApiToken.objects.count(),
             list(get_user_model().objects.values_list("id", "is_active").order_by("id")))
    as_bob = _client_for(bob)
    for client, status in ((as_bob, 403), (as_alice, 403), (anon, 401)):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == status, (url, response.content)
    assert state == (snapshot(match.pk), _job_rows(), ApiToken.objects.count(),
                     list(get_user_model().objects.values_list("id", "is_active").order_by("id")))


def _client_for(user):
    from tests.conftest import _client_for as make

    return make(user)
