"""Ranked ladders: join at the bottom, challenge a player up to `challenge_reach` ranks above,
and take their rank by beating them (everyone in between moves down one: leapfrog)."""
from __future__ import annotations

from typing import Sequence

from django.db import transaction
from django.db.models import F, Max

import games

from .errors import BadRequest, Conflict, Forbidden, NotFound
from .models import Challenge, Ladder, LadderEntry, Match, MatchSeat


def _ladder(ladder_id: int, lock: bool = False) -> Ladder:
    qs = Ladder.objects.select_for_update() if lock else Ladder.objects
    try:
        return qs.get(pk=ladder_id)
    except Ladder.DoesNotExist:
        raise NotFound(f"no ladder {ladder_id}", code="ladder_not_found") from None


@transaction.atomic
def ladder_create(*, name: str, game: str, variant: str | None = None, options: dict | None = None,
                  challenge_reach: int = 3, days_per_move: int | None = 3) -> Ladder:
    rules = games.get_game(game)
    if rules.min_players > 2 or rules.max_players < 2:
        raise BadRequest(f"ladders are for two-player games; {game} is for {rules.seats_text()}",
                         code="not_two_player")
    normalized = rules.normalize_options(options, variant or None)
    if Ladder.objects.filter(name=name).exists():
        raise Conflict(f"a ladder named {name!r} exists", code="ladder_exists")
    return Ladder.objects.create(name=name, game=rules.slug, variant=variant or "", options=normalized,
                                 challenge_reach=challenge_reach, days_per_move=days_per_move)


@transaction.atomic
def ladder_join(*, ladder_id: int, user) -> LadderEntry:
    ladder = _ladder(ladder_id, lock=True)       # serialises joins: ranks stay dense
    if ladder.entries.filter(user=user).exists():
        raise Conflict("you are already on this ladder", code="already_joined")
    bottom = ladder.entries.aggregate(m=Max("rank"))["m"] or 0
    return LadderEntry.objects.create(ladder=ladder, user=user, rank=bottom + 1)


@transaction.atomic
def ladder_challenge(*, ladder_id: int, user, opponent: str) -> Challenge:
    from .services import challenge_create

    ladder = _ladder(ladder_id)
    mine = ladder.entries.filter(user=user).first()
    theirs = ladder.entries.select_related("user").filter(user__username=opponent).first()
    if mine is None:
        raise Forbidden("join the ladder before challenging", code="not_on_ladder")
    if theirs is None:
        raise BadRequest(f"{opponent!r} is not on this ladder", code="unknown_player")
    if not 0 < mine.rank - theirs.rank <= ladder.challenge_reach:
        raise BadRequest(f"you may challenge players 1 to {ladder.challenge_reach} ranks above you "
                         f"(you are #{mine.rank}, {opponent} is #{theirs.rank})", code="out_of_reach")
    busy = Match.objects.filter(ladder=ladder, status=Match.Status.ACTIVE, seats__user=user) \
        .filter(seats__user=theirs.user).exists() or Challenge.objects.filter(
        ladder=ladder, status=Challenge.Status.OPEN, created_by=user, seats__user=theirs.user).exists()
    if busy:
        raise Conflict("you already have a ladder game or challenge with this player",
                       code="ladder_game_pending")
    return challenge_create(creator=user, game=ladder.game, options=ladder.options,
                            variant=ladder.variant or None, opponents=[opponent], rated=True,
                            days_per_move=ladder.days_per_move, ladder=ladder)


def record_result(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    """Called inside the finishing transaction of a ladder match."""
    challenger_id = match.challenge.created_by_id if hasattr(match, "challenge") else None
    entries = {e.user_id: e for e in LadderEntry.objects.select_for_update()
               .filter(ladder_id=match.ladder_id, user_id__in=[s.user_id for s in seats])}
    if len(entries) != 2 or challenger_id not in entries:
        return                               # someone left the ladder meanwhile: no rank change
    by_seat = {s.seat: entries[s.user_id] for s in seats}
    for seat, entry in by_seat.items():
        if seat in outcome.winners:
            entry.wins += 1
        elif outcome.winners:
            entry.losses += 1
        entry.save(update_fields=["wins", "losses"])
    challenger = entries[challenger_id]
    defender = next(e for e in entries.values() if e.user_id != challenger_id)
    won = any(by_seat[w].user_id == challenger_id for w in outcome.winners)
    if won and challenger.rank > defender.rank:
        old, new = challenger.rank, defender.rank
        # Ranks are unique (deferred constraint): shift the block, then drop the climber in.
        LadderEntry.objects.filter(ladder_id=match.ladder_id, rank__gte=new, rank__lt=old) \
            .update(rank=F("rank") + 1)
        LadderEntry.objects.filter(pk=challenger.pk).update(rank=new)
