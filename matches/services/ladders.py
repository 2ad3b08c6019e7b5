"""Ranked ladders: join at the bottom, challenge a player up to `challenge_reach` ranks above,
and take their rank by beating them (`standings` moves the ranks when the match ends)."""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q

import games
from matches.errors import ServiceError
from matches.models import Challenge, Ladder, LadderEntry, Match

from .challenges import challenge_create


def _ladder(ladder_id: int, lock: bool = False) -> Ladder:
    qs = Ladder.objects.select_for_update() if lock else Ladder.objects
    ladder = qs.filter(pk=ladder_id).first()
    if ladder is None:
        raise ServiceError("ladder_not_found", f"no ladder {ladder_id}")
    return ladder


@transaction.atomic
def ladder_create(*, name: str, game: str, variant: str | None = None, options: dict | None = None,
                  challenge_reach: int = 3, days_per_move: int | None = 3) -> Ladder:
    rules = games.get_game(game)
    if rules.min_players > 2 or rules.max_players < 2:
        raise ServiceError("not_two_player", f"ladders are for two-player games; {game} is for {rules.seats_text()}")
    normalized = rules.normalize_options(options, variant or None)
    if Ladder.objects.filter(name=name).exists():
        raise ServiceError("ladder_exists", f"a ladder named {name!r} exists")
    return Ladder.objects.create(name=name, game=rules.slug, variant=rules.public_variant(normalized), options=normalized,
                                 challenge_reach=challenge_reach, days_per_move=days_per_move)


@transaction.atomic
def ladder_join(*, ladder_id: int, user) -> LadderEntry:
    ladder = _ladder(ladder_id, lock=True)       # serialises joins: ranks stay dense
    if ladder.entries.filter(user=user).exists():
        raise ServiceError("already_joined", "you are already on this ladder")
    bottom = ladder.entries.aggregate(m=Max("rank"))["m"] or 0
    return LadderEntry.objects.create(ladder=ladder, user=user, rank=bottom + 1)


@transaction.atomic
def ladder_challenge(*, ladder_id: int, user, opponent: str) -> Challenge:
    ladder = _ladder(ladder_id)
    # Lock both rungs (in id order, so two challengers cannot deadlock): a second challenge of the
    # same pair waits for the first to commit, then sees it and is refused; ranks cannot move meanwhile.
    entries = list(ladder.entries.select_for_update().select_related("user")
                   .filter(Q(user=user) | Q(user__username=opponent)).order_by("pk"))
    mine = next((e for e in entries if e.user_id == user.pk), None)
    theirs = next((e for e in entries if e.user.username == opponent), None)
    if mine is None:
        raise ServiceError("not_on_ladder", "join the ladder before challenging")
    if theirs is None:
        raise ServiceError("unknown_player", f"{opponent!r} is not on this ladder")
    if not 0 < mine.rank - theirs.rank <= ladder.challenge_reach:
        raise ServiceError("out_of_reach", f"you may challenge players 1 to {ladder.challenge_reach} ranks above "
                           f"you (you are #{mine.rank}, {opponent} is #{theirs.rank})")
    busy = Match.objects.filter(ladder=ladder, status=Match.Status.ACTIVE, seats__user=user) \
        .filter(seats__user=theirs.user).exists() or Challenge.objects.filter(
        ladder=ladder, status=Challenge.Status.OPEN, created_by=user, seats__user=theirs.user).exists()
    if busy:
        raise ServiceError("ladder_game_pending", "you already have a ladder game or challenge with this player")
    return challenge_create(creator=user, game=ladder.game, options=ladder.options,
                            opponents=[opponent], rated=True,
                            days_per_move=ladder.days_per_move, ladder=ladder)
