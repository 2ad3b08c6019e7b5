"""An accessibility pass with axe-core (axe-playwright-python) in Debian's Chromium: no serious or
critical violation on the lobby, a match page of every game (light and dark), a rules page, a
leaderboard and a player page."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

import games
from matches.services import challenges, results
from tests.web.browsing import engine_match, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
BLOCKING = ("serious", "critical")


def _problems(page) -> list[str]:
    violations = Axe().run(page).response["violations"]
    return [f"{page.url}: {v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:3])
            for v in violations if v["impact"] in BLOCKING]


def test_no_serious_or_critical_violations(new_page, alice, bob):
    # Every row is written before a page opens: the live server's long polls then only read.
    matches = {slug: engine_match(alice, slug, moves=3) for slug in sorted(games.GAMES)}
    rated = challenges.challenge_create(creator=alice, game="hasami-shogi", opponents=["bob"], rated=True,
                                        days_per_move=3)
    results.match_resign(match_id=challenges.challenge_accept(challenge_id=rated.pk, user=bob).match.pk, user=bob)
    page = new_page()
    log_in(page, alice)
    problems = _problems(page)
    for pk in matches.values():
        page.goto(f"/matches/{pk}/")
        page.emulate_media(color_scheme="light")
        problems += _problems(page)
        page.emulate_media(color_scheme="dark")
        problems += _problems(page)
    page.emulate_media(color_scheme="light")
    for path in ("/games/", "/games/pearl-five/rules/", "/games/hasami-shogi/leaderboard/", "/players/alice/"):
        page.goto(path)
        problems += _problems(page)
    assert not problems, "\n".join(problems)


def test_the_report_forms_and_staff_pages_have_no_serious_or_critical_violations(new_page, alice, bob,
                                                                                    django_user_model):
    from community.services import chat, moderation, reports
    from tests.services import factories

    erin = django_user_model.objects.create_user(username="erin", password="erin-secret-pw", is_staff=True)
    match = factories.match(alice, bob)
    said = chat.chat_post(match_id=match.pk, user=bob, room="players", text="rude words")
    chat.chat_post(match_id=match.pk, user=alice, room="players", text="please stop")
    hidden = chat.chat_post(match_id=match.pk, user=bob, room="players", text="spam")
    moderation.message_hide(staff=erin, message_id=hidden.pk, reason="spam")
    reports.report_create(reporter=alice, message=said.pk, reason="insults")
    reports.report_create(reporter=alice, match=match.pk, reason="stalling")
    problems = []
    for user, paths in ((alice, (f"/matches/{match.pk}/", "/accounts/privacy/", "/players/bob/")),
                        (erin, ("/staff/moderation/", "/staff/moderation/players/bob/", "/staff/moderation/audit/"))):
        page = new_page()
        log_in(page, user)
        for path in paths:
            page.goto(path)
            if path.startswith("/matches/"):
                page.locator("#chat-log details summary").first.click()     # the report form, opened
            problems += _problems(page)
    assert not problems, "\n".join(problems)
