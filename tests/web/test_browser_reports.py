"""In a real browser, under the Content-Security-Policy: a seat reports a hostile chat message from
the match page's chat, then staff find it in the queue and hide it; the staff pages report no
policy violation and run no injected script."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from community.models import AuditEntry, Report
from community.services import chat
from tests.services import factories
from tests.web.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = '<img src=x onerror="window.__owned=1">rude words'


@pytest.fixture
def erin(django_user_model):
    return django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)


def test_report_a_message_then_staff_hide_it(new_page, alice, bob, erin):
    match = factories.match(alice, bob)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text=HOSTILE)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{match.pk}/")
    line = page.locator("#chat-log li").first
    expect(line).to_contain_text(HOSTILE)
    line.get_by_text("Report", exact=True).click()
    line.get_by_label("What is wrong with this message?").fill("insults")
    line.get_by_role("button", name="Send report").click()
    expect(page.get_by_text("Thank you: staff will look at your report.")).to_be_visible()
    report = Report.objects.get()
    assert (report.message_id, report.reason) == (said.pk, "insults")

    staff, violations = new_page(), []
    staff.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    log_in(staff, erin)
    staff.get_by_role("link", name="Moderation").click()
    card = staff.locator("section.report").first
    expect(card).to_contain_text("insults")
    reported = card.locator("li.reported")
    expect(reported).to_contain_text(HOSTILE)
    reported.get_by_label("Reason").fill("insults")
    reported.get_by_role("button", name="Hide").click()
    expect(staff.get_by_text(f"Message {said.pk} is hidden.")).to_be_visible()
    card = staff.locator("section.report").first
    card.get_by_label("Reason").nth(-2).fill("warned bob")
    card.get_by_role("button", name="Resolve").click()
    expect(staff.get_by_text(f"Report {report.pk} resolved.")).to_be_visible()
    for path in ("/staff/moderation/?status=resolved", "/staff/moderation/audit/", "/staff/moderation/players/bob/"):
        response = staff.goto(path)
        assert "script-src 'self'" in response.headers["content-security-policy"], path
    assert [e.action for e in AuditEntry.objects.order_by("id")] == ["message_hide", "report_resolve"]
    assert staff.evaluate("window.__owned === undefined") and page.evaluate("window.__owned === undefined")
    assert not violations, violations

    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#chat-log li").first).to_contain_text("(hidden by staff)")
    expect(page.locator("#chat-log li").first.get_by_text("Report", exact=True)).to_have_count(0)


def test_once_the_match_is_over_the_seats_read_the_spectators_room(new_page, alice, bob, carol):
    from matches.services import results

    match = factories.match(alice, bob)
    chat.chat_post(match_id=match.pk, user=carol, room="spectators", text=HOSTILE)
    chat.chat_post(match_id=match.pk, user=bob, room="players", text="good luck")
    results.match_resign(match_id=match.pk, user=bob)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/matches/{match.pk}/")
    players, spectators = page.locator("#chat"), page.locator("#chat-spectators")
    expect(players.locator("li")).to_contain_text(["good luck"])
    expect(spectators.locator("li")).to_contain_text([HOSTILE])
    expect(spectators.locator("form.chat-form")).to_have_count(0)       # read only for the seats
    line = spectators.locator("li").first
    line.get_by_text("Report", exact=True).click()
    line.get_by_label("What is wrong with this message?").fill("mocking")
    line.get_by_role("button", name="Send report").click()
    expect(page.get_by_text("Thank you: staff will look at your report.")).to_be_visible()
    assert Report.objects.get().player == carol
    assert page.evaluate("window.__owned === undefined")
