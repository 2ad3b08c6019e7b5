"""Periodic match housekeeping (run by Celery beat)."""
from celery import shared_task

from .services import jobs, results


@shared_task(name="matches.tasks.claim_timeouts")
def claim_timeouts() -> list[int]:
    """Finish matches whose player to move let the correspondence deadline pass."""
    return results.match_claim_timeouts()


@shared_task(name="matches.tasks.sweep_engine_jobs")
def sweep_engine_jobs() -> dict[str, int]:
    """Send engine jobs still queued (the broker was down) and take back those whose lease ran out."""
    return jobs.sweep()
