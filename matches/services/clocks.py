"""Clock bookkeeping inside the callers' transactions (start of a match, each turn, the end), and
the time warnings the beat sends. The time control itself is `matches.selectors.clocks`."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from matches.models import Match, MatchSeat
from matches.selectors.clocks import (
    FISCHER,
    PER_MOVE,
    initial_clock,
    on_vacation,
    seat_remaining,
)

from .events import notify


def clocks_start(match: Match, seats: Sequence[MatchSeat], now: datetime) -> None:
    """Fill every person's clock (engines have none) and start the first turn; seats unsaved."""
    for s in seats:
        s.clock = initial_clock(match.time_control) if match.time_control and not s.ai_level else None
    turn_start(match, seats, now, save_seat=False)


def turn_start(match: Match, seats: Sequence[MatchSeat], now: datetime, save_seat: bool = True) -> None:
    """The seat now to move begins its turn: its clock runs unless it is an engine's or its player
    is on vacation (then it waits, paused, for their return)."""
    match.turn_started_at = match.deadline = None
    match.time_warned = False
    tc = match.time_control
    if tc is None or match.status != Match.Status.ACTIVE or match.to_move is None:
        return
    seat = seats[match.to_move]
    if seat.ai_level:
        return
    if tc["kind"] == PER_MOVE:
        seat.clock = timedelta(days=tc["days"])
        if save_seat:
            seat.save(update_fields=["clock"])
    if seat.user_id in on_vacation([seat.user_id]):
        return
    match.turn_started_at = now
    match.deadline = now + seat.clock


def turn_end(match: Match, seats: Sequence[MatchSeat], now: datetime) -> None:
    """The seat to move has moved: its clock stops. A Fischer bank keeps what was left plus the
    increment, up to the maximum; a per-move clock shows the full turn it will have next."""
    tc = match.time_control
    if tc is None or match.to_move is None:
        return
    seat = seats[match.to_move]
    left = seat_remaining(match, seat, now)
    if left is None:
        return
    if tc["kind"] == FISCHER:
        seat.clock = min(left + timedelta(days=tc["increment_days"]), timedelta(days=tc["max_days"]))
    else:
        seat.clock = timedelta(days=tc["days"])
    seat.save(update_fields=["clock"])


def clock_stop(match: Match, seats: Sequence[MatchSeat], now: datetime) -> None:
    """The match is over: the mover's clock keeps the time it had left; nothing runs."""
    if match.turn_started_at is not None and match.to_move is not None:
        seat = seats[match.to_move]
        seat.clock = seat_remaining(match, seat, now)
        seat.save(update_fields=["clock"])
    match.turn_started_at = match.deadline = None


def warning_due(match: Match, now: datetime) -> bool:
    """A turn's warning comes TIME_WARNING_HOURS before its deadline, or halfway through a turn
    shorter than twice that."""
    if match.deadline is None or match.turn_started_at is None:
        return False
    lead = min(timedelta(hours=settings.TIME_WARNING_HOURS), (match.deadline - match.turn_started_at) / 2)
    return now >= match.deadline - lead


def clocks_send_warnings(now: datetime | None = None) -> list[int]:
    """Send each turn's `time_warning` once (a conditional update claims it, so two sweepers at
    once still send one). Returns the matches warned."""
    now = now or timezone.now()
    horizon = now + timedelta(hours=settings.TIME_WARNING_HOURS)
    warned = []
    for match in Match.objects.filter(status=Match.Status.ACTIVE, time_warned=False,
                                      deadline__lte=horizon, deadline__gt=now).order_by("deadline"):
        if not warning_due(match, now):
            continue
        with transaction.atomic():
            claimed = Match.objects.filter(pk=match.pk, time_warned=False, deadline=match.deadline,
                                           status=Match.Status.ACTIVE).update(time_warned=True)
            if claimed:
                seat = match.seats.select_related("user").get(seat=match.to_move)
                notify([seat.user], "time_warning",
                       {"match": match.pk, "ply": match.ply, "deadline": match.deadline.isoformat()})
                warned.append(match.pk)
    return warned
