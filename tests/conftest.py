"""Shared fixtures: named personas (alice and bob play, carol watches), API clients with tokens."""
from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

# Property tests draw the same examples on every run (CI must not depend on luck); set
# HYPOTHESIS_PROFILE=explore to search afresh.
hypothesis_settings.register_profile("pearlsite", derandomize=True, database=None, deadline=None)
hypothesis_settings.register_profile("explore", deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "pearlsite"))

# Only a test that means something on one backend alone may skip, and it says which (pytest.ini
# gives each marker's reason); any other skip fails, so no check goes quietly missing.
BACKEND_MARKERS = ("postgres", "redis", "worker", "faults", "cluster")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    if report.skipped and not hasattr(report, "wasxfail") \
            and not any(item.get_closest_marker(name) for name in BACKEND_MARKERS):
        report.outcome = "failed"
        report.longrepr = (f"skipped, but carries none of the markers {', '.join(BACKEND_MARKERS)}: "
                           f"{report.longrepr}")


def token_for(user) -> str:
    """A new API key for `user`."""
    from matches.services.accounts import token_create

    return token_create(user=user)[1]


def _persona(django_user_model, name: str):
    user = django_user_model.objects.create_user(username=name, password=f"{name}-secret-pw")
    user.api_key = token_for(user)
    return user


def _client_for(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.token = None
    if user is not None:
        client.token = getattr(user, "api_key", None) or token_for(user)
        user.api_key = client.token
        client.credentials(HTTP_AUTHORIZATION=f"Token {client.token}")
    client.user = user
    return client


def _persona_fixtures(name: str):
    """Fixtures `<name>` (the user) and `as_<name>` (an API client with their token)."""

    @pytest.fixture(name=name)
    def user(django_user_model):
        return _persona(django_user_model, name)

    @pytest.fixture(name=f"as_{name}")
    def client(request):
        return _client_for(request.getfixturevalue(name))

    return user, client


# alice and bob play, carol watches or takes open seats, dave fills a fourth seat.
alice, as_alice = _persona_fixtures("alice")
bob, as_bob = _persona_fixtures("bob")
carol, as_carol = _persona_fixtures("carol")
dave, as_dave = _persona_fixtures("dave")


@pytest.fixture
def anon(db):
    return _client_for(None)


@pytest.fixture
def client_for():
    return _client_for
