import pytest

import games
from games.record import parse_record, replay_record
from matches.models import Match

from .helpers import play, snapshot, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_id(as_alice, as_bob):
    return start_match(as_alice, as_bob)


def test_a_move_is_recorded_and_the_turn_passes(as_alice, as_bob, match_id):
    body = play(as_alice, match_id, "e1-e5", ply=0)
    assert body["ply"] == 1 and body["seat"] == 0 and body["move"] == "e1-e5"
    assert body["match"]["ply"] == 1 and body["match"]["to_move"] == 1
    bob_view = as_bob.get(f"/api/v1/matches/{match_id}/").json()
    assert "a9-a8" in bob_view["legal_moves"] and bob_view["viewer_seat"] == 1
    state = games.get_game("hasami-shogi").replay(moves=["e1-e5"])
    assert bob_view["state"] == state.view(1)
    play(as_bob, match_id, " A9-A8 ", ply=1)
    history = as_alice.get(f"/api/v1/matches/{match_id}/moves/").json()
    assert [(m["ply"], m["seat"], m["move"]) for m in history] == [(1, 0, "e1-e5"), (2, 1, "a9-a8")]


def test_spectators_see_the_position_without_moves(anon, as_carol, match_id):
    for client in (anon, as_carol):
        detail = client.get(f"/api/v1/matches/{match_id}/").json()
        assert detail["viewer_seat"] is None and detail["legal_moves"] == []
        assert "seed" not in detail and "seed" not in str(detail["state"]).lower()
    assert as_carol.get("/api/v1/matches/").json()["count"] == 1


@pytest.mark.parametrize("client_name,body,status,code", [
    ("as_alice", {"move": "e1-e9", "ply": 0}, 400, "illegal_move"),
    ("as_alice", {"move": "a9-a8", "ply": 0}, 400, "illegal_move"),
    ("as_alice", {"move": "z1-z9", "ply": 0}, 400, "invalid_move"),
    ("as_alice", {"move": "hello", "ply": 0}, 400, "invalid_move"),
    ("as_alice", {"move": "", "ply": 0}, 400, "validation_error"),
    ("as_alice", {"move": "e1-e5", "ply": 3}, 409, "stale_ply"),
    ("as_alice", {"move": "e1-e5", "ply": -1}, 400, "validation_error"),
    ("as_alice", {"ply": 0}, 400, "validation_error"),
    ("as_bob", {"move": "a9-a8", "ply": 0}, 403, "not_your_turn"),
    ("as_carol", {"move": "e1-e5", "ply": 0}, 403, "not_seated"),
])
def test_rejected_moves_change_nothing(request, match_id, client_name, body, status, code):
    before = snapshot(match_id)
    response = request.getfixturevalue(client_name).post(
        f"/api/v1/matches/{match_id}/moves/", body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code and response.json()["message"]
    assert snapshot(match_id) == before


def test_anonymous_and_unknown_match(anon, as_alice, match_id):
    assert anon.post(f"/api/v1/matches/{match_id}/moves/", {"move": "e1-e5"}, format="json").status_code == 401
    response = as_alice.post("/api/v1/matches/4242/moves/", {"move": "e1-e5"}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "match_not_found"
    assert as_alice.get("/api/v1/matches/4242/").status_code == 404


def test_a_win_finishes_the_match(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob, options={"capture_goal": 1})
    play(as_alice, match_id, "d1-d5", ply=0)
    play(as_bob, match_id, "e9-e5", ply=1)          # moving in between is safe (docs/rules/hasami.md §3.2)
    final = play(as_alice, match_id, "f1-f5", ply=2)["match"]   # e5 is sandwiched: capture 1 = goal
    assert final["status"] == "finished" and final["to_move"] is None
    assert final["result"]["winners"] == [0] and final["result"]["termination"] == "capture_goal"
    late = as_bob.post(f"/api/v1/matches/{match_id}/moves/", {"move": "a9-a8", "ply": 3}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "match_finished"
    assert as_bob.post(f"/api/v1/matches/{match_id}/resign/").status_code == 409


def test_export_replays_to_the_same_position(as_alice, as_bob, match_id):
    for ply, (client, move) in enumerate([(as_alice, "e1-e5"), (as_bob, "a9-a8"), (as_alice, "d1-d4")]):
        play(client, match_id, move, ply=ply)
    response = as_alice.get(f"/api/v1/matches/{match_id}/export/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    tags, moves = parse_record(response.content.decode())
    assert tags["Game"] == "hasami-shogi" and tags["Seat0"] == "alice" and moves == ["e1-e5", "a9-a8", "d1-d4"]
    assert "Seed" not in tags                       # while running: seeded randomness stays unpredictable
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    text = as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    match = Match.objects.get(pk=match_id)
    assert replay_record(text) == games.get_game("hasami-shogi").state_from_dict(match.state)


def test_board_pictures(as_alice, match_id):
    svg = as_alice.get(f"/api/v1/matches/{match_id}/board/")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.lstrip().startswith(b"<svg")
    text = as_alice.get(f"/api/v1/matches/{match_id}/board/?as=text").content.decode()
    assert "a b c d e f g h i" in text


def test_engine_replies_after_a_human_move(as_alice, django_capture_on_commit_callbacks):
    match_id = start_match(as_alice, opponents=["ai:random"])
    with django_capture_on_commit_callbacks(execute=True):
        play(as_alice, match_id, "e1-e5", ply=0)
    match = Match.objects.get(pk=match_id)
    assert match.ply == 2 and match.to_move == 0
    reply = match.moves.get(ply=2)
    assert reply.seat == 1
    state = games.get_game("hasami-shogi").replay(moves=["e1-e5", reply.notation])
    assert state.to_dict() == match.state


def test_engine_moving_first_and_engine_vs_engine(as_alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match_id = start_match(as_alice, opponents=["ai:easy"], seat=1)
    match = Match.objects.get(pk=match_id)
    assert match.ply == 1 and match.to_move == 1 and match.moves.get().seat == 0


def test_stale_engine_reply_is_dropped(as_alice, as_bob, match_id):
    from matches.services import play as play_service

    assert play_service.engine_move_apply(match_id=match_id, ply=0, notation="e1-e5") is None   # a human seat
    assert snapshot(match_id)[0] == 0


def test_a_failing_engine_falls_back_to_a_random_move(as_alice, monkeypatch, django_capture_on_commit_callbacks):
    from ai_workers.engines import Limit, jobs

    class Broken:
        default_limit = Limit(seconds=0.1)

        def search(self, *args, **kwargs):
            raise RuntimeError("engine crashed")

    real = jobs.get_engine
    monkeypatch.setattr(jobs, "get_engine", lambda slug, level: Broken() if level == "easy" else real(slug, level))
    match_id = start_match(as_alice, opponents=["ai:easy"])
    with django_capture_on_commit_callbacks(execute=True):
        play(as_alice, match_id, "e1-e5", ply=0)
    assert Match.objects.get(pk=match_id).ply == 2


def test_legal_moves_can_be_left_out_or_read_a_page_at_a_time(as_alice, as_bob, match_id):
    full = as_alice.get(f"/api/v1/matches/{match_id}/").json()["legal_moves"]
    assert len(full) == 63
    assert as_alice.get(f"/api/v1/matches/{match_id}/?legal=none").json()["legal_moves"] == []
    bad = as_alice.get(f"/api/v1/matches/{match_id}/?legal=some")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_filter"
    first = as_alice.get(f"/api/v1/matches/{match_id}/legal/").json()
    second = as_alice.get(f"/api/v1/matches/{match_id}/legal/?page=2").json()
    assert first["count"] == 63 and second["next"] is None
    assert [m["move"] for m in first["results"] + second["results"]] == full
    assert as_bob.get(f"/api/v1/matches/{match_id}/legal/").json()["count"] == 0   # not bob's turn
