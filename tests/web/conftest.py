"""Web page tests: the server fixtures of the API tests (eager Celery, quick engines)."""
import pytest

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
