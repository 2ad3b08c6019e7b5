import pytest

from matches.models import Challenge, Event, Match

from .helpers import start_match

pytestmark = pytest.mark.django_db


def test_challenge_a_person_who_accepts(as_alice, as_bob):
    created = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["status"] == "open" and body["match"] is None
    assert [s["player"] for s in body["seats"]] == ["alice", "bob"]
    assert Event.objects.filter(user__username="bob", kind="challenge_received").exists()
    accepted = as_bob.post(f"/api/v1/challenges/{body['id']}/accept/").json()
    assert accepted["status"] == "started" and accepted["match"]
    match = Match.objects.get(pk=accepted["match"])
    assert [s.player_name for s in match.seats.all()] == ["alice", "bob"]
    assert match.to_move == 0 and match.ply == 0 and match.status == "active"


def test_variant_and_options_are_normalised(as_alice, as_bob):
    body = as_alice.post("/api/v1/challenges/", {
        "game": "hasami-shogi", "variant": "tenbin", "options": {"capture_goal": 3},
        "opponents": ["bob"]}, format="json").json()
    assert body["options"]["tenbin"] is True and body["options"]["capture_goal"] == 3


def test_challenger_may_take_the_second_seat(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob, seat=1)
    detail = as_alice.get(f"/api/v1/matches/{match_id}/").json()
    assert [s["player"] for s in detail["seats"]] == ["bob", "alice"]
    assert detail["viewer_seat"] == 1 and detail["legal_moves"] == []


def test_open_seat_taken_by_anyone(as_alice, as_carol):
    body = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": [None]}, format="json").json()
    listed = as_carol.get("/api/v1/challenges/?open=1").json()["results"]
    assert [c["id"] for c in listed] == [body["id"]]
    taken = as_carol.post(f"/api/v1/challenges/{body['id']}/accept/").json()
    assert taken["match"] and taken["seats"][1]["player"] == "carol"
    again = as_carol.post(f"/api/v1/challenges/{body['id']}/accept/")
    assert again.status_code == 409 and again.json()["code"] == "challenge_closed"


def test_engine_challenge_starts_at_once(as_alice):
    body = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"]},
                         format="json").json()
    assert body["status"] == "started" and body["match"]
    assert body["seats"][1] == {"seat": 1, "player": "ai:random", "accepted": True}


def test_decline_and_cancel(as_alice, as_bob, as_carol):
    first = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json").json()
    stranger = as_carol.post(f"/api/v1/challenges/{first['id']}/decline/")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_invited"
    assert as_bob.post(f"/api/v1/challenges/{first['id']}/decline/").json()["status"] == "declined"
    second = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json").json()
    refused = as_bob.post(f"/api/v1/challenges/{second['id']}/cancel/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_challenger"
    assert as_alice.post(f"/api/v1/challenges/{second['id']}/cancel/").json()["status"] == "cancelled"
    late = as_bob.post(f"/api/v1/challenges/{second['id']}/accept/")
    assert late.status_code == 409
    assert not Match.objects.exists()


def test_uninvited_player_cannot_accept(as_alice, as_bob, as_carol):
    body = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json").json()
    response = as_carol.post(f"/api/v1/challenges/{body['id']}/accept/")
    assert response.status_code == 403 and response.json()["code"] == "not_invited"
    assert as_alice.post(f"/api/v1/challenges/{body['id']}/accept/").json()["code"] == "already_accepted"


@pytest.mark.parametrize("body,status,code", [
    ({"game": "chess", "opponents": ["bob"]}, 400, "unknown_game"),
    ({"game": "hasami-shogi", "opponents": ["bob"], "options": {"capture_goal": 99}}, 400, "invalid_options"),
    ({"game": "hasami-shogi", "opponents": ["bob"], "options": {"colour": "red"}}, 400, "invalid_options"),
    ({"game": "hasami-shogi", "opponents": ["bob"], "variant": "giant"}, 400, "invalid_options"),
    ({"game": "hasami-shogi", "opponents": ["zed"]}, 400, "unknown_player"),
    ({"game": "hasami-shogi", "opponents": ["alice"]}, 400, "invalid_opponent"),
    ({"game": "hasami-shogi", "opponents": ["ai:godlike"]}, 400, "unknown_level"),
    ({"game": "hasami-shogi", "opponents": ["bob", "ai:easy"]}, 400, "invalid_options"),
    ({"game": "hasami-shogi", "opponents": []}, 400, "invalid_options"),
    ({"game": "hasami-shogi", "opponents": ["ai:easy"], "rated": True}, 400, "rated_needs_people"),
    ({"game": "hasami-shogi", "opponents": ["bob"], "seat": 5}, 400, "invalid_seat"),
    ({"game": "hasami-shogi", "opponents": "bob"}, 400, "validation_error"),
    ({"opponents": ["bob"]}, 400, "validation_error"),
])
def test_bad_challenges_are_refused_and_leave_nothing(as_alice, bob, body, status, code):
    response = as_alice.post("/api/v1/challenges/", body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert not Challenge.objects.exists() and not Match.objects.exists()


def test_unknown_challenge_is_404(as_alice):
    response = as_alice.post("/api/v1/challenges/999/accept/")
    assert response.status_code == 404 and response.json()["code"] == "challenge_not_found"


@pytest.mark.parametrize("options,option", [
    ({"capture_goal": "5"}, "capture_goal"), ({"tenbin": 1}, "tenbin"), ({"lead_rule": True}, "lead_rule"),
    ({"repetition": 1}, "repetition"), ({"bogus": 1}, "bogus")])
def test_options_of_the_wrong_type_are_refused_naming_the_option(as_alice, options, option):
    response = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "options": options,
                                                     "opponents": ["ai:random"]}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_options" and body["detail"] == {"option": option}
    assert option in body["message"]
    assert not Challenge.objects.exists() and not Match.objects.exists()


def test_an_unknown_variant_is_refused_naming_it(as_alice):
    response = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "variant": "chess",
                                                     "opponents": ["ai:random"]}, format="json")
    assert response.status_code == 400 and response.json()["detail"] == {"variant": "chess"}


def test_variants_are_named_one_way_everywhere(as_alice, as_bob):
    """The closest named variant, "standard" for the defaults, in the challenge, the match, the
    export and the events; an alias names its variant."""
    plain = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json").json()
    assert plain["variant"] == "standard"
    assert Event.objects.get(user__username="bob", kind="challenge_received").payload["variant"] == "standard"
    accepted = as_bob.post(f"/api/v1/challenges/{plain['id']}/accept/").json()
    match_id = accepted["match"]
    assert as_alice.get(f"/api/v1/matches/{match_id}/").json()["variant"] == "standard"
    assert as_alice.get("/api/v1/matches/").json()["results"][0]["variant"] == "standard"
    assert '[Variant "standard"]' in as_alice.get(f"/api/v1/matches/{match_id}/export/").content.decode()
    assert Event.objects.get(user__username="alice", kind="match_started").payload["variant"] == "standard"
    tweaked = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "variant": "tenbin",
                                                    "options": {"capture_goal": 6}, "opponents": ["ai:random"]},
                            format="json").json()
    assert tweaked["variant"] == "tenbin"
    rugby = as_alice.post("/api/v1/challenges/", {"game": "ring-rugby", "variant": "advanced",
                                                  "opponents": ["ai:random"]}, format="json").json()
    assert rugby["variant"] == "standard"
    assert '[Variant "standard"]' in as_alice.get(f"/api/v1/matches/{rugby['match']}/export/").content.decode()
