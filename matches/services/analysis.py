"""Analysis jobs: requests by players, background analyses queued by the server, and the
results the workers hand back."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import games
from ai_workers.engines import LEVELS
from matches.errors import ServiceError, first_or_error
from matches.models import Analysis, Match
from matches.selectors import capabilities

from . import dispatch
from .events import notify

ANALYSIS_LEVELS = tuple(level for level in LEVELS if level != "random")
PENDING = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)


def _check_level(level: str) -> None:
    if level not in ANALYSIS_LEVELS:
        raise ServiceError("unknown_level", f"analysis level must be one of {list(ANALYSIS_LEVELS)}")


@transaction.atomic
def analysis_request(*, match_id: int, user, level: str = "medium") -> Analysis:
    """The analysis of the match at this level, new or existing (`analysis_request_once`)."""
    return analysis_request_once(match_id=match_id, user=user, level=level)[0]


@transaction.atomic
def analysis_request_once(*, match_id: int, user, level: str = "medium") -> tuple[Analysis, bool]:
    """The analysis of the match at this level: the existing one if it is queued, running or done
    (False), else a new one (True). Who may ask: `selectors.capabilities.analyse_verdict`
    (finished matches, unless staff ask; hidden-information games only by a player, of
    their own turns, once the match is over)."""
    match = first_or_error(Match.objects.select_for_update().filter(pk=match_id),
                           "match_not_found", f"no match {match_id}")   # one request at a time
    _check_level(level)
    table = capabilities.Table(match, match.seats.all(), user)
    capabilities.analyse_verdict(table).check()
    seat = None
    if table.rules.has_hidden_information:
        # An engine line shows what its seat held: analyse only the requester's own turns, from
        # their own view, and show the result to nobody else.
        seat = table.seat.seat
    existing = (Analysis.objects.filter(match=match, level=level, upto_ply=match.ply, seat=seat)
                .exclude(status=Analysis.Status.FAILED).order_by("id").first())
    if existing is not None:
        return existing, False
    _check_quota(user)
    analysis = Analysis.objects.create(match=match, requested_by=user, level=level,
                                       upto_ply=match.ply, seat=seat)
    dispatch.schedule_analyses([analysis], dispatch.USER_ANALYSIS_QUEUE)
    return analysis, True


def _check_quota(user) -> None:
    limit = settings.MAX_PENDING_ANALYSES
    pending = Analysis.objects.filter(requested_by=user, status__in=PENDING).count()
    if limit and pending >= limit:
        raise ServiceError("too_many_analyses", f"you have {pending} analyses waiting or running; "
                           f"the limit is {limit}", detail={"limit": limit, "pending": pending})


@transaction.atomic
def analysis_queue_finished(*, level: str = "easy", limit: int = 100) -> list[int]:
    """Queue analyses of finished matches that have none (perfect-information games only), on the
    system queue, so background work never delays people waiting for a reply."""
    _check_level(level)
    open_games = [slug for slug, g in games.GAMES.items() if not g.has_hidden_information]
    todo = list(Match.objects.filter(status=Match.Status.FINISHED, game__in=open_games,
                                     analyses__isnull=True, ply__gt=0).order_by("id")[:limit])
    created = Analysis.objects.bulk_create([
        Analysis(match=m, requested_by=None, level=level, upto_ply=m.ply) for m in todo])
    dispatch.schedule_analyses(created, dispatch.SYSTEM_ANALYSIS_QUEUE)
    return [a.pk for a in created]


@transaction.atomic
def analysis_started(*, analysis_id: int) -> bool:
    """Mark the job running; False if there is nothing left to do (gone or done already)."""
    return bool(Analysis.objects.filter(pk=analysis_id).exclude(status=Analysis.Status.DONE)
                .update(status=Analysis.Status.RUNNING))


@transaction.atomic
def analysis_complete(*, analysis_id: int, results: list[dict]) -> None:
    updated = Analysis.objects.filter(pk=analysis_id).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.DONE, results=results, error="", finished_at=timezone.now())
    if updated:
        analysis = Analysis.objects.select_related("requested_by").get(pk=analysis_id)
        notify([analysis.requested_by], "analysis_done", {"analysis": analysis.pk, "match": analysis.match_id})


@transaction.atomic
def analysis_requeued(*, analysis_id: int) -> bool:
    """Its job runs again: queued, unless it is done already (False)."""
    return bool(Analysis.objects.filter(pk=analysis_id).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.QUEUED, error="", finished_at=None))


@transaction.atomic
def analysis_failed(*, analysis_id: int, error: str) -> None:
    Analysis.objects.filter(pk=analysis_id).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.FAILED, error=error, finished_at=timezone.now())
