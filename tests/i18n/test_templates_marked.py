"""No user-visible text in a template escapes translation.

Every template of the project is cut into tokens by Django's own template Lexer. Text inside
{% blocktranslate %} … {% endblocktranslate %} and {% comment %} blocks is set aside, every other
tag or variable becomes a placeholder, and the rest is read as HTML: the text between tags and the
attributes people read (title, aria-label, placeholder, alt, data-confirm) must hold no letters.

Allowed without marking (the small, non-linguistic list):
- NON_LINGUISTIC: the site's name "Pearlsite";
- text inside <code>, <pre>, <kbd>, <script> and <style> (API paths, board pictures, code);
- anything without a letter: digits, punctuation and symbols (·, —, ›, ◀, ▶, ←, →, #, ?!).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
NON_LINGUISTIC = ("Pearlsite",)
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-confirm"}
UNREAD_ELEMENTS = {"code", "pre", "kbd", "script", "style"}
HOLE = "\x00"        # a variable; a tag becomes a space, so `<option{% if x %} selected{% endif %}>` stays a tag
OPENERS = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans", "comment": "endcomment"}


def project_templates() -> list[Path]:
    found = []
    for app in sorted(p for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")
                      and p.name not in {"var", "node_modules", "tests"}):
        found += sorted(q for q in app.glob("**/templates/**/*") if q.suffix in {".html", ".txt"})
    return found


def unmarked_source(source: str) -> str:
    """The template with translated and commented blocks dropped, every other tag a space and every
    variable a HOLE."""
    out, closing = [], None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if closing:
                if name == closing:
                    closing = None
                continue
            if name in OPENERS:
                closing = OPENERS[name]
            out.append(" ")
        elif closing:
            continue
        elif token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.VAR:
            out.append(HOLE)
    return "".join(out)


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.unread = 0

    def handle_starttag(self, tag, attrs):
        if tag in UNREAD_ELEMENTS:
            self.unread += 1
        self.texts += [value for name, value in attrs if name in READ_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in UNREAD_ELEMENTS and self.unread:
            self.unread -= 1

    def handle_data(self, data):
        if not self.unread:
            self.texts.append(data)


def unmarked_text(source: str) -> list[str]:
    """The pieces of text a reader would see that are not marked for translation."""
    reader = _Reader()
    reader.feed(unmarked_source(source))
    reader.close()
    found = []
    for text in reader.texts:
        words = text.replace(HOLE, " ")
        for allowed in NON_LINGUISTIC:
            words = words.replace(allowed, " ")
        if any(ch.isalpha() for ch in words):
            found.append(re.sub(r"\s+", " ", text.replace(HOLE, "…")).strip())
    return found


def test_the_project_has_templates_to_check():
    names = {p.relative_to(ROOT).as_posix() for p in project_templates()}
    assert "web/templates/web/base.html" in names and "notifications/templates/notifications/mail/base.txt" in names
    assert len(names) >= 40


@pytest.mark.parametrize("path", project_templates(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_visible_word_of_the_template_is_marked(path):
    assert unmarked_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source,expected", [
    ("<p>Hello</p>", ["Hello"]),
    ('<button title="Go back">◀</button>', ["Go back"]),
    ("<p>{% translate 'Hello' %} · {{ name }}</p>", []),
    ("<p>{% blocktranslate %}Hi {{ name }}{% endblocktranslate %}</p>", []),
    ("<p>{% if a %}Yes{% endif %}</p>", ["Yes"]),
    ("<p>Pearlsite · <code>POST /api/v1/</code></p>", []),
    ("{# a comment #}{% comment %}Words{% endcomment %}<b>42</b>", []),
    ("<option{% if x %} selected{% endif %}>{{ label }}</option>", []),
    ("Plain text mail, {{ name }}", ["Plain text mail, …"]),
])
def test_the_check_sees_what_a_reader_sees(source, expected):
    assert unmarked_text(source) == expected
