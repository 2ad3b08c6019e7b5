"""Periodic match housekeeping (run by Celery beat every minute; each is safe to run twice at once)."""
from celery import shared_task

from .services import challenges, clocks, jobs, ladders, results, tournaments, vacations


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


@shared_task(name="matches.tasks.sweep_engine_jobs")
def sweep_engine_jobs() -> dict[str, int]:
    """Send engine jobs still queued (the broker was down) and take back those whose lease ran out."""
    return jobs.sweep()


@shared_task(name="matches.tasks.ladder_forfeits")
def ladder_forfeits() -> list[int]:
    """Decline ladder challenges left unanswered past their window: the defenders forfeit."""
    return ladders.ladder_forfeit_unanswered()


@shared_task(name="matches.tasks.tournament_advance")
def tournament_advance(tournament_id: int) -> bool:
    """Pair a tournament's next round once its current round is decided (sent after commit)."""
    return tournaments.tournament_advance(tournament_id=tournament_id)


@shared_task(name="matches.tasks.tournaments_tick")
def tournaments_tick() -> dict:
    """Start tournaments at their start time; move on any whose round is over."""
    return tournaments.tournaments_tick()
