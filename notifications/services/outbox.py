"""The outbox's writes: rows in, handed to the `notify` workers, and each attempt's outcome.

A row is handed over by task name after commit (or by the beat's tick, which also takes back
rows whose worker vanished); a worker claims it with a conditional update, so a task delivered
twice sends once. A failed attempt is retried with exponential backoff for NOTIFY_RETRY_HOURS."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import KombuError

from notifications.models import Notification

log = logging.getLogger(__name__)
Status = Notification.Status
DELIVER_TASK = "notifications.tasks.deliver"
BATCH = 200


def enqueue(*, user, kind: str, key: str, payload: dict, due_at: datetime,
            channel: str = Notification.Channel.EMAIL, webhook=None) -> Notification | None:
    """A new row, or None when `key` is on record already (the notification exists)."""
    try:
        with transaction.atomic():
            return Notification.objects.create(user=user, kind=kind, key=key[:200], payload=payload,
                                               due_at=due_at, channel=channel, webhook=webhook)
    except IntegrityError:
        return None


def enqueue_now(*, user, kind: str, key: str, payload: dict) -> Notification | None:
    """An account mail, handed to a worker as soon as this transaction commits."""
    row = enqueue(user=user, kind=kind, key=key, payload=payload, due_at=timezone.now())
    if row is not None:
        transaction.on_commit(lambda: release(ids=[row.pk]), robust=True)
    return row


def release(ids: list[int] | None = None, now: datetime | None = None) -> list[int]:
    """Hand due rows (or these ones) to workers; rows a lost worker left take their turn again."""
    now = now or timezone.now()
    due = Q(status=Status.PENDING, due_at__lte=now) | Q(status__in=[Status.QUEUED, Status.SENDING],
                                                        lease_until__lt=now)
    rows = Notification.objects.filter(due)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    handed = []
    for pk in list(rows.order_by("due_at").values_list("pk", flat=True)[:BATCH]):
        lease = now + timedelta(seconds=settings.NOTIFY_LEASE_SECONDS)
        if not Notification.objects.filter(pk=pk).filter(due).update(status=Status.QUEUED, lease_until=lease):
            continue
        try:
            current_app.signature(DELIVER_TASK, args=(pk,)).apply_async(queue="notify")
        except (KombuError, OSError) as exc:          # the broker is down: the next tick hands it over
            log.warning("notification %s not handed to a worker (%s); the tick will", pk, exc)
            Notification.objects.filter(pk=pk, status=Status.QUEUED).update(status=Status.PENDING, lease_until=None)
            break
        handed.append(pk)
    return handed


def claim(pk: int) -> Notification | None:
    """The worker's claim: the row, if it is still to send (a duplicate task finds it sent)."""
    now = timezone.now()
    lease = now + timedelta(seconds=settings.NOTIFY_LEASE_SECONDS)
    claimed = Notification.objects.filter(pk=pk).filter(
        Q(status=Status.QUEUED) | Q(status=Status.PENDING, due_at__lte=now)).update(
        status=Status.SENDING, lease_until=lease, attempts=F("attempts") + 1)
    if not claimed:
        return None
    return Notification.objects.select_related("user", "webhook").get(pk=pk)


def mark_sent(row: Notification, response_status: int | None = None) -> None:
    Notification.objects.filter(pk=row.pk).update(status=Status.SENT, sent_at=timezone.now(), lease_until=None,
                                                  response_status=response_status, last_error="")


def mark_dropped(row: Notification, reason: str) -> None:
    Notification.objects.filter(pk=row.pk).update(status=Status.DROPPED, lease_until=None, last_error=reason[:500])


def mark_failed(row: Notification, error: str, response_status: int | None = None) -> bool:
    """Schedule a retry, or give up once the retry window is over; True if it gave up."""
    now = timezone.now()
    delay = settings.NOTIFY_RETRY_FIRST_SECONDS * 2 ** max(0, row.attempts - 1)
    retry_at = now + timedelta(seconds=min(delay, 6 * 3600))
    give_up = retry_at > row.created_at + timedelta(hours=settings.NOTIFY_RETRY_HOURS)
    Notification.objects.filter(pk=row.pk).update(
        status=Status.FAILED if give_up else Status.PENDING, due_at=retry_at, lease_until=None,
        last_error=error[:500], response_status=response_status)
    return give_up


def prune(now: datetime | None = None) -> int:
    """Forget finished rows older than NOTIFY_KEEP_DAYS (the delivery log's depth); how many.
    Their keys can no longer recur: events behind the cursor, past deadlines, past digest dates."""
    before = (now or timezone.now()) - timedelta(days=settings.NOTIFY_KEEP_DAYS)
    return Notification.objects.filter(status__in=[Status.SENT, Status.FAILED, Status.DROPPED],
                                       created_at__lt=before).delete()[0]


def mails_sent_lately(user, kinds_excluded: frozenset[str]) -> int:
    """Mails sent to `user` in the last hour, not counting `kinds_excluded`."""
    since = timezone.now() - timedelta(hours=1)
    return (Notification.objects.filter(user=user, channel=Notification.Channel.EMAIL, status=Status.SENT,
                                        sent_at__gte=since).exclude(kind__in=kinds_excluded).count())
