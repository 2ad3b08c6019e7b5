"""Schemathesis drives every operation of the OpenAPI schema against the real app (WSGI), with
valid and invalid inputs, anonymously, with the token of a player in a live match and with a revoked
token, one call at a time and in its stateful phase (sequences linked by the schema's links). All
its checks run: no server error, every answer one the schema documents (status, content type, body,
headers), invalid data refused, undeclared methods 405, credentials enforced; schema-valid data
may be refused only by a rule of the service (400 with a service's code, never a shape error).
Every operation answers 2xx at least once over the module. Bounded and derandomized: the same
cases every run."""
from __future__ import annotations

from collections import defaultdict

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, response_schema_conformance

from pearlsite.wsgi import application

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
schema.config.generation.update(deterministic=True, database="none", allow_x00=True)
# A body past PEARLSITE_MAX_BODY_BYTES is refused before it is read (413): a rejection too.
schema.config.checks.negative_data_rejection.expected_statuses = [
    *schema.config.checks.negative_data_rejection.expected_statuses, "413"]
# Schema-valid data may still break a rule only the service knows (a wrong password, an illegal move,
# a variant another game has): 400 with the service's code. `shape_agrees_with_the_schema` below
# fails any such answer whose code says the shape was wrong.
schema.config.checks.positive_data_acceptance.expected_statuses = [
    *schema.config.checks.positive_data_acceptance.expected_statuses, "400"]
SHAPE_CODES = {"validation_error", "parse_error", "json_too_deep", "unsupported_media_type"}


def shape_agrees_with_the_schema(ctx, response, case) -> None:
    """Schema-valid data refused as malformed means the schema and the input serializer disagree."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code != 400:
        return
    code = response.json().get("code")
    assert code not in SHAPE_CODES, f"schema-valid data refused as malformed: {response.text[:300]}"


# The caller: each test names its token (None: anonymous). Schemathesis applies it as explicit
# credentials, so its authentication check can take them away and expect 401.
CALLER: dict[str, str | None] = {"token": None}


@schema.auth(refresh_interval=None)
class _Caller:
    def get(self, case, ctx):
        return CALLER["token"]

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@pytest.fixture(autouse=True)
def _anonymous_unless_told():
    CALLER["token"] = None
    yield
    CALLER["token"] = None
# Undeclared methods tried on every operation: TRACE (never served) and PATCH (served elsewhere).
schema.config.phases.coverage.unexpected_methods = {"trace", "patch"}
# Random cases an operation after the coverage phase's systematic ones (CI time: docs/security.md).
FUZZ = settings(max_examples=5, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Calls go straight to the WSGI app, not through Django's test client, so detach what closes
    connections between requests (as the test client does): the test's transaction stays open."""
    from django.core import signals
    from django.db import close_old_connections
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def live(client_for, alice, bob, carol, settings):
    """What the operations act on, so that each can succeed: alice's live match with bob (her move), one
    where bob is to move, a finished one with an analysis, challenges from and to her, ladders (one
    she is on below bob, one she is not), a tournament of hers with two entrants, a second token, a
    webhook, a chat message and its report. carol is staff."""
    from community.services import chat, reports
    from matches.models import Ladder
    from matches.services import (
        accounts,
        analysis,
        challenges,
        ladders,
        play,
        positions,
        results,
        tournaments,
    )
    from notifications.models import Webhook
    from tests.services import factories

    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]     # a webhook to this machine is accepted
    carol.is_staff = True
    carol.save(update_fields=["is_staff"])
    match = factories.match(alice, bob)
    waiting = factories.match(alice, bob)
    play.move_submit(match_id=waiting.pk, user=alice, move=FIRST_MOVE, ply=0)
    done = factories.match(alice, bob)
    results.match_resign(match_id=done.pk, user=bob)
    job = analysis.analysis_request(match_id=done.pk, user=alice, level="easy")
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=[None])
    incoming = challenges.challenge_create(creator=bob, game="hasami-shogi", opponents=["alice"])
    ladder = Ladder.objects.create(name="open ladder", game="hasami-shogi", options={})
    ladders.ladder_join(ladder_id=ladder.pk, user=bob)
    ladders.ladder_join(ladder_id=ladder.pk, user=alice)
    other_ladder = Ladder.objects.create(name="another ladder", game="hasami-shogi", options={})
    spare_token, _ = accounts.token_create(user=alice)
    cup = tournaments.tournament_create(creator=alice, name="cup", game="hasami-shogi", kind="round-robin",
                                        max_entrants=4)
    tournaments.tournament_join(tournament_id=cup.pk, user=alice)
    tournaments.tournament_join(tournament_id=cup.pk, user=bob)
    bobs_cup = tournaments.tournament_create(creator=bob, name="bob's cup", game="hasami-shogi", kind="swiss",
                                             rounds=2, max_entrants=4)
    hook = Webhook.objects.create(user=alice, url="https://hooks.example.org/pearlsite", kinds=["your_turn"],
                                  secret="0" * 64)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="hello")
    report = reports.report_create(reporter=alice, message=said.pk, reason="rude")
    # A position of a game alice is not playing (a line from a live game's position is refused).
    position, _ = positions.position_request(user=alice, game=BOARD_GAME, moves=[], level="easy", lines=1)
    ids = {"matches": match.pk, "analyses": job.pk, "challenges": pending.pk, "ladders": ladder.pk,
           "tokens": spare_token.pk, "tournaments": cup.pk, "messages": said.pk, "reports": report.pk,
           "engine-jobs": job.job.pk, "webhooks": hook.pk,
           "positions": position.pk}
    # Operations that act on another object than their resource's usual one.
    by_operation = {
        "PUT /api/v1/matches/{id}/conditional/": waiting.pk,      # replies are prepared on their turn
        "POST /api/v1/matches/{id}/takeback/": waiting.pk,        # her move is the last one
        "POST /api/v1/matches/{id}/rematch/": done.pk,
        "POST /api/v1/matches/{id}/analysis/": done.pk,
        "POST /api/v1/challenges/{id}/accept/": incoming.pk,
        "POST /api/v1/challenges/{id}/decline/": incoming.pk,
        "POST /api/v1/ladders/{id}/join/": other_ladder.pk,
        "POST /api/v1/tournaments/{id}/join/": bobs_cup.pk,
    }
    return {"token": client_for(alice).token, "staff_token": client_for(carol).token, "ids": ids,
            "by_operation": by_operation, "username": "bob", "slug": "hasami-shogi", "alice": alice, "carol": carol,
            "job": job.job}


FIRST_MOVE = "e1-e5"            # a legal first move of hasami-shogi (the README plays it too)
BOARD_GAME = "pearl-war"        # the analysis board's game: none of alice's live matches is of it

def _mailed_links(live) -> dict:
    """The bodies the links mailed to alice carry: verifying an address, resetting her password."""
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from notifications import links
    from notifications.services import addresses

    alice = live["alice"]
    addresses.address_set(user=alice, address="alice@example.org")
    return {"POST /api/v1/accounts/email/verify/": {"token": links.verify_token(alice.pk, "alice@example.org")},
            "POST /api/v1/auth/password-reset/confirm/": {
                "uid": urlsafe_base64_encode(force_bytes(alice.pk)), "token": default_token_generator.make_token(alice),
                "password": "a brand new passphrase 42"}}


# Bodies only a player who knows the live objects could write (a legal move, an opponent on the
# ladder, alice's password): sent as the first schema-valid case of their operation in each test.
BODIES = {
    "POST /api/v1/auth/token/": {"username": "alice", "password": "alice-secret-pw"},
    "POST /api/v1/matches/{id}/moves/": {"move": FIRST_MOVE, "ply": 0},
    "PUT /api/v1/matches/{id}/conditional/": {"lines": [["a9-a8", "d1-d5"]], "ply": 1},
    "POST /api/v1/matches/{id}/chat/": {"room": "players", "text": "good game"},
    "POST /api/v1/challenges/": {"game": "hasami-shogi", "opponents": ["bob"]},
    "POST /api/v1/tournaments/": {"name": "spring cup", "game": "hasami-shogi", "kind": "swiss", "rounds": 3,
                                  "max_entrants": 8},
    "POST /api/v1/ladders/{id}/challenges/": {"opponent": "bob"},
    "POST /api/v1/accounts/me/blocks/": {"username": "bob"},
    "POST /api/v1/accounts/me/delete/": {"password": "alice-secret-pw"},
    "POST /api/v1/accounts/me/webhooks/": {"url": "https://127.0.0.1/hook", "kinds": ["your_turn"]},
    "POST /api/v1/reports/": {"player": "bob", "reason": "rude in chat"},
    "POST /api/v1/staff/matches/{id}/adjudicate/": {"winner": 0},
    "POST /api/v1/staff/moderation/players/{username}/suspend/": {"reason": "abuse", "days": 3},
    "POST /api/v1/positions/": {"game": BOARD_GAME, "moves": [], "level": "easy", "lines": 2},
}


MAILED = ("POST /api/v1/accounts/email/verify/", "POST /api/v1/auth/password-reset/confirm/")
CREDENTIAL_FREE = ("POST /api/v1/accounts/", "POST /api/v1/auth/token/")     # no security requirement


def _prepare(label: str, live) -> None:
    """State an operation needs before it can succeed (taken once per test, before its first call)."""
    from community.models import ChatMessage, Report
    from community.services import blocks, moderation
    from matches.services import vacations
    from notifications.services import addresses

    alice = live["alice"]
    if label == "DELETE /api/v1/accounts/me/vacation/":
        vacations.vacation_start(user=alice)
    elif label == "DELETE /api/v1/accounts/me/blocks/{username}/":
        blocks.block_create(blocker=alice, username="bob")
    elif label == "POST /api/v1/accounts/me/email/resend/":
        addresses.address_set(user=alice, address="alice@example.org")
    elif label == "POST /api/v1/staff/moderation/players/{username}/unsuspend/":
        moderation.suspend(staff=live["carol"], username="bob", reason="a test suspension")
    elif label in ("POST /api/v1/staff/moderation/reports/{id}/resolve/",
                   "POST /api/v1/staff/moderation/reports/{id}/dismiss/"):
        Report.objects.filter(pk=live["ids"]["reports"]).update(status=Report.Status.OPEN)
    elif label == "POST /api/v1/staff/moderation/messages/{id}/unhide/":
        if not ChatMessage.objects.filter(pk=live["ids"]["messages"], hidden_at__isnull=False).exists():
            moderation.message_hide(staff=live["carol"], message_id=live["ids"]["messages"], reason="to unhide")
    elif label == "POST /api/v1/staff/moderation/messages/{id}/hide/":
        ChatMessage.objects.filter(pk=live["ids"]["messages"]).update(hidden_at=None)
    elif label == "POST /api/v1/staff/engine-jobs/{id}/retry/":
        type(live["job"]).objects.filter(pk=live["job"].pk).update(status="failed")


@pytest.fixture
def as_player(live):
    """Calls carry alice's token (set before schemathesis generates the first case)."""
    CALLER["token"] = live["token"]


@pytest.fixture
def as_staff(live):
    """Calls carry carol's token: she is staff."""
    CALLER["token"] = live["staff_token"]


@pytest.fixture
def seed(live):
    """`seed(case)`: aims the case at live objects, and gives the first schema-valid case of an
    operation the state and body it needs to succeed."""
    seeded: set[str] = set()

    def apply(case):
        label = case.operation.label
        _aim_at_live_objects(case, live)
        positive = case.meta is not None and case.meta.generation.mode.is_positive
        # Some schema-valid cases of the coverage phase carry a made-up Authorization: not those.
        ours = (case.headers or {}).get("Authorization") == f"Bearer {CALLER['token']}" or label in CREDENTIAL_FREE
        if positive and ours and label not in seeded:
            seeded.add(label)
            _prepare(label, live)
            if label in BODIES:
                case.body = dict(BODIES[label])
            elif label in MAILED:
                case.body = _mailed_links(live)[label]
        return case

    return apply


def _aim_at_live_objects(case, live) -> None:
    """Point path parameters at real rows, so the fuzzed bodies and queries reach the handlers."""
    parts = case.operation.path.strip("/").split("/")
    for name in case.path_parameters or {}:
        if name == "id":
            generated = case.path_parameters[name]
            # An id the schema refuses (a negative case) stays as generated: it must be refused.
            if isinstance(generated, int) and not isinstance(generated, bool) and 0 <= generated < 2**63:
                case.path_parameters[name] = live["by_operation"].get(case.operation.label) or \
                    live["ids"][parts[parts.index("{id}") - 1]]
        elif name == "username":
            case.path_parameters[name] = live["username"]
        elif name in ("slug", "game"):
            case.path_parameters[name] = live["slug"]


@pytest.fixture(autouse=True)
def _short_streams(settings):
    settings.EVENT_STREAM_SECONDS = 0          # an event stream ends at once instead of waiting


def _excluded(case) -> list:
    """Two checks skip the event stream. Its schema is the body as text, as code generators read
    `schema` (OpenAPI 3.0 has no `itemSchema`), while schemathesis reads it as each event's: the
    events themselves are checked by tests/matches/test_generated_client.py with an SSE client. And
    its declared header (Last-Event-ID) cannot refuse other headers."""
    if case.operation.path.endswith("/events/stream/"):
        return [response_schema_conformance, negative_data_rejection]
    return []


# Every status each operation answered, over the whole module (test_every_operation_answered_2xx).
ANSWERED: dict[str, set[int]] = defaultdict(set)


def _call(case):
    response = case.call()
    ANSWERED[case.operation.label].add(response.status_code)
    case.validate_response(response, excluded_checks=_excluded(case), additional_checks=[shape_agrees_with_the_schema])


STAFF = "^/api/v1/staff/"


@schema.exclude(path_regex=STAFF).parametrize()
@FUZZ
def test_anonymous(case):
    _call(case)


@schema.exclude(path_regex=STAFF).parametrize()
@FUZZ
def test_as_a_player_with_a_live_match(case, as_player, seed):
    _call(seed(case))


@schema.include(path_regex=STAFF).parametrize()
@FUZZ
def test_as_staff(case, as_staff, seed):
    """Staff operations, called by staff (test_as_a_player_with_a_live_match: 403 to others)."""
    _call(seed(case))


@pytest.fixture
def revoked(alice):
    """Calls carry a token of alice's that she revoked."""
    from matches.services import accounts

    token, key = accounts.token_create(user=alice)
    accounts.token_revoke(user=alice, token_id=token.pk)
    CALLER["token"] = key
    return key


@schema.parametrize()
@settings(FUZZ, max_examples=1)
def test_with_a_revoked_token(case, revoked, live):
    """Every operation that authenticates answers a revoked token with the 401 it documents."""
    _aim_at_live_objects(case, live)
    _call(case)


STATEFUL = settings(FUZZ, max_examples=8, stateful_step_count=6)


class Workflow(schema.as_state_machine()):
    """The stateful phase: sequences of calls, each feeding ids from an answer into the next."""

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        ANSWERED[case.operation.label].add(response.status_code)
        case.validate_response(response, excluded_checks=_excluded(case),
                               additional_checks=[shape_agrees_with_the_schema], transport_kwargs=kwargs)


def test_stateful_anonymous():
    Workflow.run(settings=STATEFUL)


def test_stateful_as_a_player_with_a_live_match(as_player):
    Workflow.run(settings=STATEFUL)


def test_every_operation_answered_2xx_at_least_once(request):
    """Over the module, each operation of the schema succeeded at least once: the fuzzing reached its
    handler's success path, not only its refusals. (Judged only when the whole module ran.)"""
    ran = {item.name.split("[")[0] for item in request.session.items if item.module is request.module}
    if not {"test_anonymous", "test_as_a_player_with_a_live_match", "test_as_staff"} <= ran:
        pytest.skip("needs the whole module")
    labels = {operation.label for operation in (result.ok() for result in schema.get_all_operations())}
    never = {label: sorted(ANSWERED.get(label, ())) for label in sorted(labels)
             if not any(200 <= status < 300 for status in ANSWERED.get(label, ()))}
    assert not never, never
