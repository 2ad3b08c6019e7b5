"""Clock reads: each seat's time left, as of now."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

from django.utils import timezone

from matches.models import Match, MatchSeat


def clocks_payload(match: Match, seats: Sequence[MatchSeat], now: datetime | None = None) -> list[dict] | None:
    """Per seat `{seat, remaining (seconds, or null for an engine), running}`; None without a clock."""
    if not match.days_per_move:
        return None
    now = now or timezone.now()
    turn = timedelta(days=match.days_per_move)
    out = []
    for s in seats:
        running = match.status == Match.Status.ACTIVE and s.seat == match.to_move and match.deadline is not None
        if s.ai_level:
            remaining = None
        elif running:
            remaining = max(0, int((match.deadline - now).total_seconds()))
        else:
            remaining = int(turn.total_seconds())
        out.append({"seat": s.seat, "remaining": remaining, "running": running})
    return out
