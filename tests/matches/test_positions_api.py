"""The analysis board through the API (docs/analysis.md, "The analysis board"): lines replayed
and checked by the rules, multi-PV answers from the worker, the cache, quotas, the sweep, and
the live-game rule (no position of a match the requester plays in, compared as game states)."""
import pytest

import games
from matches.models import EngineJob, Event, Match, PositionAnalysis

from .helpers import play, start_match

pytestmark = pytest.mark.django_db
URL = "/api/v1/positions/"


def _ask(client, capture, expect=202, run=True, **body):
    body = {"game": "hasami-shogi", "level": "easy", "lines": 3, **body}
    if "match" in body:
        body.pop("game")
    if run:
        with capture(execute=True):
            response = client.post(URL, body, format="json")
    else:
        response = client.post(URL, body, format="json")
    assert response.status_code == expect, response.json()
    return response.json()


def _rows() -> tuple:
    return PositionAnalysis.objects.count(), EngineJob.objects.count()


def test_a_line_from_the_start_gets_its_best_moves(as_alice, django_capture_on_commit_callbacks):
    asked = _ask(as_alice, django_capture_on_commit_callbacks, moves=["e1-e5"])
    assert asked["status"] == "queued" and asked["seat"] == 1 and asked["ply"] == 1
    done = as_alice.get(f"{URL}{asked['id']}/").json()
    assert done["status"] == "done" and len(done["lines"]) == 3
    position = games.get_game("hasami-shogi").new_state().play("e1-e5")
    legal = set(position.legal_notations())
    moves = [line["move"] for line in done["lines"]]
    assert len(set(moves)) == 3 and set(moves) <= legal
    values = [line["value"] for line in done["lines"]]
    assert values == sorted(values, reverse=True) and done["value"] == values[0]
    assert all(line["pv"][0] == line["move"] and -1 <= line["value"] <= 1 for line in done["lines"])
    job = EngineJob.objects.get(position_id=asked["id"])
    assert job.kind == "position" and job.lane == "analysis-user" and job.status == "done"
    assert job.match_id is None and job.user.username == "alice"
    events = as_alice.get("/api/v1/events/").json()["results"]
    assert [e["payload"] for e in events if e["kind"] == "position_done"] == [
        {"position": asked["id"], "status": "done"}]


def test_positions_are_cached_by_state_level_lines_and_time(as_alice, as_carol,
                                                            django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    first = _ask(as_alice, capture, moves=["e1-e5", "a9-a8"])
    again = _ask(as_carol, capture, expect=200, moves=["e1-e5", "a9-a8"])
    assert again["id"] == first["id"] and again["status"] == "done"
    shorter = _ask(as_carol, capture, expect=200, moves=["e1-e5", "a9-a8"], seconds=0.005)
    assert shorter["id"] == first["id"]
    other_count = _ask(as_alice, capture, moves=["e1-e5", "a9-a8"], lines=2)
    other_level = _ask(as_alice, capture, moves=["e1-e5", "a9-a8"], level="medium")
    assert len({first["id"], other_count["id"], other_level["id"]}) == 3
    assert other_count["lines"] == [] and len(as_alice.get(f"{URL}{other_count['id']}/").json()["lines"]) == 2
    assert first["seconds"] == pytest.approx(0.25 * 0.05)      # the level's budget, as served (scaled)


def test_a_finished_match_at_a_ply_and_moves_since(as_alice, as_bob, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    early = as_alice.post(URL, {"match": match_id, "ply": 1}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "match_in_progress"
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    asked = _ask(as_alice, capture, match=match_id, ply=1, moves=["b9-b8"])
    assert asked["ply"] == 2 and asked["seat"] == 0
    done = as_alice.get(f"{URL}{asked['id']}/").json()
    state = games.get_game("hasami-shogi").new_state().play("e1-e5").play("b9-b8")
    assert PositionAnalysis.objects.get(pk=asked["id"]).state == state.to_dict()
    assert {line["move"] for line in done["lines"]} <= set(state.legal_notations())
    # the end of the match by default
    at_end = _ask(as_alice, capture, match=match_id)
    assert at_end["ply"] == 2 and at_end["seat"] == 0 and at_end["id"] != asked["id"]


def test_bad_requests_are_refused_and_change_nothing(as_alice, as_bob, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    before = _rows()
    cases = [
        ({"match": match_id, "ply": 2}, 400, "invalid_ply"),
        ({"match": 999999}, 404, "match_not_found"),
        ({"moves": ["e1-e5", "e5-e1"]}, 400, "illegal_move"),
        ({"moves": ["zz"]}, 400, "invalid_move"),
        ({"level": "random"}, 400, "unknown_level"),
        ({"level": "strong", "seconds": 5.0}, 400, "invalid_budget"),
        ({"lines": 6}, 400, "validation_error"),
        ({"lines": 0}, 400, "validation_error"),
        ({"game": "new-eleusis", "players": 4}, 422, "board_unavailable"),
        ({"game": "no-such-game"}, 400, "unknown_game"),
        ({"options": {"nope": 1}}, 400, "invalid_options"),
        ({"match": match_id, "options": {}}, 400, "validation_error"),
        ({"ply": 1}, 400, "invalid_ply"),
        ({"match": match_id, "variant": "tenbin"}, 400, "invalid_options"),
    ]
    for body, status, code in cases:
        body = {"game": "hasami-shogi", "level": "easy", **body}
        if "match" in body and "options" not in body:
            body.pop("game")
        with capture(execute=True):
            response = as_alice.post(URL, body, format="json")
        assert (response.status_code, response.json()["code"]) == (status, code), body
    assert _rows() == before
    assert as_alice.get(f"{URL}12345/").json()["code"] == "position_not_found"


def test_a_line_that_ends_the_game_and_an_overlong_line_are_refused(as_alice, settings,
                                                                   django_capture_on_commit_callbacks):
    settings.BOARD_MAX_MOVES = 2
    response = as_alice.post(URL, {"game": "hasami-shogi", "moves": ["e1-e5", "a9-a8", "e5-e4"]}, format="json")
    assert response.status_code == 413 and response.json()["detail"] == {"limit": 2}
    settings.BOARD_MAX_MOVES = 600
    yard = games.get_game("pearl-yard").new_state()
    moves, state = [], yard
    while not state.is_terminal:        # Police's quickest forced win (docs/engines.md §1.2)
        move = next(m for m in state.legal_notations() if state.play(m).is_terminal) \
            if any(state.play(m).is_terminal for m in state.legal_notations()) else state.legal_notations()[0]
        moves.append(move)
        state = state.play(move)
    over = as_alice.post(URL, {"game": "pearl-yard", "moves": moves}, format="json")
    assert over.status_code == 409 and over.json()["code"] == "game_over"
    assert _rows() == (0, 0)


def test_quota_and_throttle_as_for_analyses(as_alice, settings, django_capture_on_commit_callbacks):
    settings.MAX_PENDING_ANALYSES = 2
    _ask(as_alice, django_capture_on_commit_callbacks, run=False, moves=["e1-e5"])
    _ask(as_alice, django_capture_on_commit_callbacks, run=False, moves=["e1-e4"])
    before = _rows()
    refused = as_alice.post(URL, {"game": "hasami-shogi", "level": "easy", "moves": ["e1-e3"]}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_analyses"
    assert refused.json()["detail"] == {"limit": 2, "pending": 2}
    assert _rows() == before
    # asking again for a position under way is no new work: it is answered, not counted
    _ask(as_alice, django_capture_on_commit_callbacks, expect=200, run=False, moves=["e1-e5"])


def test_the_sweep_sends_a_job_whose_send_was_lost(as_alice, django_capture_on_commit_callbacks):
    from matches.services import jobs

    asked = _ask(as_alice, django_capture_on_commit_callbacks, run=False, moves=["e1-e5"])
    job = EngineJob.objects.get(position_id=asked["id"])
    assert job.status == "queued"                       # nothing was sent (no commit callbacks ran)
    assert jobs.sweep()["sent"] == 1
    assert as_alice.get(f"{URL}{asked['id']}/").json()["status"] == "done"


def test_a_job_out_of_attempts_fails_and_says_so(as_alice, settings, django_capture_on_commit_callbacks):
    from matches.services import jobs

    asked = _ask(as_alice, django_capture_on_commit_callbacks, run=False, moves=["e1-e5"])
    job = EngineJob.objects.get(position_id=asked["id"])
    EngineJob.objects.filter(pk=job.pk).update(attempts=settings.ENGINE_MAX_ATTEMPTS, status="running")
    jobs.job_error(job_id=job.pk, error="boom")
    failed = as_alice.get(f"{URL}{asked['id']}/").json()
    assert failed["status"] == "failed" and failed["error"]
    assert Event.objects.filter(kind="position_done", payload={"position": asked["id"], "status": "failed"}).count() == 1
    # a failed row is no cache: asking again starts over
    again = _ask(as_alice, django_capture_on_commit_callbacks, moves=["e1-e5"])
    assert again["id"] != asked["id"]


# -- no engine help in a live game ------------------------------------------------------------

def test_the_current_position_of_your_live_match_is_refused(as_alice, as_bob, as_carol, anon,
                                                            django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    live = start_match(as_alice, as_bob)
    play(as_alice, live, "e1-e5", ply=0)
    play(as_bob, live, "a9-a8", ply=1)
    before = _rows()
    for client in (as_alice, as_bob):            # both seats, whoever is to move
        refused = client.post(URL, {"game": "hasami-shogi", "moves": ["e1-e5", "a9-a8"]}, format="json")
        assert refused.status_code == 409 and refused.json()["code"] == "live_game_position"
        assert refused.json()["detail"] == {"match": live}
    assert _rows() == before
    # somebody who does not play in it may ask
    watched = _ask(as_carol, capture, moves=["e1-e5", "a9-a8"])
    assert watched["status"] == "queued"
    # ... but its seats may not read that answer, while others may
    assert as_alice.get(f"{URL}{watched['id']}/").json()["code"] == "live_game_position"
    assert as_carol.get(f"{URL}{watched['id']}/").json()["status"] == "done"
    assert anon.get(f"{URL}{watched['id']}/").json()["status"] == "done"
    # nor have it as a cached answer
    cached = as_bob.post(URL, {"game": "hasami-shogi", "level": "easy", "lines": 3,
                               "moves": ["e1-e5", "a9-a8"]}, format="json")
    assert cached.status_code == 409 and cached.json()["code"] == "live_game_position"


def test_any_position_on_the_line_counts(as_alice, as_bob, django_capture_on_commit_callbacks):
    live = start_match(as_alice, as_bob)
    play(as_alice, live, "e1-e5", ply=0)
    # the live position is the line's second: refused, though the line goes on past it
    response = as_alice.post(URL, {"game": "hasami-shogi", "moves": ["e1-e5", "a9-a8", "d1-d4"]}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "live_game_position"
    # a line that never passes through it is fine
    _ask(as_alice, django_capture_on_commit_callbacks, moves=["e1-e4", "a9-a8"])


def test_positions_are_compared_as_states_not_as_move_text(as_alice, as_bob, django_capture_on_commit_callbacks):
    live = start_match(as_alice, as_bob)
    play(as_alice, live, "e1-e5", ply=0)
    play(as_bob, live, "a9-a8", ply=1)
    play(as_alice, live, "d1-d5", ply=2)
    # the same position by another move order ...
    transposed = ["d1-d5", "a9-a8", "e1-e5"]
    # ... and by a detour: four plies later the same men on the same points, the same side to move
    detour = ["e1-e4", "a9-a7", "d1-d5", "a7-a8", "e4-e5"]
    rules = games.get_game("hasami-shogi")
    live_state = rules.state_from_dict(Match.objects.get(pk=live).state)
    for moves in (transposed, detour):
        reached = rules.replay(moves=moves)
        assert (reached.black, reached.white, reached.to_move) == (live_state.black, live_state.white, live_state.to_move)
        response = as_bob.post(URL, {"game": "hasami-shogi", "moves": moves}, format="json")
        assert response.status_code == 409 and response.json()["code"] == "live_game_position", moves


def test_a_finished_match_s_line_through_a_live_position_is_refused(as_alice, as_bob,
                                                                     django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    finished = start_match(as_alice, as_bob)
    play(as_alice, finished, "e1-e5", ply=0)
    play(as_bob, finished, "a9-a8", ply=1)
    as_alice.post(f"/api/v1/matches/{finished}/resign/")
    live = start_match(as_alice, as_bob)
    play(as_alice, live, "e1-e5", ply=0)
    response = as_bob.post(URL, {"match": finished, "ply": 1}, format="json")
    assert response.status_code == 409 and response.json()["detail"] == {"match": live}
    # moves since the live position lead on to a position that is not live: still on the line
    response = as_bob.post(URL, {"match": finished, "ply": 1, "moves": ["a9-a7"]}, format="json")
    assert response.status_code == 409
    # the finished match's end is no live position
    _ask(as_bob, capture, match=finished)
    # and once the live match is over, its positions are open too
    as_alice.post(f"/api/v1/matches/{live}/resign/")
    _ask(as_bob, capture, match=finished, ply=1)


def test_out_of_range_and_junk_values_are_clear_errors(as_alice):
    cases = [{"match": 2**63}, {"match": 2**63 - 1}, {"ply": 2**70, "match": 1}, {"seconds": "NaN"},
             {"moves": "e1-e5"}, {"moves": [1, 2]}, {"moves": ["e1-e5\x00"]}, {"options": [1]},
             {"players": 99}, {"variant": "nope"}, {"level": "x" * 40}]
    for body in cases:
        body = {"game": "hasami-shogi", **body} if "match" not in body else body
        response = as_alice.post(URL, body, format="json")
        assert response.status_code in (400, 404, 422), (body, response.status_code)
        assert response.json()["code"], body
    assert _rows() == (0, 0)
