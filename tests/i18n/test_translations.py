"""The Japanese catalogue is complete and current: every marked string of the templates and the
Python code has a translation (none untranslated, none fuzzy), the catalogue holds exactly what
`makemessages` finds today, the compiled .mo (built by `make install`) matches it, and every
translation keeps its placeholders."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale/ja/LC_MESSAGES/django.po"
MO = PO.with_suffix(".mo")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]")
SOURCES = ["manage.py", "pearlsite", "games", "matches", "web", "notifications", "community", "ai_workers", "locale"]


def _entries(catalogue) -> dict[str, object]:
    return {e.msgid: e for e in catalogue if not e.obsolete}


def test_japanese_has_no_untranslated_fuzzy_or_obsolete_entry():
    po = polib.pofile(str(PO))
    assert len(po) > 500
    assert po.untranslated_entries() == [] and po.fuzzy_entries() == [] and po.obsolete_entries() == []
    assert po.percent_translated() == 100
    assert po.metadata["Language"] == "ja" and po.metadata["Plural-Forms"] == "nplurals=1; plural=0;"


def test_every_translation_keeps_its_placeholders():
    for entry in polib.pofile(str(PO)):
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            assert sorted(set(PLACEHOLDER.findall(text))) == sorted(set(PLACEHOLDER.findall(entry.msgid))), entry.msgid


def test_the_compiled_catalogue_matches_the_source():
    """`make install` runs compilemessages; a .mo older than its .po would serve stale Japanese."""
    assert MO.is_file(), "run `make install` (compilemessages) first"
    po, mo = _entries(polib.pofile(str(PO))), _entries(polib.mofile(str(MO)))
    assert set(po) == set(mo)
    for msgid, entry in po.items():
        assert (entry.msgstr_plural.get(0) if entry.msgid_plural else entry.msgstr) == \
               (mo[msgid].msgstr_plural.get(0) if entry.msgid_plural else mo[msgid].msgstr), msgid


def test_the_catalogue_holds_exactly_what_makemessages_finds(tmp_path):
    """makemessages over a copy of the tree: nothing marked is missing from locale/ja, nothing there
    is stale. (Unmarked template text is tests/i18n/test_templates_marked.py's concern.)"""
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext is missing: `make install` installs it")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / name)
    env = {**os.environ, "DJANGO_DEBUG": "true", "DJANGO_SETTINGS_MODULE": "pearlsite.settings"}
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "ja", "--no-location", "-v", "0"],
                   cwd=tmp_path, env=env, check=True, timeout=300)
    fresh = polib.pofile(str(tmp_path / "locale/ja/LC_MESSAGES/django.po"))
    committed = polib.pofile(str(PO))
    assert set(_entries(fresh)) == set(_entries(committed))
    assert fresh.untranslated_entries() == [] and fresh.fuzzy_entries() == []


@pytest.mark.parametrize("english,japanese", [
    ("Lobby", "ロビー"), ("Your turn", "あなたの番"), ("the move is not legal in this position", "この局面ではその手は指せません"),
])
def test_the_catalogue_is_used(english, japanese):
    with translation.override("ja"):
        assert translation.gettext(english) == japanese
    with translation.override("en"):
        assert translation.gettext(english) == english
