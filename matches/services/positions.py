"""The analysis board: a position's best lines asked of an engine (docs/analysis.md, "The
analysis board"), and what the workers hand back.

A request names a line (a finished match at a ply, or a game's start with options, then moves);
the rules replay and check it; no position on it may be the current position of an unfinished
match the requester plays in. The position's lines at a level and line count are computed once:
a later request with no more thinking time reads the stored row (200), a new one is an engine
job on the people's analysis lane (202), counted with the requester's analyses against
`MAX_PENDING_ANALYSES`. Everyone who asked is told when it is done (`position_done`)."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ai_workers.engines.jobs import MAX_LINES
from matches.errors import ServiceError, first_or_error
from matches.models import Analysis, Match, PositionAnalysis
from matches.selectors import positions as board

from . import dispatch
from .analysis import ANALYSIS_LEVELS, PENDING
from .events import notify

Status = PositionAnalysis.Status


@transaction.atomic
def position_request(*, user, moves: list[str], level: str = "medium", lines: int = 3,
                     seconds: float | None = None, match_id: int | None = None, ply: int | None = None,
                     game: str | None = None, options: dict | None = None, variant: str | None = None,
                     players: int | None = None) -> tuple[PositionAnalysis, bool]:
    """The lines of the line's last position: a stored row (False) or a new job (True)."""
    if level not in ANALYSIS_LEVELS:
        raise ServiceError("unknown_level", f"analysis level must be one of {list(ANALYSIS_LEVELS)}")
    if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
        raise ServiceError("validation_error", f"lines is 1 to {MAX_LINES}", detail={"lines": lines})
    match = None
    if match_id is not None:
        match = first_or_error(Match.objects.filter(pk=match_id), "match_not_found", f"no match {match_id}")
    line = board.replay_line(moves=moves, match=match, ply=ply, game=game, options=options,
                             variant=variant, players=players)
    board.check_searchable(line)
    board.refuse_live(board.live_match_on_line(user, line))
    most = board.level_budget(line.game, level)
    seconds = most if seconds is None else seconds
    if not 0 < seconds <= most + 1e-9:
        raise ServiceError("invalid_budget", f"the thinking time at {level} is more than 0 and at most "
                                             f"{most:g} s", detail={"max_seconds": most})
    final = line.final
    key = board.state_key(line.game, final)
    found = board.cached(key, level, lines, seconds)
    if found is not None:
        if found.status != Status.DONE:
            found.askers.add(user)
        return found, False
    _check_quota(user)
    position = PositionAnalysis.objects.create(
        game=line.game, options=line.options, players=line.players, state=final.to_dict(),
        state_key=key, position_key=board.position_key(line.game, final), ply=final.ply,
        to_move=final.current_player, level=level, lines=lines, seconds=seconds, requested_by=user)
    position.askers.add(user)
    dispatch.schedule_position(position)
    return position, True


def _check_quota(user) -> None:
    """One allowance for analyses and positions waiting or running (`MAX_PENDING_ANALYSES`)."""
    limit = settings.MAX_PENDING_ANALYSES
    pending = (Analysis.objects.filter(requested_by=user, status__in=PENDING).count()
               + board.pending_for(user))
    if limit and pending >= limit:
        raise ServiceError("too_many_analyses", f"you have {pending} analyses waiting or running; "
                           f"the limit is {limit}", detail={"limit": limit, "pending": pending})


@transaction.atomic
def position_started(*, position_id: int) -> bool:
    """Mark it running; False if there is nothing left to do (gone or done already)."""
    return bool(PositionAnalysis.objects.filter(pk=position_id).exclude(status=Status.DONE)
                .update(status=Status.RUNNING))


@transaction.atomic
def position_complete(*, position_id: int, result: dict) -> None:
    updated = PositionAnalysis.objects.filter(pk=position_id).exclude(status=Status.DONE).update(
        status=Status.DONE, result=result, error="", finished_at=timezone.now())
    if updated:
        _tell(position_id, Status.DONE)


@transaction.atomic
def position_failed(*, position_id: int, error: str) -> None:
    updated = PositionAnalysis.objects.filter(pk=position_id).exclude(status=Status.DONE).update(
        status=Status.FAILED, error=error, finished_at=timezone.now())
    if updated:
        _tell(position_id, Status.FAILED)


@transaction.atomic
def position_requeued(*, position_id: int) -> bool:
    """Its job runs again (staff): queued, unless it is done already (False)."""
    return bool(PositionAnalysis.objects.filter(pk=position_id).exclude(status=Status.DONE).update(
        status=Status.QUEUED, error="", finished_at=None))


def _tell(position_id: int, status: str) -> None:
    position = PositionAnalysis.objects.get(pk=position_id)
    notify(list(position.askers.order_by("id")), "position_done", {"position": position_id, "status": status})
