"""Factories for service tests: users, and challenges and matches made through the services
(a match needs seats and a position, so it is never built field by field)."""
from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from matches.services import challenges


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("a-long-enough-secret")


def challenge(creator=None, opponents=("ai:random",), game="hasami-shogi", **extra):
    """A challenge made through the service; a rated one gets the usual clock (rated play needs one)
    unless the test names a time control."""
    creator = creator or UserFactory()
    if extra.get("rated") and "time_control" not in extra and "days_per_move" not in extra:
        extra["days_per_move"] = 3
    opponents = [o.username if hasattr(o, "username") else o for o in opponents]
    return challenges.challenge_create(creator=creator, game=game, opponents=opponents, **extra)


def match(creator=None, opponent=None, game="hasami-shogi", **extra):
    """A started match between two people (the opponent accepts at once)."""
    creator = creator or UserFactory()
    opponent = opponent or UserFactory()
    pending = challenge(creator, [opponent], game=game, **extra)
    started = challenges.challenge_accept(challenge_id=pending.pk, user=opponent)
    return started.match


def refusal_code(call) -> str:
    """The error code a service call refuses with (it must refuse)."""
    import pytest

    import games
    from matches.errors import ServiceError

    with pytest.raises((ServiceError, games.GameError)) as caught:
        call()
    return caught.value.code
