"""Blocking and unblocking. The blocked player is never told."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from matches.errors import ServiceError, first_or_error

from ..models import Block

User = get_user_model()


def _player(username: str):
    return first_or_error(User.objects.filter(username__iexact=username).order_by("pk"), "player_not_found",
                          f"no player named {username!r}")


@transaction.atomic
def block_create(*, blocker, username: str) -> Block:
    """Idempotent: blocking someone already blocked returns the existing block."""
    blocked = _player(username)
    if blocked.pk == blocker.pk:
        raise ServiceError("cannot_block_self", "you cannot block yourself")
    block, _ = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    return block


@transaction.atomic
def block_delete(*, blocker, username: str) -> None:
    blocked = _player(username)
    if not Block.objects.filter(blocker=blocker, blocked=blocked).delete()[0]:
        raise ServiceError("not_blocked", f"you have not blocked {username!r}")
