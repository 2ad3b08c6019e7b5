"""The refusals community registers into matches' extension points (matches/policies.py)."""
from __future__ import annotations

from django.utils import timezone

from matches.errors import ServiceError

from ..models import UsernameHold
from ..models.moderation import DELETED_PREFIX
from ..selectors.blocks import is_blocked


def refuse_blocked_challenge(challenger, invitee) -> None:
    """Someone who blocked you takes no challenge from you (nor a seat you offer them)."""
    if is_blocked(invitee, challenger):
        raise ServiceError("refused_by_player", "this player does not take challenges from you")


def refuse_suspended_challenge(challenger, invitee) -> None:
    """A suspended or deleted account plays no new match."""
    if not invitee.is_active:
        raise ServiceError("refused_by_player", "this player does not take challenges now")


def refuse_held_username(username: str) -> None:
    """Deleted accounts' old names are held for a while; `deleted-<id>` names are theirs alone."""
    if username.lower().startswith(DELETED_PREFIX):
        raise ServiceError("invalid_username", f"usernames starting {DELETED_PREFIX!r} are reserved",
                           detail={"username": username})
    if UsernameHold.objects.filter(username__iexact=username, until__gt=timezone.now()).exists():
        raise ServiceError("username_held", f"the username {username!r} is not free yet")
