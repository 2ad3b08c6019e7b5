"""The game catalogue and the rules documents (docs/rules/, one per game family)."""
from __future__ import annotations

import re

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions.toc import slugify_unicode

import games
from ai_workers.engines import LEVELS
from games.names_ja import japanese
from ai_workers.engines.strength import measured
from matches.errors import ServiceError

RULES_MARKDOWN_EXTENSIONS = ["tables", "fenced_code", "toc"]


def game_entry(rules: games.Game) -> dict:
    return {**rules.describe(), "ai_levels": list(LEVELS), "ja": japanese(rules.slug),
            "rules_url": reverse("game-rules", kwargs={"slug": rules.slug}),
            "level_strength": level_strength(rules.slug)}


def level_strength(slug: str) -> dict | None:
    """The levels' measured strength (bench.levels' committed results), with the run behind it;
    None for a game not measured. `kind` says which figures a level has: "elo" (relative to
    `random`, from games between the levels) or "walk" (Pearl Maze, a puzzle: each level's walk
    from each standard start)."""
    found = measured(slug)
    if found is None:
        return None
    rows = found["levels"]
    kind = "walk" if any("walks" in row for row in rows.values()) else "elo"
    levels = [{"level": level, **{k: rows[level].get(k) for k in
                                  ("elo", "elo_low", "elo_high", "games", "decision")},
               "walks": _in_variant_order(slug, rows[level].get("walks"))}
              for level in LEVELS if level in rows]
    return {"kind": kind, "levels": levels, "run": found["run"]}


def _in_variant_order(slug: str, walks: dict | None) -> dict | None:
    """A level's walks by start, in the order the game lists its variants (standard first)."""
    if walks is None:
        return None
    return {start: walks[start] for start in games.get_game(slug).variants if start in walks}


def is_japanese(language: str | None) -> bool:
    return bool(language) and language.split("-")[0] == "ja"


def localized_entry(entry: dict, language: str | None) -> dict:
    """A catalogue entry as a page shows it in `language`: in Japanese the title, summary, option
    docs and variant names are the `ja` ones; `variant_labels` pairs each variant with its label."""
    if not is_japanese(language):
        return {**entry, "variant_labels": [(v, v) for v in entry["variants"]]}
    ja = entry["ja"]
    options = {name: {**spec, "doc": ja["options"][name]["summary"], "label": ja["options"][name]["name"]}
               for name, spec in entry["options"].items()}
    return {**entry, "title": ja["title"], "summary": ja["summary"], "options": options,
            "variant_labels": [(v, f"{ja['variants'][v]['name']} ({v})") for v in entry["variants"]]}


def game_title(slug: str, language: str | None = None) -> str:
    """The game's name in `language` (English unless it is Japanese); an unknown slug is itself."""
    rules = games.GAMES.get(slug)
    if rules is None:
        return slug
    return japanese(slug)["title"] if is_japanese(language) else rules.title


def catalogue() -> list[dict]:
    return [game_entry(g) for _, g in sorted(games.GAMES.items())]


def _game(slug: str) -> games.Game:
    rules = games.GAMES.get(slug)
    if rules is None:
        raise ServiceError("game_not_found", f"no game {slug!r}")
    return rules


def game_detail(slug: str) -> dict:
    return game_entry(_game(slug))


def rules_page(rules: games.Game, language: str | None = None) -> str:
    """The path of the rules document in `language`: docs/rules/<family>.md, or the Japanese one
    beside it in docs/rules/ja/<family>.md."""
    if is_japanese(language):
        head, _, name = rules.rules_page.rpartition("/")
        return f"{head}/ja/{name}"
    return rules.rules_page


def rules_document(slug: str, language: str | None = None) -> tuple[str, str]:
    """(title, Markdown text) of the game's rules document in `language` (English unless it is
    Japanese), read from the repository."""
    rules = _game(slug)
    text = (settings.BASE_DIR / rules_page(rules, language)).read_text(encoding="utf-8")
    return game_title(slug, language), text


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


def rules_html(text: str, language: str | None = None) -> tuple[str, list[dict]]:
    """A rules document's Markdown as HTML, with its headings (the `toc` extension's tree: each
    {level, id, name, children}); the API's HTML form and the web page both use this. Japanese
    headings keep their words in their ids (`3-ルール`), where the ASCII slugs would drop them."""
    configs = {"toc": {"slugify": slugify_unicode}} if is_japanese(language) else {}
    converter = markdown.Markdown(extensions=RULES_MARKDOWN_EXTENSIONS, extension_configs=configs)
    html = converter.convert(_lists_apart(text))
    if is_japanese(language):
        html = _joined_japanese_lines(html)
    return html, converter.toc_tokens


_PRE = re.compile(r"(<pre>.*?</pre>)", re.DOTALL)
_CJK = "\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef"
_CJK_BREAK = re.compile(f"([{_CJK}])\n\\s*([{_CJK}])")


def _joined_japanese_lines(html: str) -> str:
    """A line break inside a Japanese paragraph is no space (a browser would show one): the two
    lines are joined where both sides are Japanese. Preformatted blocks keep their lines."""
    return "".join(part if part.startswith("<pre>") else _CJK_BREAK.sub(r"\1\2", part)
                   for part in _PRE.split(html))
