"""Writing match chat (who may write where: community.selectors.chat). Only people write: no
automated sender posts here, so no hidden information (New Eleusis hands, the secret rule) can
reach the table through chat. Seats who have not blocked the writer get a chat_message event."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction

from matches.errors import ServiceError
from matches.services.events import notify

from ..models import ChatMessage
from ..selectors.blocks import blocked_ids
from ..selectors.chat import chat_match, check_room, message_payload, seat_user_ids

# Control characters (but newline and tab) are dropped: they only serve to garble a reader's screen.
_DROP = dict.fromkeys(c for c in range(32) if c not in (9, 10)) | {127: None}


def clean_text(text: str) -> str:
    return text.translate(_DROP).strip()


@transaction.atomic
def chat_post(*, match_id: int, user, room: str, text: str) -> ChatMessage:
    check_room(room)
    text = clean_text(text)
    if not text:
        raise ServiceError("message_empty", "the message has no text")
    limit = settings.CHAT_MESSAGE_MAX_CHARS
    if len(text) > limit:
        raise ServiceError("message_too_long", f"a message has at most {limit} characters", detail={"limit": limit})
    match = chat_match(match_id)
    seated = user.pk in seat_user_ids(match)
    if seated != (room == ChatMessage.Room.PLAYERS):
        raise ServiceError("chat_closed", "seats write in the players' room, everyone else in the spectators'")
    message = ChatMessage.objects.create(match=match, room=room, author=user, text=text, ply=match.ply)
    if room == ChatMessage.Room.PLAYERS:
        readers = [s.user for s in match.seats.exclude(user=None).select_related("user")
                   if s.user_id != user.pk and user.pk not in blocked_ids(s.user)]
        notify(readers, "chat_message", message_payload(message))
    return message
