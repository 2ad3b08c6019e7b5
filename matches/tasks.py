"""Periodic match housekeeping (run by Celery beat every minute; each is safe to run twice at once)."""
from celery import shared_task

from .services import challenges, clocks, results, vacations


@shared_task(name="matches.tasks.claim_timeouts")
def claim_timeouts() -> list[int]:
    """End vacations that used up their allowance, then settle the matches whose seat to move
    let its deadline pass, then warn the players whose deadline is near."""
    vacations.vacations_end_used_up()
    settled = results.match_claim_timeouts()
    clocks.clocks_send_warnings()
    return settled


@shared_task(name="matches.tasks.expire_challenges")
def expire_challenges() -> list[int]:
    """Close the open challenges nobody took in time."""
    return challenges.challenges_expire()
