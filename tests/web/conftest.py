"""Web page tests: the server fixtures of the API tests (eager Celery, quick engines)."""
import weakref

import pytest
from django.db.backends.signals import connection_created

from tests.matches.conftest import _fast_server  # noqa: F401  (autouse: engines reply in-process)


@pytest.fixture
def web_client(client):
    return client


@pytest.fixture
def login(client):
    """Log `user` into the Django test client's session."""
    def _login(user):
        client.force_login(user)
        return client
    return _login


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server; when the session ends, every database connection opened
    meanwhile and still open is closed. ORM calls made while Playwright's event loop runs happen
    in another greenlet, whose context keeps connections of its own that this context's
    `connections.close_all()` never sees, and the test database cannot be dropped while one is open."""
    opened = weakref.WeakSet()

    def remember(sender, connection, **kwargs):
        opened.add(connection)

    connection_created.connect(remember, weak=False)
    yield live_server
    connection_created.disconnect(remember)
    for wrapper in list(opened):
        if wrapper.connection is not None:
            wrapper.close()


@pytest.fixture
def browser_env(monkeypatch, settings, live_server):
    """The live server answers long polls quickly; the ORM may run while Playwright's event loop
    runs in this thread (only during a browser test)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.WEB_LIVE_WAIT_SECONDS = 1.0
    return live_server


@pytest.fixture
def browser(browser_env):
    """Debian's Chromium, for one test (never skipped: a missing browser fails, naming the fix)."""
    from playwright.sync_api import sync_playwright

    from web.browser import launch

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, browser_env):
    """`new_page()` → a page in a fresh browser context (its own cookies) that fails the test on
    any JavaScript error, and accepts confirmation dialogs."""
    contexts, errors = [], []

    def _new_page():
        context = browser.new_context(base_url=browser_env.url, viewport={"width": 1100, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # A refused request (400, 409) is logged by Chromium as a failed resource: not a script error.
        page.on("console", lambda msg: errors.append(msg.text)
                if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield _new_page
    for context in contexts:
        context.close()
    assert not errors, errors
