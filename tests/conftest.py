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
    user = django_user_model.objects.create_user(username=name, password=f"{name}-secret-pw")
    from rest_framework.authtoken.models import Token

    Token.objects.create(user=user)
    return user


def _client_for(user):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    client.user = user
    return client


@pytest.fixture
def alice(django_user_model):
    return _persona(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model):
    return _persona(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model):
    return _persona(django_user_model, "carol")


@pytest.fixture
def dave(django_user_model):
    return _persona(django_user_model, "dave")


@pytest.fixture
def as_alice(alice):
    return _client_for(alice)


@pytest.fixture
def as_bob(bob):
    return _client_for(bob)


@pytest.fixture
def as_carol(carol):
    return _client_for(carol)


@pytest.fixture
def anon(db):
    return _client_for(None)


@pytest.fixture
def client_for():
    return _client_for
