"""Chat, blocks, reports, suspensions and leaving over HTTP, for the roles the authorization
matrix does not have: the blocked player and the suspended one."""
from __future__ import annotations

import pytest
from django.urls import reverse

from community.services import moderation
from matches.models import Challenge, Match

from .helpers import snapshot, start_match
from .test_authorization_matrix import api_operations
from .test_throttles import _assert_throttled, rates  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

COMMUNITY = sorted(op for op in api_operations() if op[0].startswith(
    ("match-chat", "block-", "account-export", "account-delete", "report-", "staff-")))


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)


def _url(name: str, match_id: int) -> str:
    kwargs = {"pk": match_id} if "<id:pk>" in _route(name) else {"username": "alice"} if "username" in _route(name) \
        else {}
    return reverse(name, kwargs=kwargs)


def _route(name: str) -> str:
    from community.urls import urlpatterns as community
    from matches.urls import urlpatterns as api
    return next(str(p.pattern) for p in community + api if p.name == name)


@pytest.mark.parametrize("operation", COMMUNITY, ids=lambda op: f"{op[1]} {op[0]}")
def test_a_suspended_player_is_refused_everything_at_once(operation, as_alice, as_bob, bob, staff):
    match_id = start_match(as_alice, as_bob)
    bob.is_staff = True             # even staff rights do not survive a suspension
    bob.save()
    moderation.suspend(staff=staff, username="bob", reason="abuse")
    name, method = operation
    response = getattr(as_bob, method.lower())(_url(name, match_id), {"text": "hi", "reason": "x"}, format="json")
    assert response.status_code == 401, response.content
    assert as_bob.get("/api/v1/accounts/me/").status_code == 401


def test_suspension_logs_the_session_out_and_unsuspend_lets_back_in(client, bob, staff, as_bob):
    client.force_login(bob)
    assert client.get("/").wsgi_request.user.is_authenticated
    moderation.suspend(staff=staff, username="bob", reason="abuse", days=1)
    assert not client.get("/").wsgi_request.user.is_authenticated
    assert as_bob.get("/api/v1/accounts/me/").status_code == 401
    moderation.unsuspend(staff=staff, username="bob", reason="appeal")
    assert as_bob.get("/api/v1/accounts/me/").status_code == 200


def test_a_suspended_player_leaves_the_leaderboard_and_takes_no_challenge(as_alice, as_carol, bob, staff):
    moderation.suspend(staff=staff, username="bob", reason="abuse")
    response = as_carol.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "refused_by_player"
    assert not Challenge.objects.exists()
    assert as_alice.get("/api/v1/players/bob/").status_code == 404


def test_the_blocked_player_is_refused_and_hears_nothing_of_it(as_alice, as_bob, alice, bob):
    match_id = start_match(as_alice, as_bob)
    assert as_alice.post("/api/v1/accounts/me/blocks/", {"username": "bob"}, format="json").status_code == 201
    before = snapshot(match_id)
    response = as_bob.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["alice"]}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "refused_by_player"
    assert Challenge.objects.filter(created_by=bob).count() == 0 and snapshot(match_id) == before
    assert as_bob.post(f"/api/v1/matches/{match_id}/chat/", {"text": "hello?"}, format="json").status_code == 201
    assert as_alice.get(f"/api/v1/matches/{match_id}/chat/").json() == []
    assert not as_alice.get("/api/v1/events/").json()["results"] or all(
        e["kind"] != "chat_message" for e in as_alice.get("/api/v1/events/").json()["results"])
    assert as_bob.get("/api/v1/accounts/me/blocks/").json()["count"] == 0            # nothing tells bob
    assert [b["username"] for b in as_alice.get("/api/v1/accounts/me/blocks/").json()["results"]] == ["bob"]
    assert as_alice.delete("/api/v1/accounts/me/blocks/bob/").status_code == 204


def test_chat_is_text_with_its_move_and_spectators_talk_apart(as_alice, as_bob, as_carol):
    match_id = start_match(as_alice, as_bob)
    hostile = '<img src=x onerror="alert(1)">'
    posted = as_alice.post(f"/api/v1/matches/{match_id}/chat/", {"text": hostile}, format="json").json()
    assert posted["text"] == hostile and posted["ply"] == 0 and posted["author"] == "alice"
    assert as_carol.post(f"/api/v1/matches/{match_id}/chat/", {"text": "nice", "room": "spectators"},
                         format="json").status_code == 201
    seen = as_bob.get(f"/api/v1/matches/{match_id}/chat/?room=spectators")
    assert seen.status_code == 403 and seen.json()["code"] == "chat_closed"
    events = as_bob.get("/api/v1/events/").json()["results"]
    assert [e["payload"]["text"] for e in events if e["kind"] == "chat_message"] == [hostile]
    assert as_carol.get(f"/api/v1/matches/{match_id}/chat/?room=spectators&after=0").json()[0]["text"] == "nice"
    response = as_alice.post(f"/api/v1/matches/{match_id}/chat/", {"text": "x" * 501}, format="json")
    assert response.status_code == 400 and response.json()["detail"] == {"limit": 500}


def test_chat_is_rate_limited(as_alice, as_bob, rates):  # noqa: F811
    match_id = start_match(as_alice, as_bob)
    rates(chat="2/min")
    for _ in range(2):
        assert as_alice.post(f"/api/v1/matches/{match_id}/chat/", {"text": "hi"}, format="json").status_code == 201
    _assert_throttled(as_alice.post(f"/api/v1/matches/{match_id}/chat/", {"text": "hi"}, format="json"))


def test_staff_see_reports_with_context_and_the_audit_log(as_alice, as_bob, staff, client_for):
    match_id = start_match(as_alice, as_bob)
    said = as_bob.post(f"/api/v1/matches/{match_id}/chat/", {"text": "rude"}, format="json").json()
    assert as_alice.post("/api/v1/reports/", {"message": said["id"], "reason": "insult"},
                         format="json").status_code == 201
    as_staff = client_for(staff)
    queue = as_staff.get("/api/v1/staff/moderation/reports/").json()["results"]
    assert queue[0]["player"] == "bob" and queue[0]["context"][-1]["text"] == "rude"
    hide = as_staff.post(f"/api/v1/staff/moderation/messages/{said['id']}/hide/", {"reason": "insult"}, format="json")
    assert hide.json()["hidden"] and as_alice.get(f"/api/v1/matches/{match_id}/chat/").json()[0]["text"] == ""
    suspend = as_staff.post("/api/v1/staff/moderation/players/bob/suspend/", {"reason": "repeat", "days": 7},
                            format="json")
    assert suspend.status_code == 200 and suspend.json()["ends_at"]
    assert Match.objects.get(pk=match_id).status == Match.Status.ABORTED
    log = as_staff.get("/api/v1/staff/moderation/audit/").json()["results"]
    assert [(e["action"], e["actor"]) for e in log] == [("suspend", "erin"), ("message_hide", "erin")]
    # the log is read-only: no method writes to it
    assert as_staff.delete("/api/v1/staff/moderation/audit/").status_code == 405


def test_staff_dismiss_a_report_and_unhide_a_message(as_alice, as_bob, staff, client_for):
    match_id = start_match(as_alice, as_bob)
    said = as_bob.post(f"/api/v1/matches/{match_id}/chat/", {"text": "a fair point"}, format="json").json()
    report = as_alice.post("/api/v1/reports/", {"message": said["id"], "reason": "insult"}, format="json").json()
    as_staff = client_for(staff)
    base = "/api/v1/staff/moderation"
    assert as_staff.post(f"{base}/messages/{said['id']}/unhide/", {"reason": "x"},
                         format="json").json()["code"] == "message_not_hidden"
    as_staff.post(f"{base}/messages/{said['id']}/hide/", {"reason": "looked rude"}, format="json")
    shown = as_staff.post(f"{base}/messages/{said['id']}/unhide/", {"reason": "it was not"}, format="json")
    assert shown.status_code == 200 and not shown.json()["hidden"]
    assert as_alice.get(f"/api/v1/matches/{match_id}/chat/").json()[0]["text"] == "a fair point"
    dismissed = as_staff.post(f"{base}/reports/{report['id']}/dismiss/", {"reason": "not an insult"}, format="json")
    assert dismissed.status_code == 200 and dismissed.json()["status"] == "dismissed"
    again = as_staff.post(f"{base}/reports/{report['id']}/resolve/", {"reason": "x"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "report_closed"
    assert as_staff.get(f"{base}/reports/", {"status": "dismissed"}).json()["results"][0]["id"] == report["id"]
    log = as_staff.get(f"{base}/audit/").json()["results"]
    assert [e["action"] for e in log] == ["report_dismiss", "message_unhide", "message_hide"]


def test_leaving_exports_then_deletes(as_alice, alice, anon):
    export = as_alice.get("/api/v1/accounts/me/export/")
    assert export.status_code == 200 and export.json()["account"]["username"] == "alice"
    assert "attachment" in export["Content-Disposition"]
    wrong = as_alice.post("/api/v1/accounts/me/delete/", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "wrong_password"
    assert as_alice.post("/api/v1/accounts/me/delete/", {"password": "alice-secret-pw"},
                         format="json").status_code == 204
    assert as_alice.get("/api/v1/accounts/me/").status_code == 401
    again = anon.post("/api/v1/accounts/", {"username": "alice", "password": "a-long-enough-secret-9"},
                          format="json")
    assert again.status_code == 409 and again.json()["code"] == "username_held"


def test_every_response_sends_a_csp_without_inline_script(client, as_alice):
    for response in (client.get("/"), as_alice.get("/api/v1/games/")):
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_unknown_block_target_and_bad_report(as_alice):
    response = as_alice.post("/api/v1/accounts/me/blocks/", {"username": "nobody"}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "player_not_found"
    response = as_alice.post("/api/v1/reports/", {"reason": "x"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_report"


def test_a_suspended_player_gets_no_new_token_with_their_password(anon, bob, staff):
    moderation.suspend(staff=staff, username="bob", reason="abuse")
    refused = anon.post("/api/v1/auth/token/", {"username": "bob", "password": "bob-secret-pw"}, format="json")
    assert (refused.status_code, "token" in refused.json()) == (400, False), refused.json()
