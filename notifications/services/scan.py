"""What to send, found by the beat's tick: committed events, deadlines coming up, digests due.

Events are read with a cursor (ids grow in commit order, design §5.4, so none is skipped); the
rows they lead to and the cursor's move are one transaction, under a row lock on the cursor, and
every row has a unique key: a second tick, or two at once, writes nothing twice."""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from matches.models import Challenge, Event, Match, MatchSeat, Profile
from notifications.models import (
    EmailAddress,
    Notification,
    Preferences,
    ScanCursor,
    Webhook,
)

from .outbox import enqueue

BATCH = 500
# Event kinds that become notifications, and as which kind.
FROM_EVENT = {"your_turn": "your_turn", "challenge_received": "challenge_received", "offer_made": "offer_made",
              "match_finished": "match_finished", "tournament_round": "tournament_round"}
OPEN = (Notification.Status.PENDING, Notification.Status.QUEUED)


class Audience:
    """Preferences, verified addresses and live webhooks of a few users, read once."""

    def __init__(self, user_ids):
        ids = set(user_ids)
        self.prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=ids)}
        self.verified = set(EmailAddress.objects.filter(user_id__in=ids, verified_at__isnull=False)
                            .values_list("user_id", flat=True))
        self.webhooks: dict[int, list[Webhook]] = {}
        for hook in Webhook.objects.filter(user_id__in=ids, active=True):
            self.webhooks.setdefault(hook.user_id, []).append(hook)

    def channels(self, user_id: int, kind: str) -> list[str]:
        return (self.prefs.get(user_id) or Preferences()).channels_for(kind)

    def hooks(self, user_id: int, kind: str) -> list[Webhook]:
        if "webhook" not in self.channels(user_id, kind):
            return []
        return [h for h in self.webhooks.get(user_id, []) if kind in h.kinds]


def delivery_id(key: str) -> str:
    """A webhook delivery's id: the same for every retry of one notification."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"pearlsite:{key}"))


def _to_webhooks(audience: Audience, user, kind: str, key: str, data: dict, now: datetime) -> None:
    for hook in audience.hooks(user.pk, kind):
        hook_key = f"{key}:webhook:{hook.pk}"
        enqueue(user=user, kind=kind, key=hook_key, due_at=now, channel=Notification.Channel.WEBHOOK, webhook=hook,
                payload={"id": delivery_id(hook_key), "kind": kind, "data": data})


@transaction.atomic
def scan_events(now: datetime | None = None) -> int:
    """Turn the events committed since the last scan into outbox rows; how many events were read."""
    now = now or timezone.now()
    cursor, _ = ScanCursor.objects.select_for_update().get_or_create(name="events")
    # The newest id first: every event up to it is committed (ids grow in commit order), so the
    # cursor may move up to it even past events of other kinds; one read later could see more.
    newest = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or cursor.position
    events = list(Event.objects.select_related("user").filter(
        pk__gt=cursor.position, pk__lte=newest, kind__in=list(FROM_EVENT)).order_by("pk")[:BATCH])
    if not events:
        cursor.position = max(cursor.position, newest)
        cursor.save(update_fields=["position"])
        return 0
    audience = Audience(e.user_id for e in events)
    ladder = set(Challenge.objects.filter(pk__in=[e.payload.get("challenge") for e in events
                                                  if e.kind == "challenge_received"], ladder__isnull=False)
                 .values_list("pk", flat=True))
    for event in events:
        kind = "ladder_challenge" if event.payload.get("challenge") in ladder else FROM_EVENT[event.kind]
        _from_event(audience, event, kind, now)
    cursor.position = events[-1].pk if len(events) == BATCH else max(cursor.position, newest)
    cursor.save(update_fields=["position"])
    return len(events)


def _from_event(audience: Audience, event: Event, kind: str, now: datetime) -> None:
    user, key = event.user, f"event:{event.pk}"
    _to_webhooks(audience, user, kind, key, {**event.payload, "event": event.pk, "event_kind": event.kind}, now)
    if "email" not in audience.channels(user.pk, kind) or user.pk not in audience.verified:
        return
    if kind != "your_turn":
        enqueue(user=user, kind=kind, key=f"{key}:email", due_at=now, payload={"event": event.payload})
        return
    # Your-turn mails are batched: one waiting mail lists every game; the next waits for the window.
    mails = Notification.objects.filter(user=user, kind="your_turn", channel=Notification.Channel.EMAIL)
    if mails.filter(status__in=OPEN).exists():
        return
    # The window runs from the last mail sent or being sent (its due time: when it went out).
    last = (mails.filter(status__in=[Notification.Status.SENT, Notification.Status.SENDING])
            .order_by("-due_at").values_list("due_at", flat=True).first())
    window = timedelta(minutes=settings.NOTIFY_YOUR_TURN_WINDOW_MINUTES)
    enqueue(user=user, kind="your_turn", key=f"your_turn:{user.pk}:{event.pk}",
            due_at=max(now, last + window) if last else now, payload={})


def scan_reminders(now: datetime | None = None) -> int:
    """Deadline reminders: for each turn, the most urgent threshold crossed, once per deadline."""
    now = now or timezone.now()
    hours = settings.NOTIFY_REMINDER_HOURS
    horizon = now + timedelta(hours=max(hours))
    matches = list(Match.objects.defer("state").filter(status=Match.Status.ACTIVE, deadline__gt=now,
                                                       deadline__lte=horizon))
    seats = {s.match_id: s for s in _movers(matches)}
    audience = Audience(s.user_id for s in seats.values())
    made = 0
    for match in matches:
        seat = seats.get(match.pk)
        if seat is None:
            continue
        threshold = reminder_threshold(match, now, hours)
        if threshold is None:
            continue
        key = f"reminder:{match.pk}:{match.ply}:{int(match.deadline.timestamp())}:{threshold}:{seat.user_id}"
        data = {"match": match.pk, "ply": match.ply, "deadline": match.deadline.isoformat(), "hours": threshold}
        with transaction.atomic():
            _to_webhooks(audience, seat.user, "deadline_reminder", key, data, now)
            if "email" in audience.channels(seat.user_id, "deadline_reminder") and seat.user_id in audience.verified:
                made += enqueue(user=seat.user, kind="deadline_reminder", key=key, due_at=now, payload=data) is not None
    return made


def reminder_threshold(match: Match, now: datetime, hours: list[int]) -> int | None:
    """The most urgent threshold crossed, among those shorter than the turn itself (a one-day
    turn gets no 24-hour reminder the moment it starts)."""
    turn = match.deadline - (match.turn_started_at or match.deadline)
    crossed = [h for h in hours if match.deadline - now <= timedelta(hours=h) < turn]
    return min(crossed) if crossed else None


def _movers(matches: list[Match]) -> list[MatchSeat]:
    by_match = {m.pk: m.to_move for m in matches}
    return [s for s in MatchSeat.objects.select_related("user").filter(match_id__in=list(by_match), user__isnull=False)
            if s.seat == by_match[s.match_id]]


def scan_digests(now: datetime | None = None) -> int:
    """A digest for each player whose chosen local hour (and day, for weekly) it is, once a period."""
    now = now or timezone.now()
    wanting = dict(Profile.objects.filter(notification_digest__in=["daily", "weekly"])
                   .values_list("user_id", "notification_digest"))
    verified = EmailAddress.objects.select_related("user").filter(user_id__in=list(wanting),
                                                                  verified_at__isnull=False)
    prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=list(wanting))}
    made = 0
    for row in verified:
        pref = prefs.get(row.user_id) or Preferences()
        local = now.astimezone(ZoneInfo(pref.time_zone))
        weekly = wanting[row.user_id] == "weekly"
        if local.hour != pref.digest_hour or (weekly and local.weekday() != pref.digest_weekday):
            continue
        key = f"digest:{row.user_id}:{local.date().isoformat()}"
        made += enqueue(user=row.user, kind="digest", key=key, due_at=now,
                        payload={"period": wanting[row.user_id], "local_date": local.date().isoformat()}) is not None
    return made
