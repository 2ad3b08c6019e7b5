"""Every page through Django's test client: status codes, anonymous redirects, CSRF, and the
writes going through the same services as the API (one source of truth)."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches.models import Challenge, Match
from matches.services.accounts import token_for_credentials

pytestmark = pytest.mark.django_db


def _start_engine_match(client, game="hasami-shogi", **fields) -> int:
    response = client.post("/challenges/", {"game": game, "opponent": "engine", "level": "random", **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    return int(re.fullmatch(r"/matches/(\d+)/", response["Location"]).group(1))


def _legal_moves(html: str) -> list[str]:
    found = re.search(r'<script id="legal-moves" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1)) if found else []


# --- accounts --------------------------------------------------------------------------------
def test_anonymous_visitors_are_sent_to_log_in(client):
    for path in ("/", "/challenges/"):
        response = client.get(path) if path == "/" else client.post(path, {})
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/", "/games/"])
def test_public_pages(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert b'<main id="main"' in response.content and b"Skip to content" in response.content


def test_signup_uses_the_accounts_service_and_logs_in(client):
    response = client.post("/accounts/signup/", {"username": "erin", "password": "long-enough-pw",
                                                  "password_again": "long-enough-pw"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200
    # The same account, the same password: the API hands out a token.
    assert token_for_credentials(username="erin", password="long-enough-pw")


@pytest.mark.parametrize("fields,message", [
    ({"username": "erin", "password": "long-enough-pw", "password_again": "other-pw-here"}, "differ"),
    ({"username": "alice", "password": "long-enough-pw", "password_again": "long-enough-pw"}, "taken"),
    ({"username": "erin", "password": "password", "password_again": "password"}, "too common"),
    ({"username": "er:in", "password": "long-enough-pw", "password_again": "long-enough-pw"}, "Enter a valid username"),
])
def test_signup_refusals_are_shown_on_the_form(client, alice, fields, message):
    response = client.post("/accounts/signup/", fields)
    assert response.status_code == 400 and message in response.content.decode()


def test_log_in_and_out(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "alice-secret-pw"})
    assert response.status_code == 302 and client.get("/").status_code == 200
    assert client.get("/accounts/logout/").status_code == 405          # log out is a POST
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_forms_need_the_csrf_token(alice):
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/accounts/signup/", {"username": "erin", "password": "long-enough-pw",
                                             "password_again": "long-enough-pw"}).status_code == 403
    strict.force_login(alice)
    assert strict.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine"}).status_code == 403
    assert not Challenge.objects.exists()
    page = strict.get("/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    response = strict.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random",
                                            "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Challenge.objects.count() == 1


# --- the lobby and challenges ----------------------------------------------------------------
def test_the_lobby_offers_every_game_with_its_options(login, alice):
    html = login(alice).get("/").content.decode()
    assert 'name="option-hasami-shogi-capture_goal"' in html
    assert 'name="option-new-eleusis-rule"' in html and 'value="ai:' not in html
    assert '<option value="strong">' in html


def test_my_games_list_my_turn_first(login, alice, bob):
    client = login(alice)
    waiting = _start_engine_match(client, "pearl-war", **{"option-pearl-war-first": "white"})
    mine = _start_engine_match(client)
    response = client.post("/challenges/", {"game": "hasami-shogi", "opponent": "person", "usernames": "bob"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert html.index(f"/matches/{mine}/") < html.index(f"/matches/{waiting}/")
    assert "Your turn" in html and "by alice: alice, bob (invited)" in html


def test_challenge_with_options_and_a_person_then_accept(login, alice, bob, client_for):
    client = login(alice)
    response = client.post("/challenges/", {
        "game": "hasami-shogi", "variant": "tenbin", "opponent": "person", "usernames": "bob",
        "option-hasami-shogi-capture_goal": "3", "rated": "on", "days_per_move": "3"})
    assert response.status_code == 302 and response["Location"] == "/"
    challenge = Challenge.objects.get()
    assert challenge.options["capture_goal"] == 3 and challenge.variant == "tenbin" and challenge.rated
    bob_client = Client()
    bob_client.force_login(bob)
    assert "Accept" in bob_client.get("/").content.decode()
    assert bob_client.post(f"/challenges/{challenge.pk}/accept/").status_code == 302
    match = Match.objects.get()
    assert match.time_control == {"kind": "per_move", "days": 3} and match.deadline is not None
    assert f"/matches/{match.pk}/" in bob_client.get("/").content.decode()


@pytest.mark.parametrize("fields,message", [
    ({"option-hasami-shogi-capture_goal": "99"}, "capture_goal"),
    ({"opponent": "person", "usernames": "nobody"}, "no player named"),
    ({"opponent": "person", "usernames": ""}, "Name 1 player"),
    ({"level": "grandmaster"}, "Select a valid choice"),
    ({"rated": "on"}, "rated matches are between"),
])
def test_refused_challenges_change_nothing(login, alice, fields, message):
    response = login(alice).post("/challenges/", {"game": "hasami-shogi", "opponent": "engine",
                                                  "level": "random", **fields})
    assert response.status_code == 400 and message in response.content.decode()
    assert not Challenge.objects.exists()


def test_withdraw_and_decline(login, alice, bob):
    client = login(alice)
    client.post("/challenges/", {"game": "mak-yek", "opponent": "person", "usernames": "bob"})
    first = Challenge.objects.get()
    assert client.post(f"/challenges/{first.pk}/cancel/").status_code == 302
    first.refresh_from_db()
    assert first.status == "cancelled"
    response = client.post(f"/challenges/{first.pk}/cancel/", follow=True)
    assert "the challenge is cancelled" in response.content.decode()


def test_open_seats_can_be_taken(login, alice, bob):
    login(alice).post("/challenges/", {"game": "pearl-five", "opponent": "open"})
    bob_client = Client()
    bob_client.force_login(bob)
    html = bob_client.get("/").content.decode()
    assert "Take a seat" in html
    challenge = Challenge.objects.get()
    bob_client.post(f"/challenges/{challenge.pk}/accept/")
    assert Match.objects.filter(seats__user=bob).exists()


# --- the match page ----------------------------------------------------------------------------
def test_play_a_move_through_the_form(login, alice, django_capture_on_commit_callbacks):
    client = login(alice)
    pk = _start_engine_match(client)
    html = client.get(f"/matches/{pk}/").content.decode()
    assert 'data-cell="e1"' in html and "Your turn" in html
    moves = _legal_moves(html)
    assert "e1-e5" in moves
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/matches/{pk}/move/", {"choice": "e1-e5", "ply": "0"})
    assert response.status_code == 302 and response["Location"] == f"/matches/{pk}/"
    match = Match.objects.get(pk=pk)
    assert match.ply == 2                       # the engine replied in-process
    html = client.get(f"/matches/{pk}/").content.decode()
    assert "e1-e5" in html and "Played e1-e5." in html


def test_a_refused_move_answers_the_script_with_its_code(login, alice):
    client = login(alice)
    pk = _start_engine_match(client)
    response = client.post(f"/matches/{pk}/move/", {"move": "a1-a9", "ply": "0"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["code"] == "illegal_move"
    response = client.post(f"/matches/{pk}/move/", {"move": "e1-e5", "ply": "7"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 409 and response.json()["code"] == "stale_ply"
    assert Match.objects.get(pk=pk).ply == 0
    ok = client.post(f"/matches/{pk}/move/", {"pick": "e1-e5", "choice": "a1-a2"}, HTTP_ACCEPT="application/json")
    assert ok.json() == {"ok": True, "message": "Played e1-e5.", "redirect": f"/matches/{pk}/"}


def test_spectators_and_strangers(client, login, alice, carol):
    pk = _start_engine_match(login(alice))
    client.logout()
    html = client.get(f"/matches/{pk}/").content.decode()
    assert "You are watching" in html and 'id="move-form"' not in html and "<svg" in html
    response = client.post(f"/matches/{pk}/move/", {"move": "e1-e5"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    carol_client = Client()
    carol_client.force_login(carol)
    response = carol_client.post(f"/matches/{pk}/resign/", HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json()["code"] == "not_seated"
    assert Match.objects.get(pk=pk).status == "active"


def test_resign_shows_the_result(login, alice):
    client = login(alice)
    pk = _start_engine_match(client)
    assert client.get(f"/matches/{pk}/resign/").status_code == 405
    response = client.post(f"/matches/{pk}/resign/", follow=True)
    html = response.content.decode()
    assert "You resigned." in html and "engine (random) won (resignation)" in html
    assert Match.objects.get(pk=pk).status == "finished"


def test_abort_draw_and_takeback_between_people(login, alice, bob):
    client = login(alice)
    client.post("/challenges/", {"game": "hasami-shogi", "opponent": "person", "usernames": "bob"})
    bob_client = Client()
    bob_client.force_login(bob)
    bob_client.post(f"/challenges/{Challenge.objects.get().pk}/accept/")
    pk = Match.objects.get().pk
    assert "Abort" in client.get(f"/matches/{pk}/").content.decode()
    client.post(f"/matches/{pk}/move/", {"move": "e1-e5"})
    client.post(f"/matches/{pk}/draw/", {"action": "offer"})
    html = bob_client.get(f"/matches/{pk}/").content.decode()
    assert "alice offers a draw." in html and "Accept draw" in html
    bob_client.post(f"/matches/{pk}/draw/", {"action": "accept"})
    match = Match.objects.get(pk=pk)
    assert match.status == "finished" and match.result["termination"] == "agreement"
    assert "Draw (agreement)" in client.get(f"/matches/{pk}/").content.decode()


def test_the_live_endpoint_answers_changes_only(login, alice, django_capture_on_commit_callbacks):
    client = login(alice)
    pk = _start_engine_match(client)
    first = client.get(f"/matches/{pk}/live/").json()
    assert first["changed"] and set(first["regions"]) == {"status", "board", "moves", "play", "analysis"}
    assert client.get(f"/matches/{pk}/live/?version={first['version']}").json() == {
        "changed": False, "version": first["version"]}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{pk}/move/", {"move": "e1-e5"})
    after = client.get(f"/matches/{pk}/live/?version={first['version']}&wait=1").json()
    assert after["changed"] and after["ply"] == 2 and "e1-e5" in after["regions"]["moves"]
    assert after["legal_moves"]
    assert client.get("/matches/999999/live/").status_code == 404


def test_analysis_of_a_finished_match_draws_the_chart(login, alice, django_capture_on_commit_callbacks):
    client = login(alice)
    pk = _start_engine_match(client)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{pk}/move/", {"move": "e1-e5"})
    second = _legal_moves(client.get(f"/matches/{pk}/").content.decode())[0]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{pk}/move/", {"move": second, "ply": "2"})
    assert Match.objects.get(pk=pk).ply == 4
    assert "Request analysis" not in client.get(f"/matches/{pk}/").content.decode()
    client.post(f"/matches/{pk}/resign/")
    assert "Request analysis" in client.get(f"/matches/{pk}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{pk}/analysis/", {"level": "easy"})
    html = client.get(f"/matches/{pk}/").content.decode()
    assert 'class="chart"' in html and html.count("<circle") >= 4 and "Evaluation by ply" in html


def test_not_found_pages_are_html_and_api_errors_stay_json(client, login, alice):
    for path in ("/matches/999999/", f"/matches/{10**30}/", "/players/nobody/", "/games/chess/leaderboard/", "/nowhere/"):
        response = client.get(path)
        assert response.status_code == 404 and b"<h1>Not found</h1>" in response.content, path
    assert client.get("/api/v1/nowhere/").json()["code"] == "not_found"
    assert login(alice).post(f"/matches/{10**30}/resign/").status_code == 404


def test_player_games_and_ratings_pages(client, login, alice):
    _start_engine_match(login(alice))
    html = client.get("/players/alice/").content.decode()
    assert "Hasami Shogi #" in html and "No rated games yet." in html
    assert client.get("/games/hasami-shogi/leaderboard/").status_code == 200


def test_option_fields_take_the_catalogues_values_and_leave_a_variant_standing(login, alice):
    client = login(alice)
    # Every field at the game's default (as a page without script sends them): the variant stands.
    defaults = {"option-hasami-shogi-tenbin": "false", "option-hasami-shogi-directions": "4",
                "option-hasami-shogi-capture_goal": "5", "option-hasami-shogi-hashi_otoshi": "true"}
    client.post("/challenges/", {"game": "hasami-shogi", "variant": "tenbin", "opponent": "engine",
                                 "level": "random", **defaults})
    options = Challenge.objects.get().options
    assert options["tenbin"] is True and options["directions"] == 8 and options["capture_goal"] == "all_but_one"
    assert options["hashi_otoshi"] is True
    client.post("/challenges/", {"game": "glaisher", "opponent": "engine", "level": "random",
                                 "option-glaisher-repetition": "0", "option-glaisher-reserve": "unlimited"})
    options = Challenge.objects.filter(game="glaisher").get().options
    assert options["repetition"] == 0 and options["reserve"] == "unlimited"


def test_the_lobby_says_that_declining_a_ladder_challenge_forfeits(login, alice, bob):
    from matches.services import ladders
    ladder = ladders.ladder_create(name="Club", game="hasami-shogi", created_by=alice)
    for user in (alice, bob):                 # alice #1, bob #2
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    ladders.ladder_challenge(ladder_id=ladder.pk, user=bob, opponent="alice")
    assert "Decline (forfeit)" in login(alice).get("/").content.decode()
    login(bob).post("/challenges/", {"game": "hasami-shogi", "opponent": "person", "usernames": "alice"})
    html = login(alice).get("/").content.decode()
    assert html.count("Decline (forfeit)") == 1 and html.count(">Decline</button>") == 1


def test_the_match_page_offers_only_what_the_services_take(login, alice, bob, django_capture_on_commit_callbacks):
    """The buttons follow the match detail's capabilities: no takeback asked of an engine, no
    abort of a ladder game, no draw in New Eleusis."""
    from matches.models import Ladder
    from matches.services import challenges, ladders
    from tests.services.factories import UserFactory

    client = login(alice)
    pk = _start_engine_match(client)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{pk}/move/", {"move": "e1-e5"})
    html = client.get(f"/matches/{pk}/").content.decode()
    assert "Offer a draw" in html and "Resign" in html and "Ask to take back" not in html
    refused = client.post(f"/matches/{pk}/takeback/", {"action": "offer"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["code"] == "takeback_against_engine"

    ladder = Ladder.objects.create(name="rungs", game="hasami-shogi", options={})
    for user in (alice, bob):
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    pending = ladders.ladder_challenge(ladder_id=ladder.pk, user=bob, opponent="alice")
    rung = challenges.challenge_accept(challenge_id=pending.pk, user=alice).match
    html = client.get(f"/matches/{rung.pk}/").content.decode()
    assert "Resign" in html and ">Abort<" not in html

    others = [UserFactory(username=name) for name in ("cid", "dee")]
    circle = challenges.challenge_create(creator=alice, game="new-eleusis", opponents=["bob", "cid", "dee"])
    for user in (bob, *others):
        circle = challenges.challenge_accept(challenge_id=circle.pk, user=user)
    html = client.get(f"/matches/{circle.match.pk}/").content.decode()
    assert ">Abort<" in html and "Offer a draw" not in html and "Ask to take back" not in html
