"""Service tests: rules of play without HTTP; engine work runs in-process."""
import pytest

from tests.matches.conftest import _fast_server  # noqa: F401  (the same fast engine settings)


@pytest.fixture
def users(db):
    from .factories import UserFactory

    return UserFactory(username="ann"), UserFactory(username="ben"), UserFactory(username="cid")
