"""Vacation reads: the allowance, and a player's account as of now."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from matches.models import Vacation


def allowance() -> timedelta:
    return timedelta(days=settings.VACATION_DAYS_PER_YEAR)


def vacation_ends_at(vacation: Vacation) -> datetime | None:
    """When a running vacation uses up the allowance (None when not on vacation)."""
    if vacation.started_at is None:
        return None
    return vacation.started_at + max(timedelta(0), allowance() - vacation.used)


def vacation_payload(user, now: datetime | None = None) -> dict:
    now = now or timezone.now()
    vacation = Vacation.objects.filter(user=user).first()
    used = timedelta(0)
    if vacation is not None and (vacation.year == now.year or vacation.started_at is not None):
        used = vacation.used
        if vacation.started_at is not None:
            used = min(allowance(), used + (now - vacation.started_at))
    away = vacation is not None and vacation.started_at is not None
    return {
        "on_vacation": away, "started_at": vacation.started_at if away else None,
        "ends_at": vacation_ends_at(vacation) if away else None,
        "year": vacation.year if away else now.year,
        "allowance_days": settings.VACATION_DAYS_PER_YEAR,
        "used_seconds": int(used.total_seconds()),
        "left_seconds": int((allowance() - used).total_seconds()),
    }
