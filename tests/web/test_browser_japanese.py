"""The site in Japanese in a real browser (Debian's Chromium through Playwright): switch the
language, sign up, challenge the engine, play a move and see the reply, read a rules page: every
Japanese character on the way is drawn by a font that has it (no tofu boxes), and screenshots are
taken ($PEARLSITE_SCREENSHOTS, `make screenshots`: var/screenshots/)."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from playwright.sync_api import expect

from matches.models import Match
from notifications.models import Preferences

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PEARLSITE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _font_files() -> dict[str, str]:
    """Font family name → file, as fontconfig (which Chromium asks) knows them."""
    listing = subprocess.run(["fc-list", "-f", "%{family}\t%{file}\n"], capture_output=True, text=True,
                             check=True).stdout
    files = {}
    for line in listing.splitlines():
        families, _, path = line.partition("\t")
        for family in families.split(","):
            files.setdefault(family.strip(), path)
    return files


def _drawn_without_tofu(page, selector: str) -> list[str]:
    """The fonts Chromium drew the element's text with (DevTools' CSS.getPlatformFontsForNode),
    after checking that each Japanese character of the text is in the character map of one of them:
    a character no used font has would be drawn as a box."""
    text = page.locator(selector).first.inner_text()
    wanted = set(JAPANESE.findall(text))
    assert wanted, f"no Japanese text in {selector}: {text!r}"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    files = _font_files()
    covered: set[str] = set()
    for font in fonts:
        path = files.get(font["familyName"])
        if path:
            covered |= {chr(code) for code in TTFont(path, fontNumber=0).getBestCmap()} & wanted
    assert wanted <= covered, (sorted(wanted - covered), fonts)
    return [font["familyName"] for font in fonts]


def test_sign_up_play_and_read_the_rules_in_japanese(new_page, shots):
    page = new_page()
    page.goto("/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("#site-language").select_option("ja")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("heading", level=1)).to_have_text("登録")
    page.get_by_label("ユーザー名").fill("hanako")
    page.get_by_label("パスワード", exact=True).fill("long-enough-pw")
    page.get_by_label("パスワード (確認)").fill("long-enough-pw")
    page.get_by_role("button", name="アカウントを作る").click()
    expect(page.get_by_role("heading", name="ロビー")).to_be_visible()
    # The choice made before signing up is the new account's too once it switches again.
    page.locator("#site-language").select_option("ja")
    page.get_by_role("button", name="切り替え").click()
    assert Preferences.objects.get(user__username="hanako").language == "ja"
    families = _drawn_without_tofu(page, "h1")
    page.screenshot(path=str(shots / "ja-lobby.png"), full_page=True)

    page.get_by_label("ゲーム", exact=True).select_option("hasami-shogi")
    expect(page.locator("fieldset[data-game=hasami-shogi] legend")).to_have_text("はさみ将棋")
    page.locator("[name='level']:visible").select_option("random")
    page.get_by_role("button", name="挑戦", exact=True).click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("h1")).to_contain_text("はさみ将棋")
    expect(page.locator("#region-play")).to_contain_text("あなたの番")
    page.locator('[data-cell="e1"]').click()
    page.locator('[data-cell="e5"]').click()
    moves = page.locator("#move-list li")
    expect(moves).to_have_count(2)                      # mine and the engine's reply, live
    expect(moves.first).to_contain_text("e1-e5")
    expect(moves.nth(1)).to_contain_text("エンジン (random)")
    assert Match.objects.get().ply == 2
    _drawn_without_tofu(page, "#region-status")
    page.screenshot(path=str(shots / "ja-match.png"), full_page=True)

    page.get_by_role("link", name="はさみ将棋 のルール").click()
    expect(page).to_have_title("はさみ将棋：ルール · Pearlsite")
    expect(page.locator("#rules h1")).to_have_text("はさみ将棋とその仲間")
    contents = page.get_by_role("navigation", name="目次")
    contents.get_by_role("link", name="3. はさみ将棋のルール").click()
    assert page.url.endswith("#3-はさみ将棋のルール") or "%E3%81%AF" in page.url
    expect(page.locator("#rules")).to_contain_text("天秤")
    rules_fonts = _drawn_without_tofu(page, "#rules")
    page.screenshot(path=str(shots / "ja-rules.png"))
    assert any("IPA" in family for family in families + rules_fonts), (families, rules_fonts)
