"""Reading match chat. The players' room is for the seats; the spectators' room is for everyone
else, and the seats see it only once the match is over. A reader never sees what players they
blocked wrote; a message staff hid keeps its place without its text."""
from __future__ import annotations

from django.db.models import QuerySet

from matches.errors import ServiceError, first_or_error
from matches.models import Match

from ..models import ChatMessage
from .blocks import blocked_ids

ROOMS = tuple(ChatMessage.Room.values)
PAGE = 100


def chat_match(match_id: int) -> Match:
    return first_or_error(Match.objects.filter(pk=match_id), "match_not_found", f"no match with id {match_id}")


def seat_user_ids(match: Match) -> set[int]:
    return set(match.seats.exclude(user=None).values_list("user_id", flat=True))


def may_read(match: Match, user, room: str) -> bool:
    seated = user is not None and user.is_authenticated and user.pk in seat_user_ids(match)
    if room == ChatMessage.Room.PLAYERS:
        return seated
    return not seated or match.status != Match.Status.ACTIVE


def check_room(room: str) -> None:
    if room not in ROOMS:
        raise ServiceError("invalid_room", f"the room is one of {list(ROOMS)}, not {room!r}")


def chat_messages(*, match_id: int, user, room: str, after: int = 0) -> QuerySet[ChatMessage]:
    """Up to PAGE messages of the room after id `after`, oldest first."""
    check_room(room)
    match = chat_match(match_id)
    if not may_read(match, user, room):
        raise ServiceError("chat_closed", f"you may not read the {room} room of this match")
    rows = ChatMessage.objects.filter(match=match, room=room, id__gt=after).select_related("author")
    if user is not None and user.is_authenticated:
        rows = rows.exclude(author_id__in=blocked_ids(user))
    return rows.order_by("id")[:PAGE]


def message_in_match(message_id: int, match_id: int) -> bool:
    return ChatMessage.objects.filter(pk=message_id, match_id=match_id).exists()


def message_payload(message: ChatMessage) -> dict:
    hidden = message.hidden_at is not None
    return {"id": message.pk, "match": message.match_id, "room": message.room,
            "author": message.author.username, "text": "" if hidden else message.text,
            "hidden": hidden, "ply": message.ply, "created_at": message.created_at.isoformat()}
