"""The game catalogue and the rules documents (docs/rules/, one per game family)."""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse

import games
from ai_workers.engines import LEVELS
from matches.errors import ServiceError


def game_entry(rules: games.Game) -> dict:
    return {**rules.describe(), "ai_levels": list(LEVELS),
            "rules_url": reverse("game-rules", kwargs={"slug": rules.slug})}


def catalogue() -> list[dict]:
    return [game_entry(g) for _, g in sorted(games.GAMES.items())]


def _game(slug: str) -> games.Game:
    rules = games.GAMES.get(slug)
    if rules is None:
        raise ServiceError("game_not_found", f"no game {slug!r}")
    return rules


def game_detail(slug: str) -> dict:
    return game_entry(_game(slug))


def rules_document(slug: str) -> tuple[str, str]:
    """(title, Markdown text) of the game's rules document, read from the repository."""
    rules = _game(slug)
    return rules.title, (settings.BASE_DIR / rules.rules_page).read_text(encoding="utf-8")
