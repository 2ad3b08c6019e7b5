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
    assert as_alice.post("/api/v1/ladders/99/join/").json()["code"] == "ladder_not_found"
    created = as_alice.post("/api/v1/ladders/", {"name": "x", "game": "hasami-shogi"}, format="json")
    assert created.status_code == 403 and created.json()["code"] == "staff_only"


def test_staff_create_ladders(as_alice, alice):
    alice.is_staff = True
    alice.save()
    ok = as_alice.post("/api/v1/ladders/", {"name": "Tenbin", "game": "hasami-shogi", "variant": "tenbin"}, format="json")
    assert ok.status_code == 201 and ok.json()["options"]["tenbin"] is True
    dup = as_alice.post("/api/v1/ladders/", {"name": "Tenbin", "game": "hasami-shogi"}, format="json")
    assert dup.status_code == 409
    bad = as_alice.post("/api/v1/ladders/", {"name": "B", "game": "hasami-shogi", "options": {"x": 1}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_options"
