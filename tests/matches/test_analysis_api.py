import pytest

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def test_analysis_of_a_finished_match(as_alice, as_bob, anon, django_capture_on_commit_callbacks):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    early = as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "match_in_progress"
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "easy"}, format="json")
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    done = anon.get(f"/api/v1/analyses/{queued.json()['id']}/").json()
    assert done["status"] == "done" and [r["ply"] for r in done["results"]] == [1, 2]
    first = done["results"][0]
    assert first["played"] == "e1-e5" and first["seat"] == 0 and -1 <= first["value"] <= 1
    import games

    assert games.get_game("hasami-shogi").new_state().parse_move(first["best"])


def test_analysis_level_checked(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    response = as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "random"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unknown_level"
    assert as_alice.post("/api/v1/matches/77/analysis/", {}, format="json").status_code == 404


def test_the_server_queues_analyses_of_finished_matches(as_alice, as_bob, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    from matches.models import Analysis

    finished = start_match(as_alice, as_bob)
    play(as_alice, finished, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{finished}/resign/")
    start_match(as_alice, as_bob)                                    # still active: left alone
    hidden = start_match(as_alice, game="new-eleusis", opponents=["ai:random"] * 3)
    as_alice.post(f"/api/v1/matches/{hidden}/resign/")               # hidden information: left alone
    with django_capture_on_commit_callbacks(execute=True):
        call_command("analyse_finished", "--level", "easy")
    analysis = Analysis.objects.get()
    assert analysis.match_id == finished and analysis.requested_by is None
    assert analysis.status == "done" and [r["ply"] for r in analysis.results] == [1]
    with django_capture_on_commit_callbacks(execute=True):
        call_command("analyse_finished")
    assert Analysis.objects.count() == 1                            # nothing twice


def test_analysis_reads_as_players_read_it(as_alice, as_bob, anon, django_capture_on_commit_callbacks):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    as_alice.post(f"/api/v1/matches/{match_id}/resign/")
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_bob.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "easy"}, format="json")
    done = anon.get(f"/api/v1/analyses/{queued.json()['id']}/").json()
    first, second = done["results"]
    assert first["value_before"] == first["value"] and first["value_after"] == -second["value_before"]
    # the match ended by resignation: the last move's value after comes from one more search
    assert second["value_after"] is not None and second["classification"] in (
        "best", "good", "inaccuracy", "mistake", "blunder")
    assert 0 <= second["accuracy"] <= 100 and second["loss"] >= 0
    summary = done["summary"]
    assert summary["scale"] == {"name": "winning_chances", "unit": summary["scale"]["unit"],
                                "inaccuracy": 0.1, "mistake": 0.2, "blunder": 0.3}
    assert [(s["seat"], s["moves"]) for s in summary["seats"]] == [(0, 1), (1, 1)]
    assert all(0 <= s["accuracy"] <= 100 for s in summary["seats"])
    assert summary["series"] == [{"ply": 1, "value": first["value_after"]},
                                 {"ply": 2, "value": -second["value_after"]}]


def test_analyses_stored_before_judgements_read_with_nulls(as_alice, as_bob, anon):
    from matches.models import Analysis

    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    old = Analysis.objects.create(match_id=match_id, level="easy", upto_ply=1, status="done", results=[
        {"ply": 1, "seat": 0, "played": "e1-e5", "best": "e1-e5", "value": 0.1, "pv": ["e1-e5"], "nodes": 9}])
    done = anon.get(f"/api/v1/analyses/{old.pk}/").json()
    (row,) = done["results"]
    assert row["value"] == 0.1 and row["value_before"] is None and row["classification"] is None
    assert done["summary"]["seats"][0] == {"seat": 0, "moves": 1, "forced": 0, "best": 0, "good": 0,
                                           "inaccuracy": 0, "mistake": 0, "blunder": 0,
                                           "average_loss": None, "accuracy": None}


def test_a_blunder_in_the_api_carries_its_candidates(as_alice, as_bob, anon, settings,
                                                     django_capture_on_commit_callbacks):
    """Pearl Yard, Police first on 9×9: S throws the forced win away (docs/engines.md §1.2); the
    analysis names the blunder and the moves that keep the win, with their values and lines."""
    from tests.ai_workers.test_analysis import _losing_yard_record

    settings.ANALYSIS_SECONDS_PER_PLY = 1.0          # the proofs finish in milliseconds
    moves = _losing_yard_record()
    match_id = start_match(as_alice, as_bob, game="pearl-yard")
    for ply, move in enumerate(moves):
        play(as_alice if ply % 2 == 0 else as_bob, match_id, move, ply=ply)
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_alice.post(f"/api/v1/matches/{match_id}/analysis/", {"level": "strong"}, format="json")
    done = anon.get(f"/api/v1/analyses/{queued.json()['id']}/").json()
    first = done["results"][0]
    assert first["classification"] == "blunder" and first["played"] == "S"
    assert first["candidates"] and first["candidates"][0]["value"] > 0.9
    assert all(c["pv"][0] == c["move"] for c in first["candidates"])
    assert all(r["candidates"] == [] for r in done["results"][1:])
