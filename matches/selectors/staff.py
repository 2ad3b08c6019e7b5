"""Reads for the staff tools (docs/operations.md §Staff tools): find an account, its matches, and
engine jobs by state. Staff see accounts as the server holds them (inactive ones too)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet

from matches.errors import first_or_error
from matches.models import EngineJob, Match

from .matches import matches_query

User = get_user_model()


def users_find(query: str) -> QuerySet:
    """Accounts whose username or e-mail contains `query` (any case), by username."""
    return (User.objects.filter(Q(username__icontains=query) | Q(email__icontains=query))
            .annotate(token_count=Count("api_tokens")).order_by("username"))


def user_named(username: str):
    return first_or_error(User.objects.filter(username__iexact=username), "user_not_found",
                          f"no user {username!r}")


def user_payload(user) -> dict:
    return {"id": user.pk, "username": user.username, "email": user.email, "is_active": user.is_active,
            "is_staff": user.is_staff, "date_joined": user.date_joined, "last_login": user.last_login,
            "tokens": getattr(user, "token_count", None)}


def matches_of(user, status: str | None = None) -> QuerySet[Match]:
    """Every match the account sits in, newest first."""
    return matches_query(status=status, player=user.username)


def engine_jobs_query(status: str | None = None, match_id: int | None = None) -> QuerySet[EngineJob]:
    qs = EngineJob.objects.order_by("-id")
    if status:
        qs = qs.filter(status=status)
    if match_id:
        qs = qs.filter(match_id=match_id)
    return qs


def engine_job_payload(job: EngineJob) -> dict:
    return {"id": job.pk, "kind": job.kind, "lane": job.lane, "status": job.status, "match": job.match_id,
            "analysis": job.analysis_id, "position": job.position_id, "ply": job.ply, "level": job.level, "user": job.user_id,
            "attempts": job.attempts, "last_error": job.last_error, "created_at": job.created_at,
            "finished_at": job.finished_at}
