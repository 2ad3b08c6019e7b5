"""Reporting from the pages (a player, a chat message, a match) and the staff pages (the queue with
its context, acting on reports, suspending, hiding, the audit log), through the Django test client.
Each staff action is one community service call and leaves one audit log row."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from community.models import AuditEntry, ChatMessage, Report, Suspension
from community.services import blocks, chat, moderation, reports
from tests.matches.test_throttles import rates  # noqa: F401  (fixture)
from tests.services import factories

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"


@pytest.fixture
def erin(django_user_model):
    return django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)


def _said(response) -> list[tuple[str, str]]:
    """The messages the request left for the next page. The tests post without following the
    redirect, so this reads them, and marks them shown by loading a page."""
    said = [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]
    response.client.get(reverse("web:games"))
    return said


def test_report_a_chat_message_from_the_match_page(client, alice, bob):
    match = factories.match(alice, bob)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="you are bad")
    client.force_login(alice)
    response = client.post(reverse("web:report-message", args=[match.pk]),
                           {"message": str(said.pk), "reason": "insulting"})
    assert response["Location"] == reverse("web:match", args=[match.pk])
    assert _said(response) == [("success", "Thank you: staff will look at your report.")]
    report = Report.objects.get()
    assert (report.message, report.player, report.match, report.reason) == (said, bob, match, "insulting")


def test_a_message_of_another_match_or_one_you_cannot_read_is_not_reported(client, alice, bob, carol):
    match, other = factories.match(alice, bob), factories.match(alice, carol)
    elsewhere = chat.chat_post(match_id=other.pk, user=carol, room="players", text="hi")
    watcher = chat.chat_post(match_id=match.pk, user=carol, room="spectators", text="bob is losing")
    client.force_login(alice)
    for message in (str(elsewhere.pk), str(watcher.pk), "abc", "99999999"):
        response = client.post(reverse("web:report-message", args=[match.pk]), {"message": message, "reason": "x"})
        assert [level for level, _ in _said(response)] == ["error"], message
    assert not Report.objects.exists()


def test_report_a_match_and_a_report_needs_a_reason(client, alice, bob, carol):
    match = factories.match(alice, bob)
    client.force_login(carol)
    empty = client.post(reverse("web:report-match", args=[match.pk]), {"reason": "   "})
    assert [level for level, _ in _said(empty)] == ["error"]
    assert not Report.objects.exists()
    client.post(reverse("web:report-match", args=[match.pk]), {"reason": "they are sandbagging"})
    assert Report.objects.get().match == match


def test_reports_from_the_pages_share_the_api_budget(client, alice, bob, rates):  # noqa: F811
    rates(report="2/hour")
    match = factories.match(alice, bob)
    client.force_login(alice)
    for _ in range(2):
        assert _said(client.post(reverse("web:report-match", args=[match.pk]), {"reason": "stalling"}))[0][0] == "success"
    third = client.post(reverse("web:report-player", args=["bob"]), {"reason": "rude"})
    assert [level for level, _ in _said(third)] == ["error"]
    assert "too many requests" in _said(third)[0][1]
    assert Report.objects.count() == 2
    from tests.conftest import _client_for
    assert _client_for(alice).post("/api/v1/reports/", {"player": "bob", "reason": "rude"}).status_code == 429


def test_deleting_through_the_page_is_throttled_like_a_log_in(client, alice, rates):  # noqa: F811
    rates(login="1/min")
    client.force_login(alice)
    first = client.post(reverse("web:delete-account"), {"password": "wrong"})
    assert "not this account" in _said(first)[0][1]
    second = client.post(reverse("web:delete-account"), {"password": "alice-secret-pw"})
    assert "too many requests" in _said(second)[0][1]
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice"


def test_the_player_page_blocks_and_unblocks_in_place(client, alice, bob):
    client.force_login(alice)
    page = reverse("web:player", args=["bob"])
    response = client.post(reverse("web:block"), {"username": "bob", "next": page})
    assert response["Location"] == page
    assert "Unblock bob" in client.get(page).content.decode()
    client.post(reverse("web:unblock", args=["bob"]), {"next": page})
    assert "Block bob" in client.get(page).content.decode()
    away = client.post(reverse("web:block"), {"username": "bob", "next": "https://evil.example/"})
    assert away["Location"] == reverse("web:privacy")


def test_the_queue_shows_the_reported_message_with_its_neighbours_the_match_and_the_position(
        client, alice, bob, erin):
    match = factories.match(alice, bob)
    sent = [chat.chat_post(match_id=match.pk, user=(alice, bob)[i % 2], room="players", text=f"line {i:02}")
            for i in range(30)]
    hostile = chat.chat_post(match_id=match.pk, user=bob, room="players", text=HOSTILE)
    moderation.message_hide(staff=erin, message_id=sent[14].pk, reason="spam")
    reports.report_create(reporter=alice, message=sent[15].pk, reason=f"rude {HOSTILE}")
    reports.report_create(reporter=alice, message=hostile.pk, reason="script")
    client.force_login(erin)
    html = client.get(reverse("web:staff-reports")).content.decode()
    shown = {i for i in range(30) if f"line {i:02}" in html}
    assert shown == set(range(5, 26)) | set(range(20, 30)), sorted(shown)    # 10 either side; the other's 10 before
    assert "line 14" in html and "hidden" in html            # staff read hidden text, marked hidden
    assert HOSTILE not in html and ESCAPED in html
    assert reverse("web:match", args=[match.pk]) in html
    assert "the message follows move 0" in html
    assert "The board after move 0" in html and "<svg" in html
    assert html.count('class="chat-line reported') == 2


def test_staff_act_on_reports_and_each_action_is_audited(client, alice, bob, erin):
    match = factories.match(alice, bob)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="spam spam")
    first = reports.report_create(reporter=alice, message=said.pk, reason="spam")
    second = reports.report_create(reporter=alice, player="bob", reason="name")
    client.force_login(erin)
    queue = reverse("web:staff-reports")
    missing = client.post(reverse("web:staff-report-resolve", args=[first.pk]), {"reason": ""})
    assert [level for level, _ in _said(missing)] == ["error"] and not AuditEntry.objects.exists()
    resolved = client.post(reverse("web:staff-report-resolve", args=[first.pk]), {"reason": "warned", "next": queue})
    assert resolved["Location"] == queue and _said(resolved) == [("success", f"Report {first.pk} resolved.")]
    _said(client.post(reverse("web:staff-report-dismiss", args=[second.pk]), {"reason": "the name is fine"}))
    again = client.post(reverse("web:staff-report-dismiss", args=[first.pk]), {"reason": "twice"})
    assert "resolved already" in _said(again)[0][1]
    assert dict(Report.objects.values_list("id", "status")) == {first.pk: "resolved", second.pk: "dismissed"}
    assert "No open reports." in client.get(queue).content.decode()
    assert f"Report {second.pk}" in client.get(queue, {"status": "dismissed"}).content.decode()

    client.post(reverse("web:staff-message-hide", args=[said.pk]), {"reason": "spam"})
    assert ChatMessage.objects.get().hidden_at is not None
    client.post(reverse("web:staff-message-unhide", args=[said.pk]), {"reason": "on appeal"})
    assert ChatMessage.objects.get().hidden_at is None

    log = [(e.actor_name, e.action, e.target, e.reason) for e in AuditEntry.objects.order_by("id")]
    assert log == [("erin", "report_resolve", f"report:{first.pk}", "warned"),
                   ("erin", "report_dismiss", f"report:{second.pk}", "the name is fine"),
                   ("erin", "message_hide", f"message:{said.pk}", "spam"),
                   ("erin", "message_unhide", f"message:{said.pk}", "on appeal")]
    audit = client.get(reverse("web:staff-audit")).content.decode()
    for _, action, target, reason in log:
        assert action in audit and target in audit and reason in audit


def test_staff_suspend_for_days_or_for_good_and_unsuspend(client, alice, bob, erin):
    match = factories.match(alice, bob)
    client.force_login(erin)
    page = reverse("web:staff-player", args=["bob"])
    assert "Not suspended." in client.get(page).content.decode()
    for bad in ({"length": "days", "days": "0", "reason": "x"}, {"length": "days", "days": "abc", "reason": "x"},
                {"length": "for_good", "reason": ""}):
        refused = client.post(reverse("web:staff-suspend", args=["bob"]), bad)
        assert [level for level, _ in _said(refused)] == ["error"], bad
    assert not Suspension.objects.exists() and not AuditEntry.objects.exists()

    done = client.post(reverse("web:staff-suspend", args=["bob"]), {"length": "days", "days": "3", "reason": "abuse"})
    assert done["Location"] == page and _said(done) == [("success", "bob is suspended for 3 days.")]
    suspension = Suspension.objects.get()
    assert abs(suspension.ends_at - (timezone.now() + timedelta(days=3))) < timedelta(minutes=1)
    bob.refresh_from_db()
    match.refresh_from_db()
    assert not bob.is_active and match.status == "aborted"
    html = client.get(page).content.decode()
    assert "Suspended since" in html and "Unsuspend" in html and "abuse" in html

    client.post(reverse("web:staff-unsuspend", args=["bob"]), {"reason": "appeal granted"})
    bob.refresh_from_db()
    assert bob.is_active
    client.post(reverse("web:staff-suspend", args=["bob"]), {"length": "for_good", "days": "3", "reason": "again"})
    assert Suspension.objects.get(lifted_at=None).ends_at is None
    assert [e.action for e in AuditEntry.objects.order_by("id")] == ["suspend", "unsuspend", "suspend"]
    assert client.get(reverse("web:staff-player", args=["nobody"])).status_code == 404


def test_staff_find_a_player_and_read_their_messages(client, alice, bob, erin):
    match = factories.match(alice, bob)
    chat.chat_post(match_id=match.pk, user=bob, room="players", text=HOSTILE)
    client.force_login(erin)
    found = client.get(reverse("web:staff-player-find"), {"username": "bob"})
    assert found["Location"] == reverse("web:staff-player", args=["bob"])
    html = client.get(found["Location"]).content.decode()
    assert ESCAPED in html and HOSTILE not in html
    assert reverse("web:staff-message-hide", args=[ChatMessage.objects.get().pk]) in html


def test_a_blocked_player_may_still_report_and_is_not_told(client, alice, bob):
    blocks.block_create(blocker=alice, username="bob")
    client.force_login(bob)
    html = client.get(reverse("web:player", args=["alice"])).content.decode()
    assert "Block alice" in html and "blocked" not in html.lower().replace("block alice", "")
    client.post(reverse("web:report-player", args=["alice"]), {"reason": "she blocked me unfairly"})
    assert Report.objects.get().player == alice


def test_the_spectators_room_shows_for_the_seats_once_the_match_is_over(client, alice, bob, carol):
    from matches.services import results

    match = factories.match(alice, bob)
    client.force_login(alice)
    assert 'id="chat-spectators"' not in client.get(reverse("web:match", args=[match.pk])).content.decode()
    results.match_resign(match_id=match.pk, user=bob)
    assert 'id="chat-spectators"' in client.get(reverse("web:match", args=[match.pk])).content.decode()
    client.force_login(carol)
    assert 'id="chat-spectators"' not in client.get(reverse("web:match", args=[match.pk])).content.decode()


def test_the_staff_pages_and_the_chat_speak_japanese(client, alice, bob, erin):
    match = factories.match(alice, bob)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="you are bad")
    reports.report_create(reporter=alice, message=said.pk, reason="insulting")
    client.force_login(alice)
    page = client.get(reverse("web:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-hidden-text="(スタッフが非表示にしました)"' in page and 'data-after-move="__ply__ 手目のあと"' in page
    assert "対局者のチャット" in page and "この対局を通報" in page and "Report this match" not in page
    client.force_login(erin)
    queue = client.get(reverse("web:staff-reports"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<h1>通報 <span class=\"muted\">(未対応)</span></h1>" in queue and "監査ログ" in queue
    assert "初手の前, 対局者の部屋, <a href=\"/matches/" in queue and "Resolve" not in queue
    response = client.post(reverse("web:staff-suspend", args=["bob"]),
                           {"length": "days", "days": "3", "reason": "abuse"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert _said(response) == [("success", "bob を 3 日間停止しました。")]
    english = client.get(reverse("web:staff-player", args=["bob"])).content.decode()
    assert "Moderating bob" in english and "Suspended since" in english
