"""The match page's parts without a browser: the board marks (last move, captures, direction,
turned), replay positions (refused where hands are hidden), the actions offered, New Eleusis's
table and card picks, the challenge form's defaults and labels, clocks' low mark, rules
Markdown, the rating band."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.utils import timezone

import games
from matches.models import Match
from matches.selectors import catalogue
from matches.selectors.matches import legal_moves_for, match_state
from matches.services import challenges, play
from web.boards import marked_board
from web.chart import rating_chart
from web.forms import choice_label
from web.selectors import low_clock_seconds

pytestmark = pytest.mark.django_db


def _engine_match(client, game: str = "hasami-shogi", **fields) -> int:
    response = client.post("/challenges/", {"game": game, "opponent": "engine", "level": "random", **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    return int(re.fullmatch(r"/matches/(\d+)/", response["Location"]).group(1))


def test_marks_on_the_board_and_the_turned_picture():
    state = games.get_game("hasami-shogi").new_state().play("e1-e5")
    svg = marked_board(state.render_svg(1), last_move="e1-e5", captured=["e9"], turned=True)
    root = ET.fromstring(svg)
    marked = [el.get("data-cell") for el in root.iter() if "last-move" in (el.get("class") or "")]
    assert marked == ["e1", "e5"]
    assert len([el for el in root.iter() if el.get("class") == "captured-mark"]) == 1
    group = next(el for el in root if el.get("class") == "turned")
    assert group.get("transform") == "rotate(180 198 198)"
    assert all("rotate(180" in t.get("transform") for t in group.iter("{http://www.w3.org/2000/svg}text"))
    five = games.get_game("pearl-five").new_state().play("j10")
    move = next(m for m in five.legal_notations() if m[-1] in "NESW")
    arrow = marked_board(five.play(move).render_svg(0), last_move=move)
    assert 'class="last-arrow"' in arrow and "turned" not in marked_board(five.render_svg(0))


def test_a_bare_direction_marks_the_piece_that_moved():
    from web.match_page import board

    yard = games.get_game("pearl-yard").new_state(seed=1).play("N")
    root = ET.fromstring(board(yard, 0, "pearl-yard")["board_svg"])
    assert [el.get("data-cell") for el in root.iter() if el.get("class") == "last-move"] == ["e8"]
    passed = ET.fromstring(board(yard.play("pass"), 0, "pearl-yard")["board_svg"])
    assert not [el for el in passed.iter() if el.get("class") == "last-move"]


def test_replay_positions_and_their_refusals(login, alice):
    client = login(alice)
    pk = _engine_match(client)
    client.post(f"/matches/{pk}/move/", {"move": "e1-e5", "ply": "0"})
    start = client.get(f"/matches/{pk}/position/?ply=0").json()
    assert start["ply"] == 0 and start["last_move"] is None and "<svg" in start["board_svg"]
    first = client.get(f"/matches/{pk}/position/?ply=1").json()
    marked = [el.get("data-cell") for el in ET.fromstring(first["board_svg"]).iter()
              if el.get("class") == "last-move"]
    assert first["last_move"] == "e1-e5" and marked == ["e1", "e5"]
    assert client.get(f"/matches/{pk}/position/?ply=99").json()["ply"] == Match.objects.get(pk=pk).ply
    assert client.get(f"/matches/{pk}/position/?ply=x").status_code == 400
    assert client.get("/matches/999999/position/?ply=0").status_code == 404
    hidden = _engine_match(client, "new-eleusis", players="4")
    refused = client.get(f"/matches/{hidden}/position/?ply=0")
    assert refused.status_code in (400, 409, 422) and "hidden information" in refused.json()["message"]


def test_actions_offered_follow_the_opponents_and_the_game(login, alice, bob):
    client = login(alice)
    pk = _engine_match(client)
    client.post(f"/matches/{pk}/move/", {"move": "e1-e5", "ply": "0"})
    html = client.get(f"/matches/{pk}/").content.decode()
    assert "Offer a draw" in html and "Ask to take back" not in html           # engines never agree
    pending = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"])
    people = challenges.challenge_accept(challenge_id=pending.pk, user=bob).match
    play.move_submit(match_id=people.pk, user=alice, move="e1-e5")
    assert "Ask to take back" in client.get(f"/matches/{people.pk}/").content.decode()
    eleusis = client.get(f"/matches/{_engine_match(client, 'new-eleusis', players='4')}/").content.decode()
    assert "Offer a draw" not in eleusis and "Resign" in eleusis


def test_an_offer_declined_at_once_is_told(login, alice):
    client = login(alice)
    pk = _engine_match(client)
    answer = client.post(f"/matches/{pk}/draw/", {"action": "offer"}, HTTP_ACCEPT="application/json").json()
    assert answer["ok"] and answer["message"] == "engine (random) declined your draw offer."
    assert "engine (random) declined your draw offer." in client.get(f"/matches/{pk}/").content.decode()


@pytest.mark.django_db(transaction=True)         # the engines' replies run on commit
def test_new_eleusis_cards_picked_from_the_hand_are_played(login, alice):
    client = login(alice)
    pk = _engine_match(client, "new-eleusis", players="4")
    match = Match.objects.get(pk=pk)
    seat = match.seats.get(user=alice).seat
    assert match.to_move == seat          # the engines have moved (in-process) up to alice's turn
    view = match_state(match).view(seat)
    html = client.get(f"/matches/{pk}/").content.decode()
    assert re.findall(r'name="card" value="([^"]+)"', html) == view["hand"]
    table = html.split('class="eleusis"', 1)[1].split("</fieldset>", 1)[0]
    assert "hands 0:" not in table and "to move" not in table          # no debugging text on the table
    card = next(m for m in legal_moves_for(match, seat) if re.fullmatch(r"play \S+", m)).split()[1]
    client.post(f"/matches/{pk}/move/", {"card": [card], "cards_order": "", "declare": "", "ply": str(match.ply)})
    assert match.moves.filter(seat=seat).first().notation == f"play {card}"


def test_the_challenge_form_defaults_and_readable_option_values(login, alice):
    html = login(alice).get("/").content.decode()
    assert re.search(r'<option value="hasami-shogi" selected>', html)
    assert re.search(r'<option value="easy" selected>', html)
    assert '<option value="ortho_diag" selected>orthogonal and diagonal</option>' in html
    assert choice_label("corner_only") == "corner only" and choice_label("orth_leg") == "orthogonal leg"


def test_a_clock_is_low_under_a_quarter_of_a_turn():
    assert low_clock_seconds({"kind": "per_move", "days": 1}) == 6 * 3600
    assert low_clock_seconds({"kind": "per_move", "days": 7}) == 86400
    assert low_clock_seconds({"kind": "fischer", "initial_days": 1, "increment_days": 1, "max_days": 2}) == 12 * 3600
    assert low_clock_seconds(None) == 86400


def test_rules_markdown_keeps_lists_apart_and_nested():
    html, _ = catalogue.rules_html("Three tests:\n- **a** one\n  - nested\n- **b** two\n\n```\n  - code\n```\n")
    assert "<p>Three tests:</p>\n<ul>" in html and "- **" not in html
    assert re.search(r"<li><strong>a</strong> one<ul>\s*<li>nested</li>", html)
    assert "  - code" in html


def test_a_family_members_rules_page_opens_at_its_section(client):
    html = client.get("/games/pearl-five/rules/").content.decode()
    assert 'data-section="4-pearl-five"' in html
    assert "Section numbers below are stable" not in re.sub(r"<!--.*?-->", "", html, flags=re.DOTALL)
    assert "<h1" in html and "`pearl-five`" not in html and "<code>pearl-five</code>:" not in html


def test_the_rating_band_starts_once_established():
    now = timezone.now()
    one = [{"match": 1, "date": now, "rating_before": 1500, "rating_after": 1620,
            "deviation_before": 350, "deviation_after": 290}]
    assert "deviation-band" not in rating_chart(one, chart_id="c", title="t", band_below=110)
    assert "deviation-band" in rating_chart(one, chart_id="c", title="t")
