"""Periodic match housekeeping (run by Celery beat)."""
from celery import shared_task

from .services import results


@shared_task(name="matches.tasks.claim_timeouts")
def claim_timeouts() -> list[int]:
    """Finish matches whose player to move let the correspondence deadline pass."""
    return results.match_claim_timeouts()
