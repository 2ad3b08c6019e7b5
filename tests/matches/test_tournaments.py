"""Tournaments over HTTP: organise, enter, start, and read standings, crosstable and pairings."""
import pytest

from matches.models import TournamentGame

pytestmark = pytest.mark.django_db
BODY = {"name": "Autumn Swiss", "game": "hasami-shogi", "kind": "swiss", "rounds": 2, "max_entrants": 4}


def test_organise_enter_start_and_read(as_alice, as_bob, as_carol, client_for, dave, anon,
                                       django_capture_on_commit_callbacks):
    created = as_alice.post("/api/v1/tournaments/", BODY, format="json")
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    assert created.json()["status"] == "open" and created.json()["organiser"] == "alice"
    as_dave = client_for(dave)
    for client in (as_alice, as_bob, as_carol, as_dave):
        assert client.post(f"/api/v1/tournaments/{tid}/join/").status_code == 201
    assert as_bob.post(f"/api/v1/tournaments/{tid}/join/").json()["code"] == "already_entered"
    assert as_bob.post(f"/api/v1/tournaments/{tid}/start/").status_code == 403
    started = as_alice.post(f"/api/v1/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["current_round"] == 1
    [round_one] = started.json()["pairings"]
    assert len(round_one["games"]) == 2 and all(g["status"] == "active" for g in round_one["games"])
    clients = {"alice": as_alice, "bob": as_bob, "carol": as_carol, "dave": as_dave}
    for game in round_one["games"]:
        with django_capture_on_commit_callbacks(execute=True):
            clients[game["second"]].post(f"/api/v1/matches/{game['match']}/resign/")
    detail = anon.get(f"/api/v1/tournaments/{tid}/").json()
    assert detail["current_round"] == 2 and len(detail["pairings"]) == 2
    winners = {g["first"] for g in round_one["games"]}
    assert {s["player"] for s in detail["standings"][:2]} == winners
    assert all(s["score"] == 1.0 for s in detail["standings"][:2])
    top = detail["standings"][0]
    assert set(top) >= {"rank", "buchholz", "sonneborn_berger", "wins", "draws", "losses", "byes"}
    row = detail["crosstable"][0]
    assert row["player"] == top["player"] and row["cells"].count(1.0) == 1 and row["cells"][0] is None
    second_round = {frozenset((g["first"], g["second"])) for g in detail["pairings"][1]["games"]}
    assert frozenset(winners) in second_round
    listed = anon.get("/api/v1/tournaments/?status=running").json()
    assert listed["count"] == 1 and listed["results"][0]["entrants"] == 4
    assert TournamentGame.objects.filter(round=2).count() == 2


def test_tournament_refusals(as_alice, as_bob, anon):
    assert anon.post("/api/v1/tournaments/", BODY, format="json").status_code == 401
    bad = as_alice.post("/api/v1/tournaments/", {**BODY, "rounds": None}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_tournament"
    assert as_alice.post("/api/v1/tournaments/", {**BODY, "kind": "knockout"}, format="json").status_code == 400
    assert as_alice.post("/api/v1/tournaments/", {**BODY, "game": "chess"}, format="json").json()["code"] \
        == "unknown_game"
    tid = as_alice.post("/api/v1/tournaments/", {**BODY, "kind": "round-robin", "rounds": None},
                        format="json").json()["id"]
    assert as_bob.post(f"/api/v1/tournaments/{tid}/leave/").json()["code"] == "not_entered"
    assert as_bob.post(f"/api/v1/tournaments/{tid}/join/").status_code == 201
    assert as_bob.post(f"/api/v1/tournaments/{tid}/leave/").status_code == 200
    assert as_alice.post(f"/api/v1/tournaments/{tid}/start/").json()["code"] == "too_few_entrants"
    assert anon.post(f"/api/v1/tournaments/{tid}/join/").status_code == 401
    assert anon.get("/api/v1/tournaments/999/").json()["code"] == "tournament_not_found"
    assert anon.get("/api/v1/tournaments/?status=later").json()["code"] == "invalid_filter"
