"""Cheap polling: If-None-Match gets a bodiless 304 while nothing changed, and a new answer (and
tag) as soon as something did."""
import pytest

from .helpers import play, start_match

pytestmark = pytest.mark.django_db


def _poll(client, path, etag):
    return client.get(path, HTTP_IF_NONE_MATCH=etag)


def test_match_detail(as_alice, as_bob, anon):
    match_id = start_match(as_alice, as_bob)
    path = f"/api/v1/matches/{match_id}/"
    first = as_alice.get(path)
    etag = first["ETag"]
    assert etag.startswith('W/"') and first.status_code == 200
    unchanged = _poll(as_alice, path, etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag
    assert _poll(as_bob, path, etag).status_code == 200            # another viewer, another answer
    assert _poll(anon, path, etag).status_code == 200
    assert _poll(as_alice, f"{path}?legal=none", etag).status_code == 200
    as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json")    # only a seat row changes
    offered = _poll(as_alice, path, etag)
    assert offered.status_code == 200 and offered.json()["offers"]
    play(as_alice, match_id, "e1-e5", ply=0)
    assert _poll(as_alice, path, offered["ETag"]).status_code == 200
    assert _poll(as_alice, path, f'"x", {as_alice.get(path)["ETag"]}').status_code == 304


def test_match_lists(as_alice, as_bob):
    match_id = start_match(as_alice, as_bob)
    path = "/api/v1/matches/?my_turn=true"
    etag = as_alice.get(path)["ETag"]
    assert _poll(as_alice, path, etag).status_code == 304
    assert _poll(as_alice, "/api/v1/matches/?active=true", etag).status_code == 200
    play(as_alice, match_id, "e1-e5", ply=0)
    changed = _poll(as_alice, path, etag)
    assert changed.status_code == 200 and changed.json()["count"] == 0


def test_events(as_alice, as_bob):
    start_match(as_alice, as_bob)
    last = as_alice.get("/api/v1/events/").json()["last_id"]
    path = f"/api/v1/events/?after={last}"
    etag = as_alice.get(path)["ETag"]
    assert _poll(as_alice, path, etag).status_code == 304
    as_bob.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["alice"]}, format="json")
    fresh = _poll(as_alice, path, etag)
    assert fresh.status_code == 200 and [e["kind"] for e in fresh.json()["results"]] == ["challenge_received"]
