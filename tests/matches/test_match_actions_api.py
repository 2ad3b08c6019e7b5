import pytest

from matches.models import Match

from .helpers import play, snapshot, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_id(as_alice, as_bob):
    return start_match(as_alice, as_bob)


def test_resign(as_alice, as_bob, as_carol, match_id):
    assert as_carol.post(f"/api/v1/matches/{match_id}/resign/").json()["code"] == "not_seated"
    body = as_bob.post(f"/api/v1/matches/{match_id}/resign/").json()
    assert body["status"] == "finished"
    assert body["result"] == {"winners": [0], "scores": [1.0, 0.0], "termination": "resignation"}


def test_draw_offer_accept(as_alice, as_bob, match_id):
    nothing = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "accept"}, format="json")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_offer"
    offered = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json").json()
    assert offered["status"] == "active"
    done = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "accept"}, format="json").json()
    assert done["status"] == "finished" and done["result"]["termination"] == "agreement"
    assert done["result"]["scores"] == [0.5, 0.5] and done["result"]["winners"] == []


def test_draw_decline_and_a_move_cancels_offers(as_alice, as_bob, match_id):
    as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json")
    declined = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "decline"}, format="json")
    assert declined.status_code == 200 and declined.json()["status"] == "active"
    as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json")
    play(as_alice, match_id, "e1-e5", ply=0)
    stale = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "accept"}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "no_offer"
    bad = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error"


def test_engines_never_agree_to_draws(as_alice):
    match_id = start_match(as_alice, opponents=["ai:random"])
    body = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json").json()
    assert body["status"] == "active"


def test_abort_only_at_the_start(as_alice, as_bob, match_id):
    play(as_alice, match_id, "e1-e5", ply=0)
    aborted = as_bob.post(f"/api/v1/matches/{match_id}/abort/").json()
    assert aborted["status"] == "aborted" and aborted["result"]["termination"] == "aborted"
    other = start_match(as_alice, as_bob)
    play(as_alice, other, "e1-e5", ply=0)
    play(as_bob, other, "a9-a8", ply=1)
    late = as_alice.post(f"/api/v1/matches/{other}/abort/")
    assert late.status_code == 409 and late.json()["code"] == "too_late_to_abort"


def test_takeback_between_people(as_alice, as_bob, match_id):
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    before = snapshot(match_id)
    as_alice.post(f"/api/v1/matches/{match_id}/takeback/", {}, format="json")
    assert snapshot(match_id)[:2] == before[:2]             # only an offer so far
    done = as_bob.post(f"/api/v1/matches/{match_id}/takeback/", {"action": "accept"}, format="json").json()
    assert done["ply"] == 0 and done["to_move"] == 0
    assert as_alice.get(f"/api/v1/matches/{match_id}/moves/").json() == []
    play(as_alice, match_id, "d1-d5", ply=0)


def test_nobody_asks_an_engine_to_take_back(as_alice, django_capture_on_commit_callbacks):
    """Engines never agree to take moves back: the request is refused, and the match says so."""
    match_id = start_match(as_alice, opponents=["ai:random"])
    with django_capture_on_commit_callbacks(execute=True):
        play(as_alice, match_id, "e1-e5", ply=0)
    assert Match.objects.get(pk=match_id).ply == 2
    events = len(as_alice.get("/api/v1/events/").json()["results"])
    response = as_alice.post(f"/api/v1/matches/{match_id}/takeback/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "takeback_against_engine"
    assert Match.objects.get(pk=match_id).ply == 2 and not Match.objects.get(pk=match_id).seats.exclude(offer="")
    assert len(as_alice.get("/api/v1/events/").json()["results"]) == events
    capability = as_alice.get(f"/api/v1/matches/{match_id}/").json()["capabilities"]["offer_takeback"]
    assert capability == {"allowed": False, "code": "takeback_against_engine",
                          "message": "engines never agree to take moves back"}


def test_takeback_needs_a_move_of_the_asker(as_alice, as_bob, match_id):
    response = as_alice.post(f"/api/v1/matches/{match_id}/takeback/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_take_back"
    assert not Match.objects.get(pk=match_id).seats.exclude(offer="").exists()
    play(as_alice, match_id, "e1-e5", ply=0)
    late = as_bob.post(f"/api/v1/matches/{match_id}/takeback/", {}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "nothing_to_take_back"


def test_offers_show_in_the_match_and_the_maker_may_withdraw(as_alice, as_bob, as_carol, match_id):
    play(as_alice, match_id, "e1-e5", ply=0)
    offered = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json").json()
    assert offered["offers"] == [{"kind": "draw", "seat": 0, "ply": 1}]
    assert as_carol.get(f"/api/v1/matches/{match_id}/").json()["offers"] == offered["offers"]
    again = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_offered"
    theirs = as_bob.post(f"/api/v1/matches/{match_id}/draw/", {"action": "withdraw"}, format="json")
    assert theirs.status_code == 409 and theirs.json()["code"] == "no_offer"
    gone = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {"action": "withdraw"}, format="json").json()
    assert gone["offers"] == [] and gone["status"] == "active"
    kinds = [e["kind"] for e in as_bob.get("/api/v1/events/").json()["results"]]
    assert kinds[-2:] == ["offer_made", "offer_withdrawn"]


def test_solo_match_has_nobody_to_offer_to(as_alice):
    import games

    solo = next(slug for slug, g in games.GAMES.items() if g.max_players == 1)
    match_id = start_match(as_alice, game=solo, opponents=[])
    response = as_alice.post(f"/api/v1/matches/{match_id}/draw/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "no_opponent"


def test_the_match_detail_says_what_the_caller_may_do(anon, as_alice, as_bob, as_carol, match_id):
    from matches.selectors.capabilities import CAPABILITIES

    url = f"/api/v1/matches/{match_id}/"
    mine = as_alice.get(url).json()["capabilities"]
    assert set(mine) == set(CAPABILITIES)
    assert mine["move"] == {"allowed": True, "code": None, "message": None}
    assert mine["abort"]["allowed"] and mine["resign"]["allowed"] and mine["offer_draw"]["allowed"]
    assert mine["offer_takeback"]["code"] == "nothing_to_take_back"
    assert mine["analyse"]["code"] == "match_in_progress" and mine["read_analysis"]["allowed"]
    assert as_bob.get(url).json()["capabilities"]["move"]["code"] == "not_your_turn"
    assert as_carol.get(url).json()["capabilities"]["resign"]["code"] == "not_seated"
    assert anon.get(url).json()["capabilities"]["resign"]["code"] == "not_authenticated"
    play(as_alice, match_id, "e1-e5", ply=0)
    play(as_bob, match_id, "a9-a8", ply=1)
    after = as_alice.get(url).json()["capabilities"]
    assert after["abort"]["code"] == "too_late_to_abort" and after["offer_takeback"]["allowed"]
    refused = as_alice.post(f"/api/v1/matches/{match_id}/abort/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == after["abort"]["code"]


def test_the_schema_declares_the_capabilities(anon):
    from matches.selectors.capabilities import CAPABILITIES, DENIAL_CODES

    components = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["components"]
    detail = components["schemas"]["MatchDetailOut"]["properties"]["capabilities"]
    ref = (detail.get("$ref") or detail["allOf"][0]["$ref"]).rsplit("/", 1)[1]
    assert set(components["schemas"][ref]["properties"]) == set(CAPABILITIES)
    capability = components["schemas"]["CapabilityOut"]["properties"]
    assert set(capability) == {"allowed", "code", "message"}
    code = capability["code"]
    enum = code.get("enum") or components["schemas"][(code.get("$ref") or code["oneOf"][0]["$ref"]).rsplit("/", 1)[1]]["enum"]
    assert set(DENIAL_CODES) <= set(enum)
