"""The rules documents (docs/rules/, and their Japanese versions in docs/rules/ja/) describe what
`games` does: every worked example replays move for move to the stated result, and every game,
option, variant and move kind is documented, in both languages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import games
from games.record import parse_record, replay_record

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted({g.rules_page for g in games.GAMES.values()})
JA_PAGES = sorted(f"docs/rules/ja/{Path(p).name}" for p in PAGES)
ALL_PAGES = PAGES + JA_PAGES
RECORD_BLOCK = re.compile(r"^```record\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


def _records() -> list[tuple[str, str]]:
    return [(page, block) for page in ALL_PAGES for block in RECORD_BLOCK.findall(_text(page))]


def _english(page: str) -> str:
    """The English document a page is (or translates)."""
    return f"docs/rules/{Path(page).name}"


def test_every_game_has_a_rules_document_in_the_repository():
    assert {Path(p).parent.as_posix() for p in PAGES} == {"docs/rules"}
    assert {Path(p).name for p in PAGES} == {"hasami.md", "pearl.md", "glaisher.md", "ring-rugby.md", "eleusis.md"}
    for page in PAGES:
        assert (ROOT / page).is_file(), page


def test_every_document_has_a_worked_example_game():
    assert {page for page, _ in _records()} == set(ALL_PAGES)


def test_the_japanese_documents_have_the_same_worked_examples():
    """docs/rules/ja/ translates each English document with the very same example games."""
    assert {Path(p).name for p in (ROOT / "docs/rules/ja").glob("*.md")} == {Path(p).name for p in PAGES}
    for page in JA_PAGES:
        assert RECORD_BLOCK.findall(_text(page)) == RECORD_BLOCK.findall(_text(_english(page)))
        heading_numbers = re.compile(r"^##+ ([\d.]+)", re.MULTILINE)
        assert heading_numbers.findall(_text(page)) == heading_numbers.findall(_text(_english(page))), page
        # Written in Japanese: most of the prose is not ASCII.
        prose = re.sub(r"```.*?```|`[^`]*`", "", _text(page), flags=re.DOTALL)
        assert sum(not ch.isascii() for ch in prose) > len(prose) / 4, page


@pytest.mark.parametrize("page,record", _records(), ids=lambda v: v if v in ALL_PAGES else "")
def test_worked_examples_replay_to_their_stated_result(page, record):
    tags, moves = parse_record(record)
    final = replay_record(record)
    game = games.get_game(tags["Game"])
    assert game.rules_page == _english(page)
    assert final.is_terminal and final.ply == len(moves)
    assert tags["Result"] == "-".join(f"{s:g}" for s in final.outcome.scores)
    assert tags["Termination"] == final.outcome.termination.value
    assert tags["Variant"] == game.public_variant(game.normalize_options(json.loads(tags["Options"])))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_every_game_option_variant_and_move_kind_is_documented(slug, language):
    game = games.get_game(slug)
    page = game.rules_page if language == "en" else f"docs/rules/ja/{Path(game.rules_page).name}"
    text = _text(page)
    assert f"`{slug}`" in text
    for name in [*game.options, *game.variants, *game.variant_aliases]:
        assert f"`{name}`" in text, name
    for kind in game.grammar.kinds:
        assert any(example in text for example in kind.examples), (kind.name, kind.examples)


def test_documents_cite_no_outside_rule_sources():
    for page in ALL_PAGES:
        text = _text(page)
        assert "shared/rules" not in text and "rule book" not in text.lower()


def test_the_tree_cites_its_own_rules_documents():
    """Code, tests and docs cite docs/rules/; nothing points at rules outside the repository."""
    bare = re.compile(r"(?<![\w/])rules/(hasami|pearl|glaisher|ring-rugby|eleusis)\.md|shared/rules|rule book", re.IGNORECASE)
    offenders = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if path.suffix not in {".py", ".md", ".sh", ".txt", ".yaml", ".yml"} or parts[0].startswith(".") \
                or parts[0] in {"var", "node_modules"} or path.name == "test_rules_docs.py":
            continue
        offenders += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in bare.finditer(path.read_text(encoding="utf-8"))]
    assert offenders == []
