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


def _persona(django_user_model, name: str):
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user(username=name, password=f"{name}-secret-pw")
    Token.objects.create(user=user)
    return user


def _client_for(user):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    client.user = user
    client.token = user.auth_token.key if user is not None else None
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
