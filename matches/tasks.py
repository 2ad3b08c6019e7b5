"""Periodic match housekeeping (run by Celery beat)."""
from celery import shared_task

from . import services


@shared_task
def claim_timeouts() -> list[int]:
    """Finish matches whose player to move let the correspondence deadline pass."""
    return services.match_claim_timeouts()
