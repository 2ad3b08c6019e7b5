import pytest

from matches.models import Analysis, Event
from matches.services import accounts, analysis, events, results

from .factories import refusal_code, UserFactory, match as make_match

pytestmark = pytest.mark.django_db



def test_analysis_waits_for_the_end_of_the_match(users, django_capture_on_commit_callbacks):
    ann, ben, _ = users
    match = make_match(ann, ben)
    assert refusal_code(lambda: analysis.analysis_request(match_id=match.pk, user=ann)) == "match_in_progress"
    assert refusal_code(lambda: analysis.analysis_request(match_id=match.pk, user=ann, level="random")) == "unknown_level"
    results.match_resign(match_id=match.pk, user=ben)
    with django_capture_on_commit_callbacks(execute=True):
        job, created = analysis.analysis_request_once(match_id=match.pk, user=ann, level="easy")
    job.refresh_from_db()
    assert created and job.status == Analysis.Status.DONE and job.results == [] and job.upto_ply == 0
    assert Event.objects.get(user=ann, kind="analysis_done").payload["analysis"] == job.pk


def test_a_finished_result_is_not_overwritten(users):
    ann, ben, _ = users
    match = make_match(ann, ben)
    results.match_resign(match_id=match.pk, user=ben)
    job = Analysis.objects.create(match=match, requested_by=ann, level="easy", upto_ply=0)
    analysis.analysis_complete(analysis_id=job.pk, results=[{"ply": 1}])
    analysis.analysis_failed(analysis_id=job.pk, error="late failure")
    assert not analysis.analysis_started(analysis_id=job.pk)
    job.refresh_from_db()
    assert job.status == Analysis.Status.DONE and job.results == [{"ply": 1}] and job.error == ""


def test_registration_and_tokens():
    user, token = accounts.account_register(username="newcomer", password="a-long-enough-secret")
    assert accounts.token_authenticate(token).user == user
    _, again = accounts.token_for_credentials(username="newcomer", password="a-long-enough-secret")
    assert again != token and accounts.token_authenticate(again).user == user
    assert accounts.token_authenticate("0" * 40) is None
    assert refusal_code(lambda: accounts.token_for_credentials(username="newcomer", password="wrong")) == "invalid_credentials"
    assert refusal_code(lambda: accounts.account_register(username="newcomer", password="another-long-secret")) == "username_taken"
    assert refusal_code(lambda: accounts.account_register(username="ai:strong", password="a-long-enough-secret")) == "invalid_username"
    assert refusal_code(lambda: accounts.account_register(username="weakling", password="password")) == "weak_password"


def test_events_go_once_to_each_person():
    ann, ben = UserFactory(), UserFactory()
    events.notify([ann, None, ann, ben], "move", {"match": 1})
    assert sorted(Event.objects.values_list("user__username", flat=True)) == sorted([ann.username, ben.username])
