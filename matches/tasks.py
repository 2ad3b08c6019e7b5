"""Periodic match housekeeping (run by Celery beat)."""
from celery import shared_task

from .services import ladders, results


@shared_task(name="matches.tasks.claim_timeouts")
def claim_timeouts() -> list[int]:
    """Finish matches whose player to move let the correspondence deadline pass."""
    return results.match_claim_timeouts()


@shared_task(name="matches.tasks.ladder_forfeits")
def ladder_forfeits() -> list[int]:
    """Decline ladder challenges left unanswered past their window: the defenders forfeit."""
    return ladders.ladder_forfeit_unanswered()
