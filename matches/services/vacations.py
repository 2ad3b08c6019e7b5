"""Vacations: a player away stops the clocks of the matches where they are to move (and a turn
that reaches them while away starts paused); back, those clocks run again from where they stood.
Each calendar year (UTC) grants PEARLSITE_VACATION_DAYS_PER_YEAR days; a vacation that uses them
up ends by itself (the beat calls `vacations_end_used_up`)."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from matches.errors import ServiceError
from matches.models import Match, Vacation
from matches.selectors.clocks import seat_remaining
from matches.selectors.vacations import allowance, vacation_ends_at


def _account(user, now: datetime) -> Vacation:
    """The user's vacation row, locked; a new year starts a fresh allowance (a vacation running
    across new year is counted in the year it began)."""
    Vacation.objects.get_or_create(user=user, defaults={"year": now.year})
    vacation = Vacation.objects.select_for_update().get(user=user)
    if vacation.year != now.year and vacation.started_at is None:
        vacation.year, vacation.used = now.year, timedelta(0)
    return vacation


def _their_active_matches(user):
    """Every active match the user plays, locked in id order (a move holding one of them is
    waited for, so no turn starts unseen)."""
    matches = list(Match.objects.select_for_update().filter(status=Match.Status.ACTIVE, seats__user=user)
                   .order_by("id"))
    for match in matches:
        seats = list(match.seats.order_by("seat"))
        yield match, seats, next(s for s in seats if s.user_id == user.pk)


@transaction.atomic
def vacation_start(*, user, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    vacation = _account(user, now)
    if vacation.started_at is not None:
        raise ServiceError("already_on_vacation", "you are on vacation already")
    if vacation.used >= allowance():
        raise ServiceError("no_vacation_left",
                           f"this year's {settings.VACATION_DAYS_PER_YEAR} vacation days are used up")
    vacation.started_at = now
    vacation.save()
    for match, seats, mine in _their_active_matches(user):
        if match.to_move == mine.seat and match.turn_started_at is not None:
            mine.clock = seat_remaining(match, mine, now)
            mine.save(update_fields=["clock"])
            match.turn_started_at = match.deadline = None
            match.save(update_fields=["turn_started_at", "deadline", "updated_at"])
    return vacation


@transaction.atomic
def vacation_end(*, user, now: datetime | None = None) -> Vacation:
    """Back at the board: the time away is counted and paused clocks run again from `now`."""
    now = now or timezone.now()
    vacation = _account(user, now)
    if vacation.started_at is None:
        raise ServiceError("not_on_vacation", "you are not on vacation")
    back = min(now, vacation.started_at + (allowance() - vacation.used))
    vacation.used = min(allowance(), vacation.used + (back - vacation.started_at))
    vacation.started_at = None
    vacation.save()
    for match, seats, mine in _their_active_matches(user):
        if match.to_move == mine.seat and match.turn_started_at is None and mine.clock is not None:
            match.turn_started_at = back
            match.deadline = back + mine.clock
            match.save(update_fields=["turn_started_at", "deadline", "updated_at"])
    return vacation


def vacations_end_used_up(now: datetime | None = None) -> list[int]:
    """End the vacations whose allowance ran out, as of the moment it ran out."""
    now = now or timezone.now()
    ended = []
    for vacation in Vacation.objects.filter(started_at__isnull=False).select_related("user"):
        ends_at = vacation_ends_at(vacation)
        if ends_at <= now:
            try:
                vacation_end(user=vacation.user, now=now)
            except ServiceError:        # ended meanwhile by its owner
                continue
            ended.append(vacation.user_id)
    return ended
