"""The jobs the workers receive: plain data, complete enough to think without the database, and
without the match seed where the position already holds everything."""
import json

import pytest

import games
from ai_workers.engines.jobs import EngineJob, run_analysis, run_reply
from matches.models import Match
from matches.selectors.engine_jobs import analysis_job, reply_job
from matches.services import play, results

from .factories import challenge, match as make_match

pytestmark = pytest.mark.django_db


def test_a_reply_job_carries_the_position_and_not_the_seed(users):
    made = challenge(users[0], ["ai:easy"], seat=1)
    match = Match.objects.get(pk=made.match_id)
    job = reply_job(match, list(match.seats.order_by("seat")))
    data = json.loads(json.dumps(job.to_dict()))
    assert data["kind"] == "reply" and data["state"] == match.state and data["seed"] is None
    assert data["level"] == "easy" and data["ply"] == 0 and data["seat"] == 0
    assert str(match.seed) not in json.dumps(data)
    reply = run_reply(EngineJob.from_dict(data))
    assert reply.move in games.get_game("hasami-shogi").state_from_dict(match.state).legal_notations()


def test_an_analysis_job_replays_the_record(users):
    from matches.models import Analysis

    ann, ben, _ = users
    match = make_match(ann, ben)
    play.move_submit(match_id=match.pk, user=ann, move="e1-e5")
    play.move_submit(match_id=match.pk, user=ben, move="a9-a8")
    results.match_resign(match_id=match.pk, user=ben)
    job = analysis_job(Analysis.objects.create(match=match, requested_by=ann, level="easy", upto_ply=2))
    assert job.moves == ("e1-e5", "a9-a8") and job.seed == match.seed
    rows = run_analysis(EngineJob.from_dict(json.loads(json.dumps(job.to_dict()))))
    assert [(r["ply"], r["seat"], r["played"]) for r in rows] == [(1, 0, "e1-e5"), (2, 1, "a9-a8")]
    assert all(-1.0 <= r["value"] <= 1.0 and str(r["value"]) != "-0.0" for r in rows)


def test_malformed_jobs_are_refused():
    with pytest.raises(ValueError):
        EngineJob(kind="guess", game="hasami-shogi", options={}, players=2, level="easy", ply=0,
                  seconds=0.1, rng_seed=1, state={})
    with pytest.raises(ValueError):
        EngineJob(kind="reply", game="hasami-shogi", options={}, players=2, level="easy", ply=0,
                  seconds=0.1, rng_seed=1)
