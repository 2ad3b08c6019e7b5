"""Reports, suspensions, hiding, the audit log, export and account deletion (community/)."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from community.models import AuditEntry, ChatMessage, Suspension
from community.selectors.export import account_export
from community.selectors.moderation import report_payload
from community.services import chat, leaving, moderation, reports
from matches.models import ApiToken, Challenge, Match, Profile
from matches.services import accounts

from .factories import UserFactory, challenge, match, refusal_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return UserFactory(username="sam", is_staff=True)


def test_a_report_of_a_message_carries_its_context(users, staff):
    ann, ben, cid = users
    game = match(ann, ben)
    chat.chat_post(match_id=game.pk, user=ann, room="players", text="hello")
    rude = chat.chat_post(match_id=game.pk, user=ben, room="players", text="rude words")
    report = reports.report_create(reporter=ann, message=rude.pk, reason="insults")
    payload = report_payload(report)
    assert payload["player"] == "ben" and payload["match"]["id"] == game.pk
    assert [m["text"] for m in payload["context"]] == ["hello", "rude words"]
    # a message you cannot read cannot be reported (it does not exist for you)
    assert refusal_code(lambda: reports.report_create(reporter=cid, message=rude.pk, reason="x")) == "message_not_found"
    assert refusal_code(lambda: reports.report_create(reporter=ann, reason="x", player="ben", match=game.pk)) \
        == "invalid_report"


def test_suspension_ends_play_and_is_audited(users, staff):
    ann, ben, cid = users
    game = match(ann, ben, rated=True)
    mine = challenge(ben, [cid])
    theirs = challenge(cid, [ben])
    moderation.suspend(staff=staff, username="ben", reason="abuse", days=3)
    ben.refresh_from_db()
    assert not ben.is_active
    game.refresh_from_db()
    assert game.status == Match.Status.ABORTED and not game.rating_changes.exists()
    assert Challenge.objects.get(pk=mine.pk).status == Challenge.Status.CANCELLED
    assert Challenge.objects.get(pk=theirs.pk).status == Challenge.Status.DECLINED
    assert refusal_code(lambda: challenge(cid, [ben])) == "refused_by_player"
    assert refusal_code(lambda: moderation.suspend(staff=staff, username="ben", reason="again")) == "already_suspended"
    entry = AuditEntry.objects.get(action="suspend")
    assert (entry.actor_name, entry.target, entry.reason) == ("sam", f"user:{ben.pk}", "abuse")
    assert entry.detail["voided"] == [game.pk]


def test_expired_suspensions_are_lifted_by_the_sweep(users, staff):
    _, ben, _ = users
    moderation.suspend(staff=staff, username="ben", reason="cool off", days=1)
    assert moderation.suspensions_lift_expired() == []
    with time_machine.travel(timezone.now() + timedelta(days=1, seconds=1)):
        assert len(moderation.suspensions_lift_expired()) == 1
    ben.refresh_from_db()
    assert ben.is_active and Suspension.objects.get().lifted_at is not None
    assert AuditEntry.objects.filter(action="unsuspend", actor=None).count() == 1


def test_unsuspend_and_for_good(users, staff):
    moderation.suspend(staff=staff, username="ben", reason="spam")
    assert Suspension.objects.get().ends_at is None
    assert moderation.suspensions_lift_expired() == []
    moderation.unsuspend(staff=staff, username="ben", reason="appeal accepted")
    assert refusal_code(lambda: moderation.unsuspend(staff=staff, username="ben", reason="x")) == "not_suspended"
    assert refusal_code(lambda: moderation.suspend(staff=staff, username="ben", reason=" ")) == "reason_required"


def test_hidden_message_keeps_its_place_without_text(users, staff):
    ann, ben, _ = users
    game = match(ann, ben)
    message = chat.chat_post(match_id=game.pk, user=ben, room="players", text="spam link")
    moderation.message_hide(staff=staff, message_id=message.pk, reason="spam")
    from community.selectors.chat import chat_messages, message_payload
    shown = [message_payload(m) for m in chat_messages(match_id=game.pk, user=ann, room="players")]
    assert shown[0]["hidden"] and shown[0]["text"] == ""
    assert AuditEntry.objects.filter(action="message_hide", target=f"message:{message.pk}").exists()


def test_export_holds_the_account_and_nothing_hidden(users):
    ann, ben, _ = users
    Profile.objects.create(user=ann, display_name="Ann", bio="<script>x</script>")
    game = match(ann, ben)
    chat.chat_post(match_id=game.pk, user=ann, room="players", text="hi")
    accounts.token_create(user=ann)
    data = account_export(ann)
    assert data["account"]["username"] == "ann" and data["profile"]["bio"] == "<script>x</script>"
    assert data["matches"][0]["id"] == game.pk and "seed" not in data["matches"][0]
    assert "state" not in data["matches"][0]
    assert data["chat"][0]["text"] == "hi"
    assert len(data["tokens"]) == 1 and "digest" not in data["tokens"][0]


def test_deleting_an_account_erases_personal_data_and_keeps_matches(users):
    ann, ben, _ = users
    ann.email = "ann@example.org"
    ann.save()
    Profile.objects.create(user=ann, display_name="Ann", bio="about me")
    game = match(ann, ben)
    chat.chat_post(match_id=game.pk, user=ann, room="players", text="my words")
    ApiToken.objects.create(user=ann, prefix="abcdefgh", digest="0" * 64)
    assert refusal_code(lambda: leaving.account_delete(user=ann, password="wrong")) == "wrong_password"
    assert ApiToken.objects.filter(user=ann).exists()
    leaving.account_delete(user=ann, password="a-long-enough-secret")
    ann.refresh_from_db()
    assert ann.username == f"deleted-{ann.pk}" and ann.email == "" and not ann.is_active
    assert not ann.has_usable_password()
    assert not Profile.objects.filter(user=ann).exists() and not ApiToken.objects.filter(user=ann).exists()
    assert ChatMessage.objects.get().text == "deleted"
    game.refresh_from_db()
    assert game.status == Match.Status.FINISHED and game.seats.filter(user=ann).exists()   # ann resigned
    assert refusal_code(lambda: accounts.account_register(username="ANN", password="another-long-secret-1")) \
        == "username_held"
    assert refusal_code(lambda: accounts.account_register(username="Deleted-99", password="another-long-secret-1")) \
        == "invalid_username"


def test_a_suspended_player_leaves_ladders_and_forfeits_later_tournament_rounds(users, staff):
    from django.db.models import Q

    from matches.models import Ladder, TournamentGame
    from matches.services import ladders, results, tournaments

    ann, ben, cid = users
    ladder = Ladder.objects.create(name="the ladder", game="hasami-shogi", options={})
    for user in (ann, ben, cid):
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    cup = tournaments.tournament_create(creator=ann, name="cup", game="hasami-shogi", kind="round-robin",
                                        max_entrants=4)
    dan = UserFactory(username="dan")
    for user in (ann, ben, cid, dan):
        tournaments.tournament_join(tournament_id=cup.pk, user=user)
    tournaments.tournament_start(tournament_id=cup.pk, user=ann)
    moderation.suspend(staff=staff, username="ben", reason="abuse", days=5)
    assert list(ladder.entries.order_by("rank").values_list("user__username", "rank")) == [("ann", 1), ("cid", 2)]
    first_round = TournamentGame.objects.filter(tournament=cup, round=1)
    voided = first_round.filter(Q(first=ben) | Q(second=ben)).get()
    assert voided.match.status == Match.Status.ABORTED
    assert voided.first_score == (0.0 if voided.first_id == ben.pk else 1.0)      # the one present wins
    for game in first_round.exclude(pk=voided.pk):                                 # the others finish
        results.match_resign(match_id=game.match_id, user=game.second)
    assert tournaments.tournament_advance(tournament_id=cup.pk)
    with_ben = TournamentGame.objects.filter(tournament=cup, round=2).filter(Q(first=ben) | Q(second=ben)).get()
    assert with_ben.match is None and with_ben.first_score == (0.0 if with_ben.first_id == ben.pk else 1.0)
    others = TournamentGame.objects.filter(tournament=cup, round=2).exclude(pk=with_ben.pk).get()
    assert others.match.status == Match.Status.ACTIVE


def test_nobody_edits_the_audit_log_in_the_admin(rf, staff):
    from django.contrib.admin.sites import site

    from community.admin import AuditEntryAdmin

    request = rf.get("/admin/")
    request.user = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin = AuditEntryAdmin(AuditEntry, site)
    assert not admin.has_add_permission(request)
    assert not admin.has_change_permission(request) and not admin.has_delete_permission(request)


def test_unhide_shows_a_message_again_and_is_audited(users, staff):
    ann, ben, _ = users
    game = match(ann, ben)
    message = chat.chat_post(match_id=game.pk, user=ben, room="players", text="a fair point")
    assert refusal_code(lambda: moderation.message_unhide(staff=staff, message_id=message.pk, reason="x")) \
        == "message_not_hidden"
    moderation.message_hide(staff=staff, message_id=message.pk, reason="looked like spam")
    assert refusal_code(lambda: moderation.message_unhide(staff=staff, message_id=message.pk, reason=" ")) \
        == "reason_required"
    moderation.message_unhide(staff=staff, message_id=message.pk, reason="it was not")
    message.refresh_from_db()
    assert message.hidden_at is None
    assert [(e.action, e.reason) for e in AuditEntry.objects.order_by("id")] == [
        ("message_hide", "looked like spam"), ("message_unhide", "it was not")]


def test_a_report_is_resolved_or_dismissed_once(users, staff):
    ann, _, _ = users
    first = reports.report_create(reporter=ann, player="ben", reason="rude")
    second = reports.report_create(reporter=ann, player="ben", reason="rude again")
    assert refusal_code(lambda: reports.report_dismiss(staff=staff, report_id=first.pk, note="")) == "reason_required"
    assert reports.report_dismiss(staff=staff, report_id=first.pk, note="nothing rude").status == "dismissed"
    assert reports.report_resolve(staff=staff, report_id=second.pk, note="warned").status == "resolved"
    for close in (reports.report_dismiss, reports.report_resolve):
        for report in (first, second):
            assert refusal_code(lambda close=close, report=report: close(staff=staff, report_id=report.pk,
                                                                         note="again")) == "report_closed"
    assert [e.action for e in AuditEntry.objects.order_by("id")] == ["report_dismiss", "report_resolve"]


def test_a_reported_message_comes_with_its_neighbours_either_side(users, staff):
    ann, ben, _ = users
    game = match(ann, ben)
    sent = [chat.chat_post(match_id=game.pk, user=ann, room="players", text=str(i)) for i in range(25)]
    report = reports.report_create(reporter=ben, message=sent[12].pk, reason="x")
    assert [m["text"] for m in report_payload(report)["context"]] == [str(i) for i in range(2, 23)]


def test_leaving_covers_what_notifications_hold(users):
    """The download carries the address, preferences, webhooks (never their secret) and the
    notifications made; deletion erases them, and nobody else's."""
    from notifications.models import (
        EmailAddress,
        Notification,
        Preferences,
        Presence,
        Webhook,
    )

    ann, ben, _ = users
    now = timezone.now()
    for user in (ann, ben):
        EmailAddress.objects.create(user=user, address=f"{user.username}@example.org", verified_at=now)
        Preferences.objects.create(user=user, time_zone="Europe/Paris", digest_hour=7)
        Presence.objects.create(user=user, seen_at=now)
        hook = Webhook.objects.create(user=user, url=f"https://hooks.example.org/{user.username}",
                                      kinds=["your_turn"], secret="s" * 64)
        Notification.objects.create(user=user, kind="your_turn", channel="webhook", webhook=hook,
                                    key=f"k-{user.username}", due_at=now)
    part = account_export(ann)["notifications"]
    assert part["email"]["address"] == "ann@example.org" and part["preferences"]["time_zone"] == "Europe/Paris"
    assert [h["url"] for h in part["webhooks"]] == ["https://hooks.example.org/ann"]
    assert "s" * 64 not in str(account_export(ann))
    assert [(n["kind"], n["channel"]) for n in part["sent"]] == [("your_turn", "webhook")]
    leaving.account_delete(user=ann, password="a-long-enough-secret")
    for model in (EmailAddress, Notification, Preferences, Presence, Webhook):
        assert list(model.objects.values_list("user__username", flat=True)) == ["ben"], model
