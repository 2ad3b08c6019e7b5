"""Event reads."""
from __future__ import annotations

from django.db.models import QuerySet

from matches.models import Event


def events_for(user, *, after: int | None = None) -> QuerySet[Event]:
    qs = Event.objects.filter(user=user)
    if after is not None:
        qs = qs.filter(pk__gt=after)
    return qs.order_by("-id")


def event_payload(event: Event) -> dict:
    return {"id": event.pk, "kind": event.kind, "payload": event.payload, "created_at": event.created_at}
