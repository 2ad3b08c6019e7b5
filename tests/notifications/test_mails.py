"""The mails players thank you for: batched your-turn mails, escalating reminders, digests at the
player's local hour, one-click unsubscribe (RFC 8058); text and HTML, values escaped."""
from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from matches.models import Match
from notifications.models import Notification, Presence
from notifications.services import preferences
from tests.matches.helpers import play, start_match

from .helpers import tick, verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob_mailed(bob):
    """bob has a verified address and no mail of his own for challenges (they would crowd the outbox)."""
    verified(bob, "bob@example.org")
    preferences.preferences_update(user=bob, channels={"challenge_received": []})
    tick()
    mail.outbox.clear()
    return bob


def _html(message) -> str:
    return message.alternatives[0].content


def _later(**delta):
    return time_machine.travel(timezone.now() + timedelta(**delta), tick=True)


def test_one_your_turn_mail_lists_every_game_waiting_soonest_deadline_first(as_alice, as_bob, bob_mailed):
    slow = start_match(as_alice, as_bob, days_per_move=5)
    fast = start_match(as_alice, as_bob, days_per_move=1)
    play(as_alice, slow, "e1-e5", ply=0)
    play(as_alice, fast, "e1-e5", ply=0)
    tick()
    tick()
    (message,) = mail.outbox
    assert message.to == ["bob@example.org"] and message.subject == "Your move in 2 games"
    assert message.body.index(f"/matches/{fast}/") < message.body.index(f"/matches/{slow}/")
    assert f"http://testserver/matches/{fast}/" in _html(message)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/notifications/unsubscribe/")


def test_the_next_your_turn_mail_waits_for_the_window(as_alice, as_bob, bob_mailed, settings):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    assert len(mail.outbox) == 1
    play(as_bob, match_id, "a9-a8", ply=1)
    play(as_alice, match_id, "e5-e6", ply=2)
    tick()
    assert len(mail.outbox) == 1                                     # within the hour: waits
    with _later(minutes=settings.NOTIFY_YOUR_TURN_WINDOW_MINUTES - 5):
        tick()
        assert len(mail.outbox) == 1
    with _later(minutes=settings.NOTIFY_YOUR_TURN_WINDOW_MINUTES + 1):
        tick()
        assert len(mail.outbox) == 2


def test_no_your_turn_mail_while_the_player_was_on_the_site(as_alice, as_bob, bob_mailed, settings):
    settings.NOTIFY_ACTIVE_MINUTES = 10
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    Presence.objects.update_or_create(user=bob_mailed, defaults={"seen_at": timezone.now()})
    tick()
    assert mail.outbox == []
    assert Notification.objects.get(user=bob_mailed, kind="your_turn").status == "dropped"


def test_requests_record_presence(as_bob, bob):
    as_bob.get("/api/v1/matches/")
    assert Presence.objects.get(user=bob).seen_at > timezone.now() - timedelta(minutes=1)


def test_reminders_escalate_once_each_and_stop_when_the_player_moves(as_alice, as_bob, bob_mailed, settings):
    match_id = start_match(as_alice, as_bob, days_per_move=2)
    play(as_alice, match_id, "e1-e5", ply=0)
    preferences.preferences_update(user=bob_mailed, channels={"your_turn": []})
    deadline = Match.objects.get(pk=match_id).deadline
    sent = []
    for hours_left in (30, 23, 20, 3.5, 3, 0.5, 0.25):
        with time_machine.travel(deadline - timedelta(hours=hours_left)):
            tick()
            sent.append(len(mail.outbox))
    assert sent == [0, 1, 1, 2, 2, 3, 3]
    assert [m.subject for m in mail.outbox] == [
        "Your move: under 24 h left in Hasami Shogi", "Your move: under 4 h left in Hasami Shogi",
        "Your move: under 1 h left in Hasami Shogi"]


def test_a_reminder_is_dropped_once_the_player_moved(as_alice, as_bob, bob_mailed):
    match_id = start_match(as_alice, as_bob, days_per_move=1)
    play(as_alice, match_id, "e1-e5", ply=0)
    preferences.preferences_update(user=bob_mailed, channels={"your_turn": []})
    deadline = Match.objects.get(pk=match_id).deadline
    with time_machine.travel(deadline - timedelta(hours=3), tick=False):
        from notifications.services import scan

        scan.scan_events()
        assert scan.scan_reminders() == 1
        play(as_bob, match_id, "a9-a8", ply=1)                       # moves before the tick sends it
        tick()
    assert mail.outbox == []
    assert Notification.objects.get(kind="deadline_reminder").status == "dropped"


def test_a_digest_arrives_at_the_chosen_local_hour_with_the_right_games(as_alice, as_bob, bob_mailed, as_carol):
    tokyo = ZoneInfo("Asia/Tokyo")
    # The chosen hour begins one to two hours from now, whatever the time of day the test runs at
    # (a first digest covers the last day, so the finished match must stay within it).
    hour_start = (timezone.now().astimezone(tokyo) + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    preferences.preferences_update(user=bob_mailed, time_zone="Asia/Tokyo", digest="daily",
                                   digest_hour=hour_start.hour,
                                   channels={"your_turn": [], "challenge_received": ["digest"]})
    to_move = start_match(as_alice, as_bob, days_per_move=3)
    play(as_alice, to_move, "e1-e5", ply=0)
    waiting = start_match(as_bob, as_alice, opponents=["alice"], days_per_move=3)
    play(as_bob, waiting, "e1-e5", ply=0)
    finished = start_match(as_alice, as_bob, rated=True, days_per_move=3)
    as_alice.post(f"/api/v1/matches/{finished}/resign/")
    as_carol.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json")
    before = hour_start - timedelta(minutes=30)
    with time_machine.travel(before):
        tick()
        assert mail.outbox == []
    with time_machine.travel(hour_start + timedelta(minutes=15)):     # a quarter past the chosen hour
        tick()
        tick()
    (digest,) = mail.outbox
    assert digest.subject == "Your Pearlsite digest"
    move_part, rest = digest.body.split("WAITING FOR OTHERS")
    assert f"/matches/{to_move}/" in move_part and f"/matches/{waiting}/" in rest.split("RESULTS")[0]
    assert f"/matches/{finished}/" in rest and "won (rating 1500 → 1" in rest and "carol: hasami-shogi" in rest
    assert "JST" in move_part                                         # deadlines in the player's zone
    with time_machine.travel(hour_start + timedelta(minutes=20)):
        tick()
    assert len(mail.outbox) == 1                                      # once a day


def test_one_click_unsubscribe_works_without_signing_in(as_alice, as_bob, bob_mailed, client):
    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    header = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = header.removeprefix("http://testserver")
    assert client.get(path).status_code == 200                       # a confirmation page, nothing changed
    assert as_bob.get("/api/v1/accounts/me/notifications/").json()["channels"]["your_turn"] == ["email", "webhook"]
    response = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert as_bob.get("/api/v1/accounts/me/notifications/").json()["channels"]["your_turn"] == ["webhook"]
    assert client.post(path[:-5] + "xxxx/").status_code == 400


def test_values_are_escaped_in_html_mails(bob_mailed):
    from notifications.services.outbox import enqueue_now, release

    enqueue_now(user=bob_mailed, kind="webhook_disabled", key="x",
                payload={"webhook": 1, "url": "https://example.org/h", "reason": "<script>alert(1)</script>"})
    release()
    (message,) = mail.outbox
    assert "<script>" not in _html(message) and "&lt;script&gt;" in _html(message)
    assert "<script>alert(1)</script>" in message.body                # the text part is plain text


def test_preferences_through_the_api_and_their_errors(as_bob):
    url = "/api/v1/accounts/me/notifications/"
    current = as_bob.get(url).json()
    assert current["channels"]["deadline_reminder"] == ["email", "webhook"] and current["time_zone"] == "UTC"
    changed = as_bob.patch(url, {"time_zone": "Europe/Paris", "digest": "weekly", "digest_hour": 18,
                                 "channels": {"offer_made": []}}, format="json").json()
    assert (changed["time_zone"], changed["digest"], changed["digest_hour"]) == ("Europe/Paris", "weekly", 18)
    assert changed["channels"]["offer_made"] == []
    assert as_bob.get("/api/v1/accounts/me/").json()["settings"]["notification_digest"] == "weekly"
    bad = as_bob.patch(url, {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_time_zone"
    bad = as_bob.patch(url, {"channels": {"gossip": ["email"]}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_channels"
    assert as_bob.get(url).json()["time_zone"] == "Europe/Paris"


def test_the_settings_page_saves_preferences(bob, client):
    client.force_login(bob)
    page = client.get("/settings/notifications/")
    assert page.status_code == 200 and b"Your turn" in page.content
    form = {"time_zone": "America/New_York", "digest": "daily", "digest_hour": "9", "digest_weekday": "0",
            "your_turn__email": "on", "deadline_reminder__email": "on"}
    assert client.post("/settings/notifications/preferences/", form).status_code == 302
    from notifications.selectors.account import preferences_payload

    saved = preferences_payload(bob)
    assert saved["time_zone"] == "America/New_York" and saved["channels"]["match_finished"] == []
    assert saved["channels"]["your_turn"] == ["email"]


def test_a_player_gets_at_most_the_hourly_cap_of_mails(as_alice, bob, settings):
    settings.NOTIFY_MAILS_PER_HOUR = 2
    verified(bob, "bob@example.org")
    tick()
    mail.outbox.clear()
    for _ in range(4):
        as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["bob"]}, format="json")
    tick()
    assert len(mail.outbox) == 2
    assert Notification.objects.filter(kind="challenge_received", status="dropped").count() == 2


def test_old_finished_rows_are_forgotten(bob, settings):
    from notifications.services.outbox import enqueue, prune

    row = enqueue(user=bob, kind="digest", key="old", payload={}, due_at=timezone.now())
    Notification.objects.filter(pk=row.pk).update(status="sent")
    assert prune() == 0
    assert prune(timezone.now() + timedelta(days=settings.NOTIFY_KEEP_DAYS + 1)) == 1


def test_mails_are_written_in_the_recipients_saved_language(as_alice, as_bob, bob_mailed):
    preferences.preferences_update(user=bob_mailed, language="ja", time_zone="Asia/Tokyo")
    match_id = start_match(as_alice, as_bob, days_per_move=2)
    play(as_alice, match_id, "e1-e5", ply=0)
    tick()
    (message,) = mail.outbox
    assert message.subject == "あなたの番の対局が 1 局"
    assert message.body.startswith("bob さん、")
    assert "はさみ将棋 (対 alice)" in message.body and "JST" in message.body
    assert "時刻は Asia/Tokyo" in message.body and '<html lang="ja">' in _html(message)
    assert "このメールを止める" in _html(message)
