"""Who blocked whom. `is_blocked` is the public test every sender of one user's words to another
(chat events, notification mails and webhooks) must call before delivering them."""
from __future__ import annotations

from django.db.models import QuerySet

from ..models import Block


def is_blocked(blocker, blocked) -> bool:
    """True when `blocker` has blocked `blocked` (their content must not reach `blocker`)."""
    if blocker is None or blocked is None:
        return False
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists()


def has_blocked(blocker, username: str) -> bool:
    """True when the signed-in `blocker` has blocked the player named `username`."""
    if blocker is None or not blocker.is_authenticated:
        return False
    return Block.objects.filter(blocker_id=blocker.pk, blocked__username=username).exists()


def blocked_ids(blocker) -> set[int]:
    return set(Block.objects.filter(blocker_id=blocker.pk).values_list("blocked_id", flat=True))


def blocks_of(user) -> QuerySet[Block]:
    return Block.objects.filter(blocker=user).select_related("blocked")


def block_payload(block: Block) -> dict:
    return {"username": block.blocked.username, "created_at": block.created_at}
