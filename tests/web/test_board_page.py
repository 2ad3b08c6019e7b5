"""The analysis board page (docs/analysis.md, "The analysis board"): a line from a game's start
or a finished match's ply, played on the board, the engine's lines asked and shown; the same
refusals as the API; and in Debian's Chromium under the site's CSP (scripts from static files)."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

import games
from matches.models import PositionAnalysis
from matches.services import challenges, play, results
from tests.web.browsing import log_in

pytestmark = pytest.mark.django_db


def _finished(alice, bob) -> int:
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"])
    match = challenges.challenge_accept(challenge_id=pending.pk, user=bob).match
    play.move_submit(match_id=match.pk, user=alice, move="e1-e5", ply=0)
    play.move_submit(match_id=match.pk, user=bob, move="a9-a8", ply=1)
    results.match_resign(match_id=match.pk, user=bob)
    return match.pk


def test_the_page_shows_the_position_after_the_line(client):
    page = client.get("/board/?game=hasami-shogi&m=e1-e5&m=a9-a8")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ply 2, seat 0 to move." in html and "<svg" in html
    state = games.get_game("hasami-shogi").replay(moves=["e1-e5", "a9-a8"])
    assert page.context["legal_moves"] == state.legal_notations()
    assert 'src="/static/web/board_page.js"' in html.replace("'", '"') or "board_page.js" in html
    assert "<script>" not in html                       # no inline script (CSP)
    assert "Log in</a> to ask the engine" in html


def test_a_finished_match_at_a_ply_and_refusals(client, alice, bob):
    pk = _finished(alice, bob)
    page = client.get(f"/board/?match={pk}&ply=1&m=b9-b8")
    assert page.status_code == 200 and page.context["moves"] == ["b9-b8"] and page.context["ply"] == 2
    assert client.get(f"/board/?match={pk}&ply=9").status_code == 404
    assert client.get("/board/?game=hasami-shogi&m=e1-e9").status_code == 404
    position = client.get(f"/board/position/?match={pk}&ply=0&m=d1-d5").json()
    assert position["ply"] == 1 and position["seat"] == 1 and "d1-d5" not in position["legal_moves"]
    refused = client.get("/board/position/?game=hasami-shogi&m=zz")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_move"


def test_asking_without_javascript_comes_back_with_the_answer(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post("/board/ask/", {"game": "hasami-shogi", "m": ["e1-e5"], "level": "easy", "lines": "2"})
    row = PositionAnalysis.objects.get()
    assert asked.status_code == 302 and asked["Location"].endswith(f"&position={row.pk}")
    page = client.get(asked["Location"])
    assert page.context["answer"]["status"] == "done" and len(page.context["answer"]["lines"]) == 2
    assert page.context["answer"]["lines"][0]["move"] in page.content.decode()
    as_json = client.post("/board/ask/", {"game": "hasami-shogi", "m": ["e1-e5"], "level": "easy", "lines": "2"},
                          HTTP_ACCEPT="application/json").json()
    assert as_json["ok"] and as_json["position"]["id"] == row.pk          # the stored answer
    assert client.get(f"/board/answers/{row.pk}/").json()["lines"] == page.context["answer"]["lines"]


def test_the_page_refuses_help_in_a_live_game(client, alice, bob):
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"])
    challenges.challenge_accept(challenge_id=pending.pk, user=bob)
    client.force_login(bob)
    refused = client.post("/board/ask/", {"game": "hasami-shogi", "level": "easy"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["code"] == "live_game_position"
    again = client.post("/board/ask/", {"game": "hasami-shogi", "level": "easy"}, follow=True)
    assert "no engine help in a live game" in again.content.decode()
    assert PositionAnalysis.objects.count() == 0


def test_anonymous_visitors_are_sent_to_log_in_to_ask(client):
    response = client.post("/board/ask/", {"game": "hasami-shogi"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_play_a_line_on_the_board_and_ask_the_engine(new_page, alice):
    page = new_page()
    log_in(page, alice)
    page.goto("/board/?game=hasami-shogi")
    expect(page.locator("#line-status")).to_have_text("Ply 0, seat 0 to move.")
    page.locator('#board [data-cell="e1"]').click()
    page.locator('#board [data-cell="e5"]').click()
    expect(page.locator("#line-moves li")).to_have_text(["e1-e5"])
    expect(page.locator("#line-status")).to_have_text("Ply 1, seat 1 to move.")
    page.select_option("#ask-level", "easy")
    page.get_by_role("button", name="Ask the engine").click()
    lines = page.locator(".engine-lines > li")
    expect(lines).to_have_count(3)
    first = PositionAnalysis.objects.get().result["lines"][0]["move"]
    page.get_by_role("button", name=f"Play {first} on the board").click()
    expect(page.locator("#line-moves li")).to_have_text(["e1-e5", first])
    page.get_by_role("button", name="One move back").click()
    expect(page.locator("#line-moves li")).to_have_text(["e1-e5"])
    assert "m=e1-e5" in page.url


def test_the_match_page_shows_a_mistake_s_better_moves_with_links_to_the_board(client, alice, bob):
    from matches.models import Analysis

    pk = _finished(alice, bob)
    row = {"ply": 2, "seat": 1, "played": "a9-a8", "best": "b9-b5", "value": 0.2, "value_before": 0.2,
           "value_after": -0.1, "loss": 0.3, "classification": "blunder", "accuracy": 10.0,
           "pv": ["b9-b5"], "nodes": 9,
           "candidates": [{"move": "b9-b5", "value": 0.2, "pv": ["b9-b5", "c1-c4"]},
                          {"move": "c9-c6", "value": 0.1, "pv": ["c9-c6"]}]}
    Analysis.objects.create(match_id=pk, requested_by=alice, level="easy", upto_ply=2, status="done",
                            results=[{**row, "ply": 1, "seat": 0, "played": "e1-e5", "classification": "best",
                                      "loss": 0.0, "candidates": []}, row])
    html = client.get(f"/matches/{pk}/").content.decode()
    assert "Better moves" in html and "c9-c6" in html
    assert f"/board/?match={pk}&amp;ply=1&amp;m=b9-b5&amp;m=c1-c4" in html
    assert f'href="/board/?match={pk}" id="board-link"' in html
    board = client.get(f"/board/?match={pk}&ply=1&m=b9-b5&m=c1-c4")
    assert board.status_code == 200 and board.context["ply"] == 3


def test_the_games_page_shows_measured_levels_and_links_the_board(client):
    from ai_workers.engines.strength import measured

    html = client.get("/games/").content.decode()
    strong = measured("hasami-shogi")["levels"]["strong"]
    shown = f"strong ≥ {strong['elo_low']:.0f}" if strong["elo"] is None else f"strong {strong['elo']:.0f} ["
    assert "Engine levels, Elo above random" in html and shown in html
    assert f"measured at {measured('hasami-shogi')['run']['scale']:g} × the levels' time budgets (as nodes)" in html
    walks = measured("pearl-maze")["levels"]["strong"]["walks"]
    assert "the walk each finds from the standard starts" in html
    assert f"strong {walks['standard']} (standard) · {walks['outside']} (outside)" in html
    assert '/board/?game=hasami-shogi">Analysis board</a>' in html
    assert '/board/?game=new-eleusis' not in html             # hidden information: no board


def test_the_board_in_japanese(client, alice):
    html = client.get("/board/?game=hasami-shogi&m=e1-e5", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<title>解析盤: はさみ将棋" in html and "1 手目、席 1 の手番です。" in html
    assert "エンジンの候補を" not in html and "ログイン</a> するとエンジンに聞けます。" in html
    assert ">はさみ将棋</a></li>" in html                       # the game list names the games in Japanese
    assert "Ply 1, seat 1 to move." not in html and "Analysis board" not in html
    # The script's words come with the page (web/context.py → strings.js), in its language.
    strings = json.loads(re.search(r'<script id="page-strings" type="application/json">(.*?)</script>', html)[1])
    assert strings["board_to_move"] == "%(ply)s 手目、席 %(seat)s の手番です。"
    assert strings["board_play_move"] == "盤上で %(move)s を指す"
    assert strings["board_thinking"] == "エンジンが考えています (%(status)s)…" and strings["board_status_queued"] == "待機中"


def test_a_thinking_time_that_is_no_number_is_refused_in_the_page_s_language(client, alice):
    client.force_login(alice)
    ask = {"game": "hasami-shogi", "level": "easy", "seconds": "soon"}
    refused = client.post("/board/ask/", ask, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json() == {
        "ok": False, "code": "invalid_budget", "message": "The thinking time is a number of seconds."}
    refused = client.post("/board/ask/", ask, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.json()["message"] == "思考時間は秒数で指定してください。"
    page = client.post("/board/ask/", ask, HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert "思考時間は秒数で指定してください。" in page.content.decode()
    assert PositionAnalysis.objects.count() == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_board_s_script_writes_japanese(new_page, alice):
    page = new_page()
    log_in(page, alice)
    page.goto("/board/?game=hasami-shogi")
    page.locator("#site-language").select_option("ja")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#line-status")).to_have_text("0 手目、席 0 の手番です。")
    page.locator('#board [data-cell="e1"]').click()
    page.locator('#board [data-cell="e5"]').click()
    expect(page.locator("#line-status")).to_have_text("1 手目、席 1 の手番です。")    # written by the script
    page.select_option("#ask-level", "easy")
    page.get_by_role("button", name="エンジンに聞く").click()
    expect(page.locator(".engine-lines > li")).to_have_count(3)
    expect(page.locator("#answer > p")).to_contain_text("強さ easy、")
    first = PositionAnalysis.objects.get().result["lines"][0]["move"]
    page.get_by_role("button", name=f"盤上で {first} を指す").click()
    expect(page.locator("#line-moves li")).to_have_text(["e1-e5", first])
    expect(page.locator("#line-status")).to_have_text("2 手目、席 0 の手番です。")
