"""English and Japanese: the pages choose by the switcher (cookie and preferences), else
Accept-Language; `<html lang>` says which; times are the player's own; the API keeps its error codes
and words its messages in the Accept-Language; the catalogue names everything in Japanese too."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

import games
from games.names_ja import JA
from notifications.models import Preferences

pytestmark = pytest.mark.django_db
COOKIE = "pearlsite_language"


def _lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)">', html).group(1)


# --- the pages ----------------------------------------------------------------------------------
def test_english_without_a_choice_and_japanese_by_accept_language(client):
    english = client.get("/games/").content.decode()
    assert _lang(english) == "en" and "<h1>Games</h1>" in english and "Hasami Shogi" in english
    japanese = client.get("/games/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5").content.decode()
    assert _lang(japanese) == "ja" and "<h1>ゲーム</h1>" in japanese
    assert "はさみ将棋" in japanese and "天秤 (はさみ天秤端落とし) (tenbin)" in japanese
    assert "Hasami Shogi" not in japanese
    # A language the site does not have falls back to English.
    assert _lang(client.get("/games/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == "en"


def test_the_switcher_sets_the_cookie_and_goes_back(client):
    response = client.post("/language/", {"language": "ja", "next": "/games/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/games/"
    assert response.cookies[COOKIE].value == "ja"
    # The cookie outranks the browser's Accept-Language.
    assert _lang(client.get("/games/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "ja"
    client.post("/language/", {"language": "en", "next": "/"})
    assert _lang(client.get("/games/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()) == "en"


def test_the_switcher_refuses_an_unknown_language_and_a_foreign_next(client):
    refused = client.post("/language/", {"language": "fr", "next": "/games/"})
    assert refused.status_code == 400 and COOKIE not in refused.cookies
    away = client.post("/language/", {"language": "ja", "next": "https://evil.example/"})
    assert away.status_code == 302 and away["Location"] == "/"
    assert client.get("/language/").status_code == 405


def test_a_signed_in_choice_is_remembered_in_the_preferences(client, login, alice):
    login(alice).post("/language/", {"language": "ja", "next": "/"})
    assert Preferences.objects.get(user=alice).language == "ja"
    # Another browser (no cookie, an English Accept-Language): the saved language wins and is
    # set as the cookie.
    client.cookies.clear()
    login(alice)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert _lang(response.content.decode()) == "ja" and response.cookies[COOKIE].value == "ja"
    assert "<h1>ロビー</h1>" in response.content.decode()


def test_the_settings_page_chooses_the_language_too(client, login, alice):
    login(alice)
    page = client.get("/settings/notifications/").content.decode()
    assert 'name="language"' in page and "Language of the pages" in page
    form = {"time_zone": "Asia/Tokyo", "digest": "none", "digest_hour": "8", "digest_weekday": "0", "language": "ja"}
    response = client.post("/settings/notifications/preferences/", form)
    assert response.status_code == 302 and response.cookies[COOKIE].value == "ja"
    prefs = Preferences.objects.get(user=alice)
    assert (prefs.language, prefs.time_zone) == ("ja", "Asia/Tokyo")
    assert "設定を保存しました。" in client.get("/settings/notifications/").content.decode()


def test_times_are_shown_in_the_players_time_zone(client, login, alice):
    Preferences.objects.create(user=alice, time_zone="Asia/Tokyo", language="ja")
    login(alice)
    response = client.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random",
                                            "clock": "per_move", "days_per_move": "3"})
    deadline = timezone.now() + timedelta(days=3)
    page = client.get(response["Location"]).content.decode()
    local = timezone.localtime(deadline, timezone=__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    assert f'{local:%Y-%m-%d} ' in page and " JST" in page and " UTC\"" not in page
    assert "あなたの番" in page and "棋譜" in page


def test_anonymous_times_stay_in_utc(client, login, alice):
    login(alice)
    response = client.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random",
                                            "clock": "per_move", "days_per_move": "3"})
    page = client.get(response["Location"]).content.decode()
    assert " UTC\"" in page and " JST" not in page


def test_a_refusal_on_a_page_is_worded_in_japanese(client, login, alice):
    login(alice)
    response = client.post("/challenges/", {"game": "hasami-shogi", "opponent": "engine", "level": "random"},
                           HTTP_ACCEPT_LANGUAGE="ja")
    match = response["Location"]
    refused = client.post(f"{match}move/", {"move": "a1-a9", "ply": "0"}, HTTP_ACCEPT_LANGUAGE="ja",
                          HTTP_ACCEPT="application/json")
    body = refused.json()
    assert refused.status_code == 400 and body["code"] == "illegal_move"
    assert body["message"] == "この局面ではその手は指せません"


def test_japanese_rules_page(client):
    html = client.get("/games/hasami-shogi/rules/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert _lang(html) == "ja" and "<title>はさみ将棋：ルール · Pearlsite</title>" in html
    assert "天秤" in html and 'href="/api/v1/games/hasami-shogi/rules/?lang=ja"' in html
    assert 'href="/games/mak-yek/rules/">マークエク</a>' in html
    # A Japanese paragraph's line breaks are no spaces; its headings keep their words in their ids.
    assert "除かれることはないので" in html and 'id="3-はさみ将棋のルール"' in html
    api = client.get("/api/v1/games/hasami-shogi/rules/?lang=ja&format=html").content.decode()
    assert re.search(r"<body>\n(.*)\n</body>", api, re.DOTALL).group(1) in html


# --- the API ------------------------------------------------------------------------------------
def test_api_error_codes_never_change_and_messages_follow_accept_language(anon):
    english = anon.get("/api/v1/games/chess/")
    japanese = anon.get("/api/v1/games/chess/", HTTP_ACCEPT_LANGUAGE="ja")
    assert english.status_code == japanese.status_code == 404
    assert english.json()["code"] == japanese.json()["code"] == "game_not_found"
    assert english.json()["message"] == "no game 'chess'"
    assert japanese.json()["message"] == "このスラッグのゲームはありません"
    assert japanese["Content-Language"] == "ja" and "Accept-Language" in japanese["Vary"]


def test_api_validation_and_rules_errors_in_japanese(as_alice):
    bad = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"],
                                                  "options": {"capture_goal": "5"}},
                        format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_options"
    assert bad.json()["message"].startswith("オプションが不明か")
    assert bad.json()["detail"]["option"] == "capture_goal"
    english = as_alice.post("/api/v1/challenges/", {"game": "hasami-shogi", "opponents": ["ai:random"],
                                                      "options": {"capture_goal": "5"}},
                            format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["code"] == "invalid_options" and english.json()["message"].isascii()
    missing = as_alice.post("/api/v1/challenges/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert missing.json()["code"] == "validation_error"
    assert missing.json()["message"] == "本文のフィールドが正しくありません (detail に名前があります)"
    assert missing.json()["detail"]["game"] == ["この項目は必須です。"]      # DRF's own Japanese


def test_a_code_with_more_than_one_reason_says_which_in_japanese(as_alice, as_bob):
    """`invalid_ply` is raised for a ply past the match's end and for a ply without a match: each
    sentence is translated itself, so the Japanese message gives the same reason as the English."""
    from tests.matches.helpers import play, start_match

    match_id = start_match(as_alice, as_bob)
    play(as_alice, match_id, "e1-e5", ply=0)
    as_bob.post(f"/api/v1/matches/{match_id}/resign/")
    said = {}
    for language in ("en", "ja"):
        for name, body in (("past the end", {"match": match_id, "ply": 2}),
                           ("without a match", {"game": "hasami-shogi", "ply": 1})):
            response = as_alice.post("/api/v1/positions/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 400 and response.json()["code"] == "invalid_ply"
            said[language, name] = response.json()["message"]
    assert said["en", "past the end"] == "the ply is between 0 and 1"
    assert said["ja", "past the end"] == "手数は 0 から 1 までです"
    assert said["en", "without a match"].startswith("`ply` goes with `match`")
    assert said["ja", "without a match"].startswith("`ply` は `match` と一緒に指定します")


def test_every_api_error_code_has_a_japanese_message():
    import polib

    from matches.errors import CODES
    from tests.i18n.test_translations import PO

    translated = {e.msgid: e.msgstr for e in polib.pofile(str(PO))}
    for code, (_, meaning) in CODES.items():
        assert translated.get(meaning), code


def test_the_catalogue_names_every_game_variant_and_option_in_japanese(anon):
    listing = anon.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert {entry["slug"] for entry in listing} == set(games.GAMES) == set(JA)
    for entry in listing:
        ja = entry["ja"]
        assert ja["title"] and ja["summary"] and not ja["title"].isascii()
        assert set(ja["variants"]) == set(entry["variants"])
        assert set(ja["options"]) == set(entry["options"])
        for named in [*ja["variants"].values(), *ja["options"].values()]:
            assert named["name"] and named["summary"]
    hasami = anon.get("/api/v1/games/hasami-shogi/").json()
    assert hasami["title"] == "Hasami Shogi" and hasami["ja"]["title"] == "はさみ将棋"
    assert "天秤" in hasami["ja"]["variants"]["tenbin"]["name"]
    assert hasami["ja"]["options"]["hashi_otoshi"]["name"] == "端落とし"


def test_the_schema_documents_the_japanese_catalogue(anon):
    schema = anon.get("/api/schema/?format=json").json()
    game = schema["components"]["schemas"]["GameOut"]["properties"]
    assert "ja" in game
    japanese = schema["components"]["schemas"]["JapaneseOut"]["properties"]
    assert set(japanese) == {"title", "summary", "variants", "options"}
    rules = schema["paths"]["/api/v1/games/{slug}/rules/"]["get"]
    lang = next(p for p in rules["parameters"] if p["name"] == "lang")
    assert lang["schema"]["enum"] == ["en", "ja"]


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_the_rules_in_japanese_by_parameter_or_header(anon, slug):
    english = anon.get(f"/api/v1/games/{slug}/rules/")
    by_param = anon.get(f"/api/v1/games/{slug}/rules/?lang=ja")
    by_header = anon.get(f"/api/v1/games/{slug}/rules/", HTTP_ACCEPT_LANGUAGE="ja")
    assert english.status_code == by_param.status_code == by_header.status_code == 200
    assert english["Content-Language"] == "en" and by_param["Content-Language"] == "ja"
    assert by_param.content == by_header.content != english.content
    text = by_param.content.decode()
    assert f"`{slug}`" in text and "```record" in text
    # ?lang=en wins over the header.
    assert anon.get(f"/api/v1/games/{slug}/rules/?lang=en", HTTP_ACCEPT_LANGUAGE="ja").content == english.content
    html = anon.get(f"/api/v1/games/{slug}/rules/?lang=ja&format=html").content.decode()
    assert '<html lang="ja">' in html and "：ルール</title>" in html


def test_an_unknown_rules_language_is_refused(anon):
    response = anon.get("/api/v1/games/hasami-shogi/rules/?lang=fr")
    assert response.status_code == 400 and response.json()["code"] == "invalid_filter"
    assert response.json()["detail"] == {"parameter": "lang"}


def test_the_preferences_api_takes_the_language(as_alice):
    assert as_alice.get("/api/v1/accounts/me/notifications/").json()["language"] == ""
    response = as_alice.patch("/api/v1/accounts/me/notifications/", {"language": "ja"}, format="json")
    assert response.status_code == 200 and response.json()["language"] == "ja"
    refused = as_alice.patch("/api/v1/accounts/me/notifications/", {"language": "xx"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_language"
    assert as_alice.get("/api/v1/accounts/me/notifications/").json()["language"] == "ja"
