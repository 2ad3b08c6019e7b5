"""Who may do what on the community pages (privacy, reports, staff moderation): every page and
form × {anonymous, player, seat, spectator, blocked, suspended, staff} → the outcome each gets.
The pages are read from the URL resolver (every route of web.views.privacy and web.views.staff),
so a page added without its row here fails `test_every_community_page_has_a_row`. A refused
request changes no rows.

The world: alice (player, seat 0) and bob (seat 1) in a live Hasami Shogi match where bob wrote
"hello" in the players' room and carol (spectator) in the spectators' room; alice reported bob's
message; alice blocked dave (blocked); frank is suspended (his session no longer signs him in);
erin is staff and plays nowhere; one message of alice's is hidden.
"""
from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import URLPattern, get_resolver, reverse

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "player", "seat", "spectator", "blocked", "suspended", "staff")

# Outcomes: ok (a page, or a success message), refused (an error message, nothing changed),
# login (sent to log in), forbidden (403 page), redirect (a GET that sends on elsewhere).
SIGNED_IN = ("player", "seat", "spectator", "blocked", "staff")


def _signed(outcome: str) -> dict[str, str]:
    """`outcome` for every signed-in role; anonymous and suspended visitors are sent to log in."""
    return {"anonymous": "login", "suspended": "login", **dict.fromkeys(SIGNED_IN, outcome)}


def _staff(outcome: str = "ok") -> dict[str, str]:
    return {**_signed("forbidden"), "staff": outcome}


# (url name, method) → (target, body, {role: outcome})
MATRIX = {
    ("privacy", "GET"): (None, None, _signed("ok")),
    ("block", "POST"): (None, {"username": "carol"}, {**_signed("ok"), "spectator": "refused"}),   # not oneself
    ("unblock", "POST"): ("blocked", None, {**_signed("refused"), "player": "ok"}),      # only alice blocked dave
    ("delete-account", "POST"): (None, {"password": "not-the-password"}, _signed("refused")),
    ("report-player", "POST"): ("player", {"reason": "rude"}, _signed("ok")),
    ("report-match", "POST"): ("match", {"reason": "stalling"}, _signed("ok")),
    # bob's message in the players' room: only the seats read it, so only they may report it
    ("report-message", "POST"): ("match", "message", {**_signed("refused"), "player": "ok", "seat": "ok"}),
    ("staff-reports", "GET"): (None, None, _staff()),
    ("staff-report-resolve", "POST"): ("report", {"reason": "warned"}, _staff()),
    ("staff-report-dismiss", "POST"): ("report", {"reason": "nothing wrong"}, _staff()),
    ("staff-player-find", "GET"): (None, None, _staff("redirect")),
    ("staff-player", "GET"): ("player", None, _staff()),
    ("staff-suspend", "POST"): ("player", {"reason": "abuse", "days": "3"}, _staff()),
    ("staff-unsuspend", "POST"): ("suspended", {"reason": "appeal"}, _staff()),
    ("staff-message-hide", "POST"): ("message", {"reason": "spam"}, _staff()),
    ("staff-message-unhide", "POST"): ("hidden-message", {"reason": "on appeal"}, _staff()),
    ("staff-audit", "GET"): (None, None, _staff()),
}


def community_pages() -> set[str]:
    """The url name of every page of web.views.privacy and web.views.staff."""
    found = set()
    for pattern in get_resolver().url_patterns:
        for inner in getattr(pattern, "url_patterns", []):
            if isinstance(inner, URLPattern) and inner.callback.__module__ in ("web.views.privacy",
                                                                                 "web.views.staff"):
                found.add(inner.name)
    return found


def test_every_community_page_has_a_row():
    """Each page has one row, for the one method it takes (the other answers 405:
    test_each_page_takes_its_method_only)."""
    rows = [name for name, _ in MATRIX]
    assert len(rows) == len(set(rows))
    assert community_pages() == set(rows), (sorted(community_pages() - set(rows)), sorted(set(rows) - community_pages()))


@pytest.fixture
def world(alice, bob, carol, dave, django_user_model):
    from community.services import blocks, chat, moderation, reports
    from tests.services import factories

    erin = django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)
    frank = django_user_model.objects.create_user(username="frank", password="frank-secret-pw")
    live = factories.match(alice, bob)
    said = chat.chat_post(match_id=live.pk, user=bob, room="players", text="hello")
    chat.chat_post(match_id=live.pk, user=carol, room="spectators", text="nice opening")
    hidden = chat.chat_post(match_id=live.pk, user=alice, room="players", text="spam spam")
    moderation.message_hide(staff=erin, message_id=hidden.pk, reason="spam")
    report = reports.report_create(reporter=alice, message=said.pk, reason="rude")
    blocks.block_create(blocker=alice, username="dave")
    moderation.suspend(staff=erin, username="frank", reason="spam")
    users = {"anonymous": None, "player": alice, "seat": bob, "spectator": carol, "blocked": dave,
             "suspended": frank, "staff": erin}
    targets = {None: {}, "match": {"pk": live.pk}, "player": {"username": "bob"}, "blocked": {"username": "dave"},
               "report": {"pk": report.pk}, "suspended": {"username": "frank"}, "message": {"pk": said.pk},
               "hidden-message": {"pk": hidden.pk}}
    return users, targets, {"message": said.pk}


def rows_now() -> tuple:
    """Every row a community page may write."""
    from django.contrib.auth import get_user_model

    from community.models import AuditEntry, Block, ChatMessage, Report, Suspension

    return (list(Report.objects.values_list("id", "status")), list(Block.objects.values_list("id")),
            list(AuditEntry.objects.values_list("id")), list(Suspension.objects.values_list("id", "lifted_at")),
            list(ChatMessage.objects.values_list("id", "text", "hidden_at")),
            list(get_user_model().objects.values_list("id", "username", "is_active", "password")))


def outcome_of(response) -> str:
    if response.status_code == 403:
        return "forbidden"
    if response.status_code == 200:
        return "ok"
    assert response.status_code == 302, (response.status_code, response.content[:300])
    if response["Location"].startswith(reverse("web:login")):
        return "login"
    levels = {m.level_tag for m in get_messages(response.wsgi_request)}
    if response.wsgi_request.method == "GET":
        return "redirect"
    assert levels in ({"success"}, {"error"}), levels
    return "ok" if levels == {"success"} else "refused"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", sorted(MATRIX), ids=lambda op: f"{op[1]} {op[0]}")
def test_page_matrix(world, client, operation, role):
    users, targets, ids = world
    name, method = operation
    target, body, expected = MATRIX[operation]
    if users[role] is not None:
        client.force_login(users[role])
    if body == "message":
        body = {"message": str(ids["message"]), "reason": "rude"}
    url = reverse(f"web:{name}", kwargs=targets[target])
    before = rows_now()
    response = client.post(url, body or {}) if method == "POST" else client.get(url, {"username": "bob"})
    got = outcome_of(response)
    assert got == expected[role], (method, url, role, got)
    if got != "ok" or method == "GET":
        assert rows_now() == before, "a refused request or a read changed rows"
    else:
        assert rows_now() != before


@pytest.mark.parametrize("operation", sorted(MATRIX), ids=lambda op: f"{op[1]} {op[0]}")
def test_each_page_takes_its_method_only(world, client, operation):
    users, targets, _ = world
    client.force_login(users["staff"])
    url = reverse(f"web:{operation[0]}", kwargs=targets[MATRIX[operation][0]])
    before = rows_now()
    other = client.get(url) if operation[1] == "POST" else client.post(url, {"reason": "x", "username": "bob"})
    assert other.status_code == 405
    assert rows_now() == before


def test_forms_need_the_csrf_token(world):
    """Every form posts with Django's CSRF token: without it the post is refused (403) and
    changes nothing."""
    from django.test import Client

    users, targets, ids = world
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["staff"])
    before = rows_now()
    for (name, method), (target, body, _) in MATRIX.items():
        if method == "POST":
            data = {"message": str(ids["message"]), "reason": "x"} if body == "message" else body or {}
            response = client.post(reverse(f"web:{name}", kwargs=targets[target]), data)
            assert response.status_code == 403, name
    assert rows_now() == before


@pytest.mark.parametrize("role", ROLES)
def test_the_match_page_for_each_role(world, client, role):
    """The match page: everyone sees it; signed-in visitors get the chat form, the per-message
    report form and the match report form; the seats talk in the players' room."""
    users, targets, _ = world
    if users[role] is not None:
        client.force_login(users[role])
    page = client.get(reverse("web:match", kwargs=targets["match"]))
    assert page.status_code == 200
    html = page.content.decode()
    signed_in = role in SIGNED_IN
    assert ('id="chat-report-template"' in html) is signed_in
    assert ("Report this match" in html) is signed_in
    assert ("Log in</a> to talk" in html) is not signed_in
    room = "players" if role in ("player", "seat") else "spectators"
    assert f'data-room="{room}"' in html
    assert ('href="/staff/moderation/"' in html) is (role == "staff")
