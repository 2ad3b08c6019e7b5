import pytest

import games

pytestmark = pytest.mark.django_db


def test_catalogue_lists_every_game_with_options(anon):
    response = anon.get("/api/v1/games/")
    assert response.status_code == 200
    entries = {g["slug"]: g for g in response.json()}
    assert set(entries) == set(games.GAMES)
    hasami = entries["hasami-shogi"]
    assert hasami["options"]["capture_goal"]["default"] == 5
    assert hasami["options"]["enclosure"]["choices"] == ["none", "corner_only", "edge_groups"]
    assert set(hasami["variants"]) == {"standard", "tenbin"}
    assert "random" in hasami["ai_levels"] and hasami["summary"]


def test_game_detail_and_unknown_game(anon):
    assert anon.get("/api/v1/games/hasami-shogi/").json()["min_players"] == 2
    response = anon.get("/api/v1/games/chess/")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


def test_openapi_schema_and_docs(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/matches/{id}/moves/" in paths or "/api/v1/matches/{pk}/moves/" in paths
    docs = anon.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_schema_generates_without_warnings(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "/api/v1/matches/{id}/moves/" in out.read_text()


def test_catalogue_carries_each_games_option_schema(anon):
    import jsonschema

    for entry in anon.get("/api/v1/games/").json():
        schema = entry["options_schema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert set(schema["properties"]) == set(entry["options"])
    rugby = anon.get("/api/v1/games/ring-rugby/").json()
    assert set(rugby["variants"]) == {"standard", "basic"} and rugby["variant_aliases"] == {"advanced": "standard"}
    repetition = anon.get("/api/v1/games/hasami-shogi/").json()["options"]["repetition"]
    assert (repetition["min"], repetition["max"], repetition["off"]) == (2, 9, 0) and "choices" not in repetition


def test_catalogue_carries_each_games_move_grammar(anon):
    entries = {g["slug"]: g for g in anon.get("/api/v1/games/").json()}
    assert {slug for slug, g in entries.items() if not g["notation"]["legal_moves_complete"]} == {"new-eleusis"}
    kinds = {k["kind"]: k for k in entries["glaisher"]["notation"]["kinds"]}
    assert "e8:5+1/W @e8" in kinds["turn"]["examples"] and kinds["setup"]["listed"]
    rugby = {k["kind"] for k in entries["ring-rugby"]["notation"]["kinds"]}
    assert {"attack", "pass", "goal-in"} <= rugby


def test_match_detail_says_whether_legal_moves_are_complete(as_alice):
    from tests.matches.helpers import start_match

    hasami = as_alice.get(f"/api/v1/matches/{start_match(as_alice, opponents=['ai:random'])}/").json()
    assert hasami["legal_moves_complete"] is True and hasami["grammar"] == "/api/v1/games/hasami-shogi/#/notation"
    eleusis_id = start_match(as_alice, game="new-eleusis", opponents=["ai:random"] * 3)
    eleusis = as_alice.get(f"/api/v1/matches/{eleusis_id}/").json()
    assert eleusis["legal_moves_complete"] is False and eleusis["grammar"].endswith("/new-eleusis/#/notation")


def test_rules_are_served_as_markdown_by_default(anon):
    response = anon.get("/api/v1/games/hasami-shogi/rules/")
    assert response.status_code == 200 and response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content.decode().startswith("# Hasami Shogi")
    entry = anon.get("/api/v1/games/mak-yek/").json()
    assert entry["rules_url"] == "/api/v1/games/mak-yek/rules/" and entry["rules_page"] == "docs/rules/hasami.md"
    for game in anon.get("/api/v1/games/").json():
        assert anon.get(game["rules_url"]).status_code == 200


@pytest.mark.parametrize("query,accept", [("?format=html", "*/*"), ("", "text/html,application/xhtml+xml,*/*;q=0.8")])
def test_rules_are_served_as_html_to_browsers(anon, query, accept):
    response = anon.get(f"/api/v1/games/glaisher/rules/{query}", HTTP_ACCEPT=accept)
    assert response.status_code == 200 and response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert page.startswith("<!DOCTYPE html>") and "<title>Glaisher: rules</title>" in page
    assert "<table>" in page and "<h2" in page and "<pre><code" in page


def test_rules_errors_answer_in_json(anon):
    missing = anon.get("/api/v1/games/chess/rules/", HTTP_ACCEPT="text/html")
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
    odd = anon.get("/api/v1/games/glaisher/rules/?format=pdf")
    assert odd.status_code == 406 and odd.json()["code"] == "not_acceptable"
    unknown = anon.get("/api/v1/games/glaisher/rules/?lang=fr")
    assert unknown.status_code == 400 and unknown.json()["code"] == "invalid_filter"


def test_rules_options_answer_in_json(anon):
    response = anon.options("/api/v1/games/glaisher/rules/?format=html")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"


def test_the_catalogue_shows_each_level_s_measured_strength(client, tmp_path, monkeypatch):
    """From the committed results of bench.levels (ai_workers/engines/strength.json); a game
    without a measurement says null."""
    import json

    from ai_workers.engines import strength

    table = {"games": {"hasami-shogi": {
        "levels": {"random": {"elo": 0.0, "elo_low": 0.0, "elo_high": 0.0, "games": 0, "decision": None},
                   "easy": {"elo": None, "elo_low": 198.0, "elo_high": None, "games": 12, "decision": "H1"},
                   "medium": {"elo": 450.5, "elo_low": 300.0, "elo_high": 700.0, "games": 30, "decision": "H1"}},
        "run": {"command": "python -m bench.levels hasami-shogi --sprt", "date": "2026-11-27",
                "budgets": "nodes", "scale": 0.02, "sprt": {"elo0": 0, "elo1": 100}},
        "pairings": []}}}
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(table))
    monkeypatch.setattr(strength, "PATH", path)
    strength._table.cache_clear()
    try:
        body = client.get("/api/v1/games/hasami-shogi/").json()
        listed = {g["slug"]: g for g in client.get("/api/v1/games/").json()}
    finally:
        strength._table.cache_clear()
    measured = body["level_strength"]
    assert [row["level"] for row in measured["levels"]] == ["random", "easy", "medium"]
    assert measured["kind"] == "elo"
    assert measured["levels"][1] == {"level": "easy", "elo": None, "elo_low": 198.0, "elo_high": None,
                                     "games": 12, "decision": "H1", "walks": None}
    assert measured["run"]["scale"] == 0.02 and measured["run"]["budgets"] == "nodes"
    assert listed["hasami-shogi"]["level_strength"] == measured
    assert listed["glaisher"]["level_strength"] is None


def test_the_committed_strength_file_is_what_the_catalogue_serves(client):
    """ai_workers/engines/strength.json (bench.levels --sprt --strength): every game of the
    catalogue has an entry with its run and a row per level; the games between levels were
    decided by an SPRT or played to its cap, and Pearl Maze's levels have a walk from each
    standard start; GET games/ serves it."""
    from ai_workers.engines import strength

    strength._table.cache_clear()
    table = strength._table()["games"]
    assert set(games.GAMES) <= set(table), "a game of the catalogue has no measured strength"
    for entry, measured in table.items():
        assert entry.partition(":")[0] in games.GAMES
        assert measured["run"]["command"].startswith("python -m bench.levels")
        assert set(measured["levels"]) == {"random", "easy", "medium", "strong"}
        if entry == "pearl-maze":
            assert all(set(row["walks"]) == {"standard", "outside"} for row in measured["levels"].values())
            continue
        cap = measured["run"]["sprt"]["max_games"]
        assert measured["pairings"] and all(
            p["games"] >= 10 and (p["decision"] is not None or p["games"] >= cap) for p in measured["pairings"])
    maze = client.get("/api/v1/games/pearl-maze/").json()["level_strength"]
    assert maze["kind"] == "walk" and maze["levels"][0]["walks"] == table["pearl-maze"]["levels"]["random"]["walks"]
    served = client.get("/api/v1/games/hasami-shogi/").json()["level_strength"]
    assert served["levels"][3]["level"] == "strong"
    assert served["levels"][3]["elo_low"] == table["hasami-shogi"]["levels"]["strong"]["elo_low"]
