"""A player's finished matches exported in bulk, streamed: text records or NDJSON."""
import json
import re

import pytest

from games.record import parse_record, replay_record
from matches.models import Match

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _body(response) -> str:
    assert response.streaming
    return b"".join(response.streaming_content).decode()


@pytest.fixture
def history(as_alice, as_bob):
    """Two finished matches of alice's (one with moves), one still going, one of bob's alone."""
    played = start_match(as_alice, as_bob)
    play(as_alice, played, "e1-e5", ply=0)
    play(as_bob, played, "a9-a8", ply=1)
    as_bob.post(f"/api/v1/matches/{played}/resign/")
    eleusis = start_match(as_alice, opponents=["ai:easy", "ai:easy", "ai:easy"], game="new-eleusis")
    as_alice.post(f"/api/v1/matches/{eleusis}/resign/")
    start_match(as_alice, as_bob)                                  # active: not exported
    start_match(as_bob, opponents=["ai:random"])
    return played, eleusis


def test_text_records_replay_like_single_exports(anon, history):
    played, eleusis = history
    response = anon.get("/api/v1/players/alice/matches/export/?format=text")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    records = re.split(r"(?<=\n)\n(?=\[Event )", _body(response))
    assert len(records) == 2
    assert records[0] == anon.get(f"/api/v1/matches/{played}/export/").content.decode()
    tags, moves = parse_record(records[0])
    assert moves == ["e1-e5", "a9-a8"] and tags["Result"] == "1-0"
    assert replay_record(records[0]).to_dict() == Match.objects.get(pk=played).state
    eleusis_tags, _ = parse_record(records[1])
    assert eleusis_tags["Game"] == "new-eleusis" and "Seed" not in eleusis_tags     # the deal stays hidden
    assert _body(anon.get("/api/v1/players/alice/matches/export")) == "\n".join(records)   # no slash, text default


def test_ndjson_has_one_object_per_finished_match(anon, history, carol):
    played, eleusis = history
    response = anon.get("/api/v1/players/alice/matches/export/?format=ndjson")
    assert response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in _body(response).splitlines()]
    assert [line["id"] for line in lines] == [played, eleusis]
    first = lines[0]
    assert first["game"] == "hasami-shogi" and first["result"]["winners"] == [0]
    assert [s["player"] for s in first["seats"]] == ["alice", "bob"]
    assert first["record"] == anon.get(f"/api/v1/matches/{played}/export/").content.decode()
    assert _body(anon.get("/api/v1/players/carol/matches/export/?format=ndjson")) == ""


def test_export_refusals(anon, alice):
    bad = anon.get("/api/v1/players/alice/matches/export/?format=pgn")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_filter"
    assert anon.get("/api/v1/players/alice/matches/export/?since=1").status_code == 400
    missing = anon.get("/api/v1/players/nobody/matches/export/")
    assert missing.status_code == 404 and json.loads(missing.content)["code"] == "player_not_found"
