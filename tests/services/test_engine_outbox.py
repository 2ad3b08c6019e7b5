"""The engine-job outbox: every engine reply and analysis is a row written with the move or request
that caused it; sending may fail without failing the request; the sweep re-sends what is queued and
takes back what a lost worker held; duplicates are harmless; a reply that fails for good becomes a
random legal move. Tasks run in-process here (eager); `broker` records sends without running them."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from celery.canvas import Signature
from kombu.exceptions import OperationalError as BrokerDown

import games
from ai_workers.tasks import engine_reply
from matches.models import Analysis, EngineJob, Match
from matches.selectors.engine_jobs import job_payload
from matches.services import analysis, challenges, dispatch, jobs, play, results

from .factories import challenge, match as make_match

pytestmark = pytest.mark.django_db
Status = EngineJob.Status


@pytest.fixture(autouse=True)
def _sending_not_paused(monkeypatch):
    monkeypatch.setattr(dispatch, "_send_paused_until", 0.0)


@pytest.fixture
def broker(monkeypatch):
    """A broker that keeps what it is sent and runs nothing: {job id: payload}."""
    sent: dict[int, dict] = {}
    monkeypatch.setattr(dispatch, "_publish", lambda job, payload: sent.setdefault(job.pk, payload) and True)
    return sent


@pytest.fixture
def broker_down(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(Signature, "apply_async", refuse)


def _take(job_id: int) -> bool:
    """What a worker does first with a message of this job."""
    return jobs.job_started(job_id=job_id, match_id=EngineJob.objects.get(pk=job_id).match_id)


def _engine_match(user, level="random") -> int:
    return challenge(user, [f"ai:{level}"]).match_id


def _move(commit, user, match_id, move="e1-e5", ply=0):
    with commit(execute=True):
        return play.move_submit(match_id=match_id, user=user, move=move, ply=ply)


def test_a_move_against_an_engine_records_its_job_in_the_same_transaction(users, broker,
                                                                          django_capture_on_commit_callbacks):
    ann = users[0]
    match_id = _engine_match(ann, "easy")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    job = EngineJob.objects.get(match_id=match_id)
    assert (job.kind, job.lane, job.status, job.ply, job.level, job.user) == ("reply", "ai-move", "queued", 1, "easy", ann)
    assert job.budget_seconds == pytest.approx(0.25 * 0.05) and not broker      # nothing sent before commit
    for callback in callbacks:
        callback()
    job.refresh_from_db()
    assert job.status == Status.SENT and job.sent_at and broker[job.pk]["job_id"] == job.pk
    assert job.lease_until - job.sent_at == timedelta(seconds=2 * job.budget_seconds + 30)


def test_a_worker_takes_the_job_and_writes_the_reply_back(users, django_capture_on_commit_callbacks):
    ann = users[0]
    match_id = _engine_match(ann)
    _move(django_capture_on_commit_callbacks, ann, match_id)
    job = EngineJob.objects.get(match_id=match_id)
    assert Match.objects.get(pk=match_id).ply == 2
    assert (job.status, job.attempts, job.lease_until) == (Status.DONE, 1, None)
    assert job.started_at and job.finished_at


def test_the_move_stands_when_the_broker_is_down_and_the_sweep_sends_it_later(
        users, broker_down, monkeypatch, django_capture_on_commit_callbacks):
    ann = users[0]
    match_id = _engine_match(ann)
    played = _move(django_capture_on_commit_callbacks, ann, match_id)
    assert played.match.ply == 1                                        # the move is committed
    job = EngineJob.objects.get(match_id=match_id)
    assert job.status == Status.QUEUED and "Connection refused" in job.last_error
    # A second request while the broker is down does not even try (sending is left to the sweep).
    assert dispatch.release() == []
    monkeypatch.undo()                                                  # the broker is back
    monkeypatch.setattr(dispatch, "_send_paused_until", 0.0)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep()["sent"] == 1
    assert Match.objects.get(pk=match_id).ply == 2
    assert EngineJob.objects.get(pk=job.pk).status == Status.DONE


def test_a_job_lost_with_its_worker_is_sent_again_once_its_lease_runs_out(users, broker,
                                                                         django_capture_on_commit_callbacks):
    ann = users[0]
    match_id = _engine_match(ann, "easy")
    _move(django_capture_on_commit_callbacks, ann, match_id)
    job = EngineJob.objects.get(match_id=match_id)
    first = broker.pop(job.pk)
    assert _take(job.pk)                              # a worker takes it, then dies
    assert not _take(job.pk)                          # a duplicate message is dropped
    assert not jobs.job_started(job_id=job.pk, match_id=job.match_id + 1)   # nor one of another match
    job.refresh_from_db()
    assert jobs.sweep() == {"requeued": 0, "given_up": 0, "sent": 0}    # the lease still runs
    with time_machine.travel(job.lease_until + timedelta(seconds=1)):
        assert jobs.sweep() == {"requeued": 1, "given_up": 0, "sent": 1}
    assert broker[job.pk] == first
    with django_capture_on_commit_callbacks(execute=True):
        engine_reply.apply(args=(broker[job.pk],))
    job.refresh_from_db()
    assert (job.status, job.attempts) == (Status.DONE, 2) and Match.objects.get(pk=match_id).ply == 2


def test_a_late_duplicate_changes_nothing(users, django_capture_on_commit_callbacks):
    ann = users[0]
    match_id = _engine_match(ann)
    _move(django_capture_on_commit_callbacks, ann, match_id)
    job = EngineJob.objects.get(match_id=match_id)
    match = Match.objects.get(pk=match_id)
    payload = {**job_payload_at(match, job), "job_id": job.pk}
    before = list(match.moves.values_list("ply", "notation"))
    assert engine_reply.apply(args=(payload,)).get() is None             # its job is closed: dropped
    without_job = {**payload, "job_id": None}
    assert engine_reply.apply(args=(without_job,)).get() is None         # compare-and-set on ply
    assert play.engine_move_apply(match_id=match_id, ply=1, notation=before[-1][1], job_id=job.pk) is None
    assert list(Match.objects.get(pk=match_id).moves.values_list("ply", "notation")) == before


def job_payload_at(match, job) -> dict:
    """The payload the job had when it was sent (the match has moved on since)."""
    from matches.selectors.engine_jobs import reply_job

    rules = games.get_game(match.game)
    state = rules.replay(players=match.players, seed=match.seed, options=match.options,
                         moves=list(match.moves.filter(ply__lte=job.ply).values_list("notation", flat=True)))
    match.ply, match.state, match.to_move = job.ply, state.to_dict(), state.current_player
    return reply_job(match, list(match.seats.order_by("seat")), job.pk).to_dict()


def test_a_reply_that_fails_for_good_becomes_a_random_legal_move(users, broker, settings,
                                                                 django_capture_on_commit_callbacks):
    settings.ENGINE_MAX_ATTEMPTS = 2
    ann = users[0]
    match_id = _engine_match(ann, "strong")
    _move(django_capture_on_commit_callbacks, ann, match_id)
    job = EngineJob.objects.get(match_id=match_id)
    for attempt in range(2):                                   # started twice, lost twice
        assert _take(job.pk)
        job.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True), \
                time_machine.travel(job.lease_until + timedelta(seconds=1)):
            swept = jobs.sweep()
        assert swept["given_up"] == attempt
    job.refresh_from_db()
    match = Match.objects.get(pk=match_id)
    assert job.status == Status.FAILED and "random legal move" in job.last_error
    assert match.ply == 2 and match.moves.get(ply=2).seat == 1        # nobody waits forever
    assert not _take(job.pk)


def test_an_engine_error_is_retried_then_given_up(users, broker, settings):
    settings.ENGINE_MAX_ATTEMPTS = 2
    ann = users[0]
    match_id = _engine_match(ann)
    play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    dispatch.release()
    job = EngineJob.objects.get(match_id=match_id)
    assert _take(job.pk)
    jobs.job_error(job_id=job.pk, error="RuntimeError('boom')")
    job.refresh_from_db()
    assert job.status == Status.SENT and job.attempts == 1 and job.last_error == "RuntimeError('boom')"
    assert _take(job.pk)
    jobs.job_error(job_id=job.pk, error="RuntimeError('boom')")
    job.refresh_from_db()
    assert job.status == Status.FAILED and Match.objects.get(pk=match_id).ply == 2


def test_the_end_of_the_match_closes_the_waiting_reply(users, broker):
    ann = users[0]
    match_id = _engine_match(ann, "strong")
    play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    waiting = EngineJob.objects.get(match_id=match_id)
    results.match_resign(match_id=match_id, user=ann)
    waiting.refresh_from_db()
    assert waiting.status == Status.FAILED and waiting.last_error == "moot: the match is finished"
    assert play.engine_move_apply(match_id=match_id, ply=1, notation="a9-a8", job_id=waiting.pk) is None
    assert Match.objects.get(pk=match_id).ply == 1


def test_one_users_many_games_do_not_delay_another_users_reply(users, broker, settings):
    settings.ENGINE_INFLIGHT_PER_USER = 2
    ann, ben, _ = users
    mine = [_engine_match(ann, "strong") for _ in range(6)]
    for match_id in mine:
        play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    dispatch.release()
    ann_jobs = list(EngineJob.objects.filter(user=ann).order_by("id"))
    assert list(broker) == [ann_jobs[0].pk, ann_jobs[1].pk]            # two in flight, four wait here
    theirs = _engine_match(ben, "strong")
    play.move_submit(match_id=theirs, user=ben, move="e1-e5", ply=0)
    dispatch.release()
    ben_job = EngineJob.objects.get(user=ben)
    assert list(broker)[-1] == ben_job.pk                              # at once, ahead of ann's four
    assert _take(ann_jobs[0].pk)
    jobs.reply_done(job_id=ann_jobs[0].pk, match_id=mine[0], ply=1, notation="a9-a8")
    assert list(broker)[-1] == ann_jobs[2].pk                          # a slot freed: ann's next, in order
    assert EngineJob.objects.filter(user=ann, status=Status.QUEUED).count() == 3


def test_the_fewest_in_flight_go_first(users, broker, settings):
    settings.ENGINE_INFLIGHT_PER_USER = 1
    ann, ben, cid = users
    for user, count in ((ann, 3), (ben, 2), (cid, 1)):
        for _ in range(count):
            play.move_submit(match_id=_engine_match(user, "strong"), user=user, move="e1-e5", ply=0)
    dispatch.release()
    assert [EngineJob.objects.get(pk=pk).user for pk in broker] == [ann, ben, cid]
    first = next(iter(broker))
    _take(first)
    jobs.job_error(job_id=first, error="lost")                         # ann's slot frees and refills
    assert EngineJob.objects.filter(user=ann, status=Status.SENT).count() == 1


def test_server_analyses_wait_while_peoples_analyses_do(users, broker, settings):
    settings.ENGINE_INFLIGHT_PER_USER = 1
    ann, ben, _ = users
    finished = [make_match(ann, ben) for _ in range(3)]
    for m in finished:
        play.move_submit(match_id=m.pk, user=ann, move="e1-e5")
        results.match_resign(match_id=m.pk, user=ben)
    system = analysis.analysis_queue_finished(level="easy")
    requested = [analysis.analysis_request(match_id=m.pk, user=ann, level="medium") for m in finished[:2]]
    dispatch.release()
    sent = [EngineJob.objects.get(pk=pk) for pk in broker]
    assert [(j.lane, j.analysis_id) for j in sent] == [("analysis-user", requested[0].pk)]
    assert EngineJob.objects.filter(analysis_id__in=system, status=Status.QUEUED).count() == 3
    _take(sent[0].pk)
    jobs.analysis_done(job_id=sent[0].pk, results=[])          # ann's next, then one of the server's
    assert [EngineJob.objects.get(pk=pk).analysis_id for pk in broker][1:] == [requested[1].pk, system[0]]


def test_a_job_of_a_match_that_moved_on_is_not_sent(users, broker):
    ann = users[0]
    match_id = _engine_match(ann)
    play.move_submit(match_id=match_id, user=ann, move="e1-e5", ply=0)
    job = EngineJob.objects.get(match_id=match_id)
    Match.objects.filter(pk=match_id).update(status=Match.Status.ABORTED, to_move=None)
    assert job_payload(job) is None
    dispatch.release()
    job.refresh_from_db()
    assert job.status == Status.FAILED and not broker


def test_an_analysis_job_runs_through_the_outbox(users, django_capture_on_commit_callbacks):
    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    results.match_resign(match_id=match.pk, user=ben)
    with django_capture_on_commit_callbacks(execute=True):
        made, created = analysis.analysis_request_once(match_id=match.pk, user=ann, level="easy")
    job = EngineJob.objects.get(analysis=made)
    made.refresh_from_db()
    assert created and made.status == Analysis.Status.DONE and [r["ply"] for r in made.results] == [1]
    assert (job.kind, job.lane, job.status, job.user, job.ply) == ("analysis", "analysis-user", "done", ann, 1)


def test_a_challenge_against_an_engine_moving_first_is_a_job_of_its_creator(users, broker):
    ann = users[0]
    made = challenges.challenge_create(creator=ann, game="hasami-shogi", opponents=["ai:easy"], seat=1)
    job = EngineJob.objects.get(match_id=made.match_id)
    assert (job.user, job.ply, job.status) == (ann, 0, Status.QUEUED)

