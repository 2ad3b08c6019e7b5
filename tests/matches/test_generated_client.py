"""A client generated from the live schema by openapi-python-client, used as a bot author would:
register, log in, challenge an engine and play the game out, follow the event stream with a
standard Server-Sent Events client, and meet an expired token as the typed 401 the schema lists.
Every call goes through the generated code (`raise_on_unexpected_status`: an undocumented status
fails the test)."""
from __future__ import annotations

import importlib
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = "pearlsite_client"


@pytest.fixture
def generated(live_server, tmp_path):
    """The client package generated from the live server's schema, imported."""
    schema = tmp_path / "schema.yaml"
    with urllib.request.urlopen(f"{live_server.url}/api/schema/", timeout=30) as response:
        schema.write_bytes(response.read())
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\n")
    subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(schema),
                    "--output-path", str(tmp_path / PACKAGE), "--meta", "none", "--config", str(config)],
                   check=True, capture_output=True, text=True, timeout=300)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(name: str):
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def _models():
    return importlib.import_module(f"{PACKAGE}.models")


def _logged_in(generated, live_server):
    models = _models()
    anonymous = generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    registered = _api("accounts.accounts_create").sync(
        client=anonymous, body=models.RegisterInRequest(username="genbot", password="correct-horse-battery"))
    assert isinstance(registered, models.RegisteredOut), registered
    return generated.AuthenticatedClient(base_url=live_server.url, token=registered.token,
                                         raise_on_unexpected_status=True)


def _play_out(client, match_id: int, seconds: float = 60.0):
    models = _models()
    legal, move, detail = (_api("matches.matches_legal_list"), _api("matches.matches_moves_create"),
                           _api("matches.matches_retrieve"))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = detail.sync(match_id, client=client)
        assert isinstance(match, models.MatchDetailOut), match
        if match.status != models.MatchStatusEnum.ACTIVE:
            return match
        page = legal.sync(match_id, client=client)
        assert isinstance(page, models.LegalMovePageOut), page
        if page.results:
            played = move.sync(match_id, client=client,
                               body=models.MoveInRequest(move=page.results[0].move, ply=match.ply))
            assert isinstance(played, (models.PlayedOut, models.ErrorOut)), played
        else:
            time.sleep(0.05)                   # the engine's reply is on its way
    raise AssertionError("the game did not finish")


def test_a_generated_client_plays_a_game_and_follows_its_events(generated, live_server):
    import httpx_sse

    models = _models()
    client = _logged_in(generated, live_server)
    catalogue = _api("games.games_list").sync(client=client)
    assert "pearl-yard" in {game.slug for game in catalogue}
    challenge = _api("challenges.challenges_create").sync(
        client=client, body=models.ChallengeInRequest(game=models.GameEnum.PEARL_YARD, opponents=["ai:random"]))
    assert isinstance(challenge, models.ChallengeOut) and challenge.match, challenge
    finished = _play_out(client, challenge.match)
    assert finished.status == models.MatchStatusEnum.FINISHED and finished.ply > 0

    stream = _api("events.events_stream_retrieve").sync(client=client)
    assert isinstance(stream, str) and stream.startswith("retry: ")
    with httpx_sse.connect_sse(client.get_httpx_client(), "GET", "/api/v1/events/stream/") as source:
        assert source.response.headers["content-type"].startswith("text/event-stream")
        seen = [sse for sse in source.iter_sse()]
    kinds = [sse.event for sse in seen]
    assert "match_started" in kinds and "match_finished" in kinds
    resume_after = seen[kinds.index("match_started")].id
    resumed = _api("events.events_stream_retrieve").sync(client=client, last_event_id=resume_after)
    assert f"id: {resume_after}\n" not in resumed and "event: match_finished" in resumed


def test_an_expired_token_is_the_typed_401_and_logging_in_again_works(generated, live_server):
    from matches.models import ApiToken

    models = _models()
    client = _logged_in(generated, live_server)
    ApiToken.objects.filter(user__username="genbot").update(last_used_at=timezone.now() - timedelta(days=400),
                                                           created_at=timezone.now() - timedelta(days=400))
    refused = _api("games.games_list").sync_detailed(client=client)
    assert refused.status_code == 401
    assert isinstance(refused.parsed, models.ErrorOut) and refused.parsed.code == "authentication_failed"
    renewed = _api("auth.auth_token_create").sync(
        client=client, body=models.TokenInRequest(username="genbot", password="correct-horse-battery"))
    assert isinstance(renewed, models.TokenOut), renewed
    fresh = generated.AuthenticatedClient(base_url=live_server.url, token=renewed.token,
                                          raise_on_unexpected_status=True)
    assert _api("accounts.accounts_me_retrieve").sync(client=fresh).username == "genbot"
