"""Notification tasks, on the `notify` queue: the beat's tick, and one delivery per outbox row."""
from celery import shared_task

from .services import delivery, outbox, scan


@shared_task(name="notifications.tasks.tick")
def tick() -> dict:
    """Read new events, deadlines and digests into the outbox, hand the due rows to workers, and
    forget rows older than the delivery log keeps."""
    return {"events": scan.scan_events(), "reminders": scan.scan_reminders(), "digests": scan.scan_digests(),
            "handed": len(outbox.release()), "pruned": outbox.prune()}


@shared_task(name="notifications.tasks.deliver")
def deliver(notification_id: int) -> str:
    """Send one outbox row (a duplicate of this task finds the row claimed and does nothing)."""
    return delivery.deliver(notification_id)
