"""The game catalogue and the rules documents (docs/rules/, one per game family)."""
from __future__ import annotations

import re

import markdown
from django.conf import settings
from django.urls import reverse

import games
from ai_workers.engines import LEVELS
from ai_workers.engines.strength import measured
from matches.errors import ServiceError

RULES_MARKDOWN_EXTENSIONS = ["tables", "fenced_code", "toc"]


def game_entry(rules: games.Game) -> dict:
    return {**rules.describe(), "ai_levels": list(LEVELS),
            "rules_url": reverse("game-rules", kwargs={"slug": rules.slug}),
            "level_strength": level_strength(rules.slug)}


def level_strength(slug: str) -> dict | None:
    """The levels' measured strength relative to `random` (bench.levels' committed results), with
    the run behind it; None for a game not measured."""
    found = measured(slug)
    if found is None:
        return None
    levels = [{"level": level, **{k: found["levels"][level].get(k) for k in
                                  ("elo", "elo_low", "elo_high", "games", "decision")}}
              for level in LEVELS if level in found["levels"]]
    return {"levels": levels, "run": found["run"]}


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


_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


def _lists_apart(text: str) -> str:
    """A blank line before each list that follows a paragraph line directly, and indents doubled
    (nested lists by two spaces): the documents are written so, as GitHub renders them, where
    Python-Markdown would join a list to its paragraph and flatten nesting."""
    out, fenced, previous = [], False, ""
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif (not fenced and _LIST_ITEM.match(line) and previous.strip() and not previous.startswith((" ", "#"))
              and not _LIST_ITEM.match(previous) and not previous.lstrip().startswith("|")):
            out.append("")
        in_list = _LIST_ITEM.match(previous) or previous.startswith("  ")
        if not fenced and line.startswith("  ") and line.strip() and in_list:
            line = line[:len(line) - len(line.lstrip(" "))] + line
        out.append(line)
        previous = line
    return "\n".join(out)


def rules_html(text: str) -> tuple[str, list[dict]]:
    """A rules document's Markdown as HTML, with its headings (the `toc` extension's tree: each
    {level, id, name, children}); the API's HTML form and the web page both use this."""
    converter = markdown.Markdown(extensions=RULES_MARKDOWN_EXTENSIONS)
    return converter.convert(_lists_apart(text)), converter.toc_tokens
