"""Schemathesis drives every operation of the OpenAPI schema against the real app (WSGI), with
valid and invalid inputs, anonymously and with the token of a player in a live match: no answer
may be a server error, and every answer must be one the schema documents (status, content type,
body). Bounded: a few dozen examples an operation, the same ones every run."""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection,
                                               response_schema_conformance, status_code_conformance)

from pearlsite.wsgi import application

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
schema.config.generation.update(deterministic=True, database="none", allow_x00=True)
# A body past PEARLSITE_MAX_BODY_BYTES is refused before it is read (413): a rejection too.
schema.config.checks.negative_data_rejection.expected_statuses.append("413")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None,
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
def live(client_for, alice, bob):
    """A live match between alice and bob, a finished one with an analysis, an open challenge, a ladder,
    and a second token of alice's (to revoke)."""
    from matches.models import Ladder
    from notifications.models import Webhook
    from matches.services import accounts, analysis, challenges, ladders, results, tournaments
    from tests.services import factories

    match = factories.match(alice, bob)
    done = factories.match(alice, bob)
    results.match_resign(match_id=done.pk, user=bob)
    job = analysis.analysis_request(match_id=done.pk, user=alice, level="easy")
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=[None])
    ladder = Ladder.objects.create(name="open ladder", game="hasami-shogi", options={})
    ladders.ladder_join(ladder_id=ladder.pk, user=alice)
    spare_token, _ = accounts.token_create(user=alice)
    cup = tournaments.tournament_create(creator=alice, name="cup", game="hasami-shogi", kind="round-robin",
                                        max_entrants=4)
    hook = Webhook.objects.create(user=alice, url="https://hooks.example.org/pearlsite", kinds=["your_turn"],
                                  secret="0" * 64)
    from community.services import chat, reports
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="hello")
    report = reports.report_create(reporter=alice, message=said.pk, reason="rude")
    return {"token": client_for(alice).token, "ids": {
        "matches": match.pk, "analyses": job.pk, "challenges": pending.pk, "ladders": ladder.pk,
        "tokens": spare_token.pk, "tournaments": cup.pk, "messages": said.pk, "reports": report.pk,
        "engine-jobs": job.job.pk, "webhooks": hook.pk},
        "username": "bob", "slug": "hasami-shogi"}


def _aim_at_live_objects(case, live) -> None:
    """Point path parameters at real rows, so the fuzzed bodies and queries reach the handlers."""
    parts = case.operation.path.strip("/").split("/")
    for name in case.path_parameters or {}:
        if name == "id":
            generated = case.path_parameters[name]
            # An id the schema refuses (a negative case) stays as generated: it must be refused.
            if isinstance(generated, int) and not isinstance(generated, bool) and 0 <= generated < 2**63:
                case.path_parameters[name] = live["ids"][parts[parts.index("{id}") - 1]]
        elif name == "username":
            case.path_parameters[name] = live["username"]
        elif name in ("slug", "game"):
            case.path_parameters[name] = live["slug"]


@pytest.fixture(autouse=True)
def _short_streams(settings):
    settings.EVENT_STREAM_SECONDS = 0          # an event stream ends at once instead of waiting


def _checks(case) -> list:
    """Two checks skip the event stream. Its schema is the body as text, as code generators read
    `schema` (OpenAPI 3.0 has no `itemSchema`), while schemathesis reads it as each event's: the
    events themselves are checked by tests/matches/test_generated_client.py with an SSE client. And
    its declared header (Last-Event-ID) cannot refuse other headers."""
    if case.operation.path.endswith("/events/stream/"):
        return [c for c in CHECKS if c not in (response_schema_conformance, negative_data_rejection)]
    return CHECKS


@schema.parametrize()
@FUZZ
def test_anonymous(case):
    case.call_and_validate(checks=_checks(case))


@schema.parametrize()
@FUZZ
def test_as_a_player_with_a_live_match(case, live):
    _aim_at_live_objects(case, live)
    case.call_and_validate(headers={"Authorization": f"Bearer {live['token']}"}, checks=_checks(case))


@pytest.fixture
def revoked(alice):
    from matches.services import accounts

    token, key = accounts.token_create(user=alice)
    accounts.token_revoke(user=alice, token_id=token.pk)
    return key


@schema.parametrize()
@settings(FUZZ, max_examples=3)
def test_with_a_revoked_token(case, revoked, live):
    """Every operation that authenticates answers a revoked token with the 401 it documents."""
    _aim_at_live_objects(case, live)
    case.call_and_validate(headers={"Authorization": f"Bearer {revoked}"}, checks=_checks(case))


STATEFUL = settings(FUZZ, max_examples=8, stateful_step_count=6)


def _workflow(token: str | None):
    """The stateful phase: sequences of calls, each feeding ids from an answer into the next."""

    class Workflow(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"headers": {"Authorization": f"Bearer {token}"}} if token else {}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=_checks(case), transport_kwargs=kwargs)

    return Workflow


def test_stateful_anonymous():
    _workflow(None).run(settings=STATEFUL)


def test_stateful_as_a_player_with_a_live_match(live):
    _workflow(live["token"]).run(settings=STATEFUL)
