"""Periodic match housekeeping (run by Celery beat)."""
from celery import shared_task

from .services import ladders, results, tournaments


@shared_task(name="matches.tasks.claim_timeouts")
def claim_timeouts() -> list[int]:
    """Finish matches whose player to move let the correspondence deadline pass."""
    return results.match_claim_timeouts()


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
