"""Who may do what: every operation of the API × {seated player, opponent, spectator, stranger,
anonymous, staff, blocked, suspended} → the status each gets. The operations are read from the URL resolver, so an
endpoint added without its row here fails `test_every_operation_has_a_row`.

The world: alice (player, seat 0, to move) and bob (opponent, seat 1) in a live Hasami Shogi match
with no moves yet; a finished match of theirs with an analysis alice asked for; carol's question
about the start position (the analysis board); alice's pending
challenge to bob; a ladder with alice at #1 and bob at #2; alice's round-robin, open, which alice
and bob have entered. carol (spectator) and dave (stranger)
have accounts and no part in any of it; erin is staff and plays nowhere. gina (blocked) has no part
either, and alice has blocked her; frank (suspended) is suspended. Each has one API token.

A row names the blocked player's status when it differs from the stranger's, and the suspended
player's when it is not 401 (a suspended account's token is refused on every operation).
"""
from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db
ROLES = ("player", "opponent", "spectator", "stranger", "anonymous", "staff", "blocked", "suspended")
BASE_ROLES = ROLES[:6]


def _all(status: int) -> dict[str, int]:
    return dict.fromkeys(BASE_ROLES, status)


def _auth(status: int, anonymous: int = 401) -> dict[str, int]:
    return {**_all(status), "anonymous": anonymous}


def _seated(player: int, opponent: int, others: int = 403) -> dict[str, int]:
    return {**_auth(others), "player": player, "opponent": opponent}


# (url name, method) → (target object, body, {role: status}); a body may depend on the role.
MATRIX = {
    ("schema", "GET"): (None, None, _all(200)),
    ("docs", "GET"): (None, None, _all(200)),
    ("account-create", "POST"): (None, lambda role: {"username": f"new-{role}", "password": "a-long-enough-secret-9"},
                                 {**_all(201), "suspended": 201}),   # these two read no token at all
    ("auth-token", "POST"): (None, {"username": "alice", "password": "alice-secret-pw"},
                             {**_all(200), "suspended": 200}),
    ("auth-token", "DELETE"): (None, None, _auth(204)),
    ("auth-token-list", "GET"): (None, None, _auth(200)),
    ("auth-token-detail", "DELETE"): ("token", None, {**_auth(404), "player": 204}),     # alice's token
    ("game-list", "GET"): (None, None, _all(200)),
    ("game-detail", "GET"): ("game", None, _all(200)),
    ("game-rules", "GET"): ("game", None, _all(200)),
    ("challenge-list", "GET"): (None, None, _all(200)),
    # the blocked player challenges alice, who blocked her; everyone else an engine
    ("challenge-list", "POST"): (None, lambda role: {"game": "hasami-shogi",
                                                     "opponents": ["alice" if role == "blocked" else "ai:random"]},
                                 {**_auth(201), "blocked": 403}),
    ("challenge-detail", "GET"): ("challenge", None, {**_all(404), "player": 200, "opponent": 200}),
    ("challenge-accept", "POST"): ("challenge", None, _seated(409, 200)),
    ("challenge-decline", "POST"): ("challenge", None, _seated(403, 200)),
    ("challenge-cancel", "POST"): ("challenge", None, _seated(200, 403)),
    ("match-list", "GET"): (None, None, _all(200)),
    ("match-detail", "GET"): ("match", None, _all(200)),
    ("match-legal", "GET"): ("match", None, _all(200)),
    ("match-moves", "GET"): ("match", None, _all(200)),
    ("match-moves", "POST"): ("match", {"move": "e1-e5", "ply": 0}, _seated(201, 403)),
    ("match-resign", "POST"): ("match", None, _seated(200, 200)),
    ("match-draw", "POST"): ("match", {"action": "offer"}, _seated(200, 200)),
    ("match-abort", "POST"): ("match", None, _seated(200, 200)),
    ("match-takeback", "POST"): ("match", {"action": "offer"}, _seated(409, 409)),   # no move to take back yet
    ("match-rematch", "POST"): ("finished", None, _seated(201, 201)),
    ("match-export", "GET"): ("match", None, _all(200)),
    ("match-board", "GET"): ("match", None, _all(200)),
    ("match-analysis", "POST"): ("finished", {"level": "medium"}, _auth(202)),   # easy exists: 200
    ("analysis-detail", "GET"): ("analysis", None, _all(200)),
    # the live match has no moves: its seats may not ask about the start, nor read carol's answer
    ("position-create", "POST"): (None, {"game": "hasami-shogi", "level": "easy"},
                                  _seated(409, 409, 200)),    # carol asked already: the stored row
    ("position-detail", "GET"): ("position", None, {**_all(200), "player": 409, "opponent": 409}),
    ("player-detail", "GET"): ("player", None, _all(200)),
    ("ladder-list", "GET"): (None, None, _all(200)),
    ("ladder-list", "POST"): (None, lambda role: {"name": f"ladder of {role}", "game": "hasami-shogi"},
                              _auth(201)),
    ("ladder-history", "GET"): ("ladder", None, _all(200)),
    ("ladder-detail", "GET"): ("ladder", None, _all(200)),
    ("ladder-join", "POST"): ("ladder", None, {**_auth(201), "player": 409, "opponent": 409}),
    ("ladder-challenge", "POST"): ("ladder", {"opponent": "alice"}, {**_auth(403), "player": 400, "opponent": 201}),
    ("event-list", "GET"): (None, None, _auth(200)),
    ("event-stream", "GET"): (None, None, _auth(200)),
    ("match-conditional", "GET"): ("match", None, _seated(200, 200)),
    ("match-conditional", "PUT"): ("match", {"lines": []}, _seated(409, 200)),
    ("match-conditional", "DELETE"): ("match", None, _seated(204, 204)),
    ("vacation", "GET"): (None, None, _auth(200)),
    ("vacation", "POST"): (None, None, _auth(200)),
    ("vacation", "DELETE"): (None, None, _auth(409)),
    ("account-me", "GET"): (None, None, _auth(200)),
    ("account-me", "PATCH"): (None, {"profile": {"bio": "correspondence player"}}, _auth(200)),
    ("player-list", "GET"): (None, None, _all(200)),
    ("player-ratings", "GET"): ("player-game", None, _all(200)),
    ("player-export", "GET"): ("player", None, _all(200)),
    ("player-export-bare", "GET"): ("player", None, _all(200)),
    ("game-leaderboard", "GET"): ("game", None, _all(200)),
    ("tournament-list", "GET"): (None, None, _all(200)),
    ("tournament-list", "POST"): (None, lambda role: {"name": f"cup of {role}", "game": "hasami-shogi", "kind": "swiss",
                                                      "rounds": 2, "max_entrants": 4}, _auth(201)),
    ("tournament-detail", "GET"): ("tournament", None, _all(200)),
    ("tournament-join", "POST"): ("tournament", None, {**_auth(201), "player": 409, "opponent": 409}),
    ("tournament-leave", "POST"): ("tournament", None, {**_auth(409), "player": 200, "opponent": 200}),
    ("tournament-start", "POST"): ("tournament", None, {**_auth(403), "player": 200}),    # alice organises
    ("staff-user-list", "GET"): (None, None, {**_auth(403), "staff": 200}),
    ("staff-user-matches", "GET"): ("player", None, {**_auth(403), "staff": 200}),
    ("staff-user-tokens-revoke", "POST"): ("player", None, {**_auth(403), "staff": 200}),
    ("staff-match-abort", "POST"): ("match", None, {**_auth(403), "staff": 200}),
    ("staff-match-adjudicate", "POST"): ("match", {"winner": 0}, {**_auth(403), "staff": 200}),
    ("staff-engine-job-list", "GET"): (None, None, {**_auth(403), "staff": 200}),
    ("staff-engine-job-retry", "POST"): ("failed-job", None, {**_auth(403), "staff": 200}),
    # notifications: one's own address, preferences and webhooks; the reset answers everyone alike
    ("account-email", "GET"): (None, None, _auth(200)),
    ("account-email", "PUT"): (None, lambda role: {"email": f"{role}@example.org"}, _auth(200)),
    ("account-email", "DELETE"): (None, None, _auth(204)),
    ("account-email-resend", "POST"): (None, None, _auth(409)),                     # nobody has an address
    ("account-email-verify", "POST"): (None, {"token": "not-a-signed-token"}, _all(400)),
    ("account-notifications", "GET"): (None, None, _auth(200)),
    ("account-notifications", "PATCH"): (None, {"time_zone": "Europe/Paris"}, _auth(200)),
    ("webhook-list", "GET"): (None, None, _auth(200)),
    ("webhook-list", "POST"): (None, {"url": "https://127.0.0.1/hook", "kinds": ["your_turn"]}, _auth(400)),
    ("webhook-detail", "PATCH"): ("webhook", {"active": False}, {**_auth(404), "player": 200}),   # alice's
    ("webhook-detail", "DELETE"): ("webhook", None, {**_auth(404), "player": 204}),
    ("webhook-deliveries", "GET"): ("webhook", None, {**_auth(404), "player": 200}),
    ("password-reset", "POST"): (None, {"login": "alice"}, _all(202)),
    ("password-reset-confirm", "POST"): (None, {"uid": "MQ", "token": "wrong", "password": "a-long-enough-secret-9"},
                                         _all(400)),
    # community: chat, blocks, reports, leaving, staff moderation (blocked and suspended users:
    # tests/matches/test_community_api.py)
    ("match-chat", "GET"): ("match", None, {**_all(403), "player": 200, "opponent": 200}),
    ("match-chat", "POST"): ("match", {"text": "good game"}, _seated(201, 201)),
    ("block-list", "GET"): (None, None, _auth(200)),
    ("block-list", "POST"): (None, {"username": "bob"}, {**_auth(201), "opponent": 400}),
    ("block-detail", "DELETE"): ("blocked", None, {**_auth(404), "player": 204}),        # alice blocked dave
    ("account-export", "GET"): (None, None, _auth(200)),
    ("account-delete", "POST"): (None, {"password": "not-the-password"}, _auth(400)),
    ("report-create", "POST"): (None, {"player": "bob", "reason": "rude"}, _auth(201)),
    ("staff-report-list", "GET"): (None, None, {**_auth(403), "staff": 200}),
    ("staff-report-resolve", "POST"): ("report", {"reason": "warned"}, {**_auth(403), "staff": 200}),
    ("staff-report-dismiss", "POST"): ("report", {"reason": "nothing wrong"}, {**_auth(403), "staff": 200}),
    ("staff-suspend", "POST"): ("player", {"reason": "abuse", "days": 2}, {**_auth(403), "staff": 200}),
    ("staff-unsuspend", "POST"): ("suspended", {"reason": "appeal"}, {**_auth(403), "staff": 200}),
    ("staff-message-hide", "POST"): ("message", {"reason": "spam"}, {**_auth(403), "staff": 200}),
    ("staff-message-unhide", "POST"): ("hidden-message", {"reason": "on appeal"}, {**_auth(403), "staff": 200}),
    ("staff-audit", "GET"): (None, None, {**_auth(403), "staff": 200}),
}


def api_operations() -> set[tuple[str, str]]:
    """(url name, method) of every view under /api/, from the URL resolver."""
    found = set()

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("api/"):
                view = pattern.callback.view_class
                found.update((pattern.name, method.upper()) for method in view.http_method_names
                             if method not in ("head", "options") and hasattr(view, method))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_operation_has_a_row():
    operations = api_operations()
    assert not operations - MATRIX.keys(), f"operations without a row: {sorted(operations - MATRIX.keys())}"
    assert not MATRIX.keys() - operations, f"rows without an operation: {sorted(MATRIX.keys() - operations)}"


@pytest.fixture
def world(alice, bob, carol, dave, django_user_model):
    from matches.models import Ladder
    from matches.services import (
        analysis,
        challenges,
        dispatch,
        ladders,
        positions,
        results,
        tournaments,
    )
    from tests.services import factories

    erin = django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)
    live = factories.match(alice, bob)
    finished = factories.match(alice, bob)
    results.match_resign(match_id=finished.pk, user=bob)
    job = analysis.analysis_request(match_id=finished.pk, user=alice, level="easy")
    failed = analysis.analysis_request(match_id=finished.pk, user=alice, level="strong").job
    dispatch.job_finish(failed.pk, "failed", "the worker crashed")
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"])
    start, _ = positions.position_request(user=carol, moves=[], game="hasami-shogi", level="easy")
    ladder = Ladder.objects.create(name="the ladder", game="hasami-shogi", options={})
    for user in (alice, bob):
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    cup = tournaments.tournament_create(creator=alice, name="the cup", game="hasami-shogi", kind="round-robin",
                                        max_entrants=8)
    for user in (alice, bob):
        tournaments.tournament_join(tournament_id=cup.pk, user=user)
    alice_token = alice.api_tokens.get()
    from notifications.models import Webhook
    hook = Webhook.objects.create(user=alice, url="https://hooks.example.org/x", kinds=["your_turn"], secret="0" * 64)
    from community.services import blocks, chat, moderation, reports
    from tests.conftest import token_for
    frank = django_user_model.objects.create_user(username="frank", password="frank-secret-pw")
    frank.api_key = token_for(frank)        # a token made before the suspension, refused after it
    moderation.suspend(staff=erin, username="frank", reason="spam")
    blocks.block_create(blocker=alice, username="dave")
    said = chat.chat_post(match_id=live.pk, user=bob, room="players", text="hello")
    report = reports.report_create(reporter=alice, message=said.pk, reason="rude")
    hidden = chat.chat_post(match_id=live.pk, user=alice, room="players", text="spam")
    moderation.message_hide(staff=erin, message_id=hidden.pk, reason="spam")
    gina = django_user_model.objects.create_user(username="gina", password="gina-secret-pw")
    blocks.block_create(blocker=alice, username="gina")
    users = {"player": alice, "opponent": bob, "spectator": carol, "stranger": dave, "staff": erin,
             "blocked": gina, "suspended": frank}
    targets = {"match": {"pk": live.pk}, "finished": {"pk": finished.pk}, "analysis": {"pk": job.pk}, "position": {"pk": start.pk},
               "challenge": {"pk": pending.pk}, "ladder": {"pk": ladder.pk}, "player": {"username": "bob"},
               "game": {"slug": "hasami-shogi"}, "token": {"pk": alice_token.pk}, "tournament": {"pk": cup.pk},
                "player-game": {"username": "bob", "game": "hasami-shogi"}, "failed-job": {"pk": failed.pk},
                "webhook": {"pk": hook.pk}, "blocked": {"username": "dave"},
                "suspended": {"username": frank.username}, "message": {"pk": said.pk}, "report": {"pk": report.pk},
                "hidden-message": {"pk": hidden.pk},
                None: {}}
    return users, targets


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", sorted(MATRIX), ids=lambda op: f"{op[1]} {op[0]}")
def test_matrix(world, client_for, operation, role):
    from django.urls import reverse

    users, targets = world
    name, method = operation
    target, body, expected = MATRIX[operation]
    user = users.get(role)
    client = client_for(user)
    url = reverse(name, kwargs=targets[target])
    data = body(role) if callable(body) else body
    response = getattr(client, method.lower())(url, data) if data is not None else getattr(client, method.lower())(url)
    want = expected.get(role, expected["stranger"] if role == "blocked" else 401)
    assert response.status_code == want, (method, url, role, response.content[:300])
