"""Debian's Chromium driven by Playwright (for the browser tests and `manage.py screenshots`).

Playwright's own browser downloads are not used: the system's Chromium is (`apt-get install
chromium`), at PEARLSITE_CHROMIUM (default /usr/bin/chromium)."""
from __future__ import annotations

import os
from pathlib import Path

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    path = os.environ.get("PEARLSITE_CHROMIUM", "/usr/bin/chromium")
    if not Path(path).exists():
        raise FileNotFoundError(f"no Chromium at {path}: apt-get install -y chromium "
                                "(or set PEARLSITE_CHROMIUM)")
    return path


def launch(playwright):
    """A headless Chromium browser from a started `sync_playwright()`."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
