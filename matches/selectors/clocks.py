"""Time controls and clock reads.

A time control is stored on the match as data:
- `{"kind": "per_move", "days": d}`: every turn the player to move has d days;
- `{"kind": "fischer", "initial_days": a, "increment_days": b, "max_days": c}`: a bank that starts
  at a days, gains b days after each of the seat's moves and never holds more than c days.
Each seat's `clock` is its time left (the seat to move: as of `match.turn_started_at`)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

from django.utils import timezone

from matches.errors import ServiceError
from matches.models import Match, MatchSeat, Vacation

PER_MOVE, FISCHER = "per_move", "fischer"
# field: (lowest, highest) whole days
_FIELDS = {
    PER_MOVE: {"days": (1, 60)},
    FISCHER: {"initial_days": (1, 60), "increment_days": (0, 30), "max_days": (1, 120)},
}


def _refuse(message: str) -> ServiceError:
    return ServiceError("invalid_time_control", message)


def parse_time_control(value: dict | None, days_per_move: int | None = None) -> dict | None:
    """The normalised time control of a challenge (None: no clock); `days_per_move` is the
    shorthand for `{"kind": "per_move", "days": days_per_move}`."""
    if value is not None and days_per_move is not None:
        raise _refuse("give time_control or days_per_move, not both")
    if days_per_move is not None:
        value = {"kind": PER_MOVE, "days": days_per_move}
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind") not in _FIELDS:
        raise _refuse(f"time_control.kind must be one of {list(_FIELDS)}")
    fields = _FIELDS[value["kind"]]
    unknown = set(value) - set(fields) - {"kind"}
    if unknown:
        raise _refuse(f"unknown time_control field {sorted(unknown)[0]!r} for {value['kind']}")
    out: dict = {"kind": value["kind"]}
    for name, (low, high) in fields.items():
        days = value.get(name)
        if isinstance(days, bool) or not isinstance(days, int) or not low <= days <= high:
            raise _refuse(f"time_control.{name} must be a whole number of days from {low} to {high}")
        out[name] = days
    if out["kind"] == FISCHER and out["max_days"] < out["initial_days"]:
        raise _refuse("time_control.max_days must be at least initial_days")
    return out


def days_per_move(time_control: dict | None) -> int | None:
    """The shorthand form, for a per-move clock (None otherwise)."""
    return time_control["days"] if time_control and time_control["kind"] == PER_MOVE else None


def initial_clock(time_control: dict) -> timedelta:
    days = time_control["days"] if time_control["kind"] == PER_MOVE else time_control["initial_days"]
    return timedelta(days=days)


def on_vacation(user_ids) -> set[int]:
    """Which of these users are away now."""
    ids = [u for u in user_ids if u is not None]
    if not ids:
        return set()
    return set(Vacation.objects.filter(user_id__in=ids, started_at__isnull=False).values_list("user_id", flat=True))


def seat_remaining(match: Match, seat: MatchSeat, now: datetime) -> timedelta | None:
    """Time left on a seat's clock at `now` (None: the seat has no clock)."""
    if match.time_control is None or seat.ai_level or seat.clock is None:
        return None
    if match.status == Match.Status.ACTIVE and seat.seat == match.to_move and match.turn_started_at:
        return max(timedelta(0), seat.clock - (now - match.turn_started_at))
    return seat.clock


def clocks_payload(match: Match, seats: Sequence[MatchSeat], now: datetime | None = None) -> list[dict] | None:
    """Per seat `{seat, remaining (seconds, or null for an engine), running}`; None without a clock."""
    if match.time_control is None:
        return None
    now = now or timezone.now()
    out = []
    for s in seats:
        remaining = seat_remaining(match, s, now)
        running = (match.status == Match.Status.ACTIVE and s.seat == match.to_move
                   and match.turn_started_at is not None and not s.ai_level)
        out.append({"seat": s.seat, "remaining": None if remaining is None else int(remaining.total_seconds()),
                    "running": running})
    return out
