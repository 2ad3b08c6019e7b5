import pytest

from matches.services import ladders
from matches.models import LadderEntry, Match

from .helpers import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder():
    return ladders.ladder_create(name="Hasami open", game="hasami-shogi", challenge_reach=2)


def _standings(client, ladder):
    return [(row["rank"], row["player"]) for row in client.get(f"/api/v1/ladders/{ladder.pk}/").json()["standings"]]


def _join(*clients, ladder):
    for client in clients:
        assert client.post(f"/api/v1/ladders/{ladder.pk}/join/").status_code == 201


def test_join_at_the_bottom(as_alice, as_bob, ladder):
    _join(as_alice, as_bob, ladder=ladder)
    assert _standings(as_alice, ladder) == [(1, "alice"), (2, "bob")]
    again = as_bob.post(f"/api/v1/ladders/{ladder.pk}/join/")
    assert again.status_code == 409 and again.json()["code"] == "already_joined"
    assert as_bob.get("/api/v1/ladders/").json()["results"][0]["players"] == 2


def test_beating_a_player_above_takes_their_rank(as_alice, as_bob, as_carol, client_for, dave, ladder):
    as_dave = client_for(dave)
    _join(as_alice, as_bob, as_carol, as_dave, ladder=ladder)
    far = as_dave.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "alice"}, format="json")
    assert far.status_code == 400 and far.json()["code"] == "out_of_reach"
    down = as_alice.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "bob"}, format="json")
    assert down.json()["code"] == "out_of_reach"
    challenge = as_dave.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "bob"}, format="json").json()
    assert challenge["rated"] is True and challenge["ladder"] == ladder.pk
    dup = as_dave.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "bob"}, format="json")
    assert dup.status_code == 409 and dup.json()["code"] == "ladder_game_pending"
    match_id = as_bob.post(f"/api/v1/challenges/{challenge['id']}/accept/").json()["match"]
    play(as_dave, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    assert _standings(as_alice, ladder) == [(1, "alice"), (2, "dave"), (3, "bob"), (4, "carol")]
    assert LadderEntry.objects.get(user=dave).wins == 1 and LadderEntry.objects.get(user__username="bob").losses == 1


def test_a_defender_who_wins_keeps_the_rank(as_alice, as_bob, ladder):
    _join(as_alice, as_bob, ladder=ladder)
    challenge = as_bob.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "alice"}, format="json").json()
    match_id = as_alice.post(f"/api/v1/challenges/{challenge['id']}/accept/").json()["match"]
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    assert Match.objects.get(pk=match_id).ladder_id == ladder.pk
    assert _standings(as_alice, ladder) == [(1, "alice"), (2, "bob")]


def test_ladder_errors(as_alice, as_bob, ladder):
    response = as_alice.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "bob"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "not_on_ladder"
    assert as_alice.post(f"/api/v1/ladders/{ladder.pk + 1000}/join/").json()["code"] == "ladder_not_found"
    assert as_alice.get(f"/api/v1/ladders/{ladder.pk + 1000}/history/").json()["code"] == "ladder_not_found"


def test_anyone_opens_a_ladder(as_alice, anon):
    ok = as_alice.post("/api/v1/ladders/", {"name": "Tenbin", "game": "hasami-shogi", "variant": "tenbin",
                                            "days_per_move": 2, "challenge_reach": 4, "answer_days": 3},
                       format="json")
    assert ok.status_code == 201, ok.json()
    body = ok.json()
    assert body["options"]["tenbin"] is True and body["created_by"] == "alice"
    assert (body["days_per_move"], body["challenge_reach"], body["answer_days"]) == (2, 4, 3)
    assert anon.post("/api/v1/ladders/", {"name": "A", "game": "hasami-shogi"}, format="json").status_code == 401
    short = as_alice.post("/api/v1/ladders/", {"name": "S", "game": "hasami-shogi", "answer_days": 0}, format="json")
    assert short.status_code == 400 and short.json()["code"] == "validation_error"
    many = as_alice.post("/api/v1/ladders/", {"name": "E", "game": "new-eleusis"}, format="json")
    assert many.status_code == 400 and many.json()["code"] == "not_two_player"
    dup = as_alice.post("/api/v1/ladders/", {"name": "Tenbin", "game": "hasami-shogi"}, format="json")
    assert dup.status_code == 409
    bad = as_alice.post("/api/v1/ladders/", {"name": "B", "game": "hasami-shogi", "options": {"x": 1}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_options"


def test_the_history_lists_joins_and_results(as_alice, as_bob, anon, ladder):
    _join(as_alice, as_bob, ladder=ladder)
    challenge = as_bob.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": "alice"}, format="json").json()
    match_id = as_alice.post(f"/api/v1/challenges/{challenge['id']}/accept/").json()["match"]
    as_alice.post(f"/api/v1/matches/{match_id}/resign/")          # before moving: a forfeit, not a game
    history = anon.get(f"/api/v1/ladders/{ladder.pk}/history/").json()
    assert history["count"] == 3
    newest = history["results"][0]
    assert newest["kind"] == "forfeited" and newest["forfeited_by"] == "alice" and newest["match"] == match_id
    assert (newest["challenger"], newest["challenger_rank"], newest["defender_rank"]) == ("bob", 1, 2)
    assert [e["kind"] for e in history["results"][1:]] == ["joined", "joined"]
    assert _standings(anon, ladder) == [(1, "bob"), (2, "alice")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_ladder_challenges_one_wins_the_other_is_409(client_for, alice, bob, carol):
    """Two requests at once from one challenger (to two players, and to one): one 201, one 409."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    for round_, targets in enumerate((["alice", "bob"], ["bob", "bob"])):
        ladder = ladders.ladder_create(name=f"Race {round_}", game="hasami-shogi")
        for user in (alice, bob, carol):
            ladders.ladder_join(ladder_id=ladder.pk, user=user)
        barrier, codes = threading.Barrier(2), []

        def challenge(opponent):
            client = client_for(carol)
            barrier.wait()
            try:
                codes.append(client.post(f"/api/v1/ladders/{ladder.pk}/challenges/", {"opponent": opponent},
                                         format="json").status_code)
            finally:
                connection.close()

        threads = [threading.Thread(target=challenge, args=(t,)) for t in targets]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(codes) == [201, 409]
        assert ladder.challenges.count() == 1
