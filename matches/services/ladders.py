"""Ranked ladders: anyone may open one; players join at the bottom, challenge a player up to
`challenge_reach` ranks above, and take their rank by beating them (`standings` moves the ranks
when the match ends). One active challenge per pair and per challenger; a challenge the defender
declines, or leaves unanswered for `answer_days` (the server then declines it), counts as the
defender's forfeit."""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

import games
from matches.errors import ServiceError, first_or_error
from matches.models import Challenge, Ladder, LadderEntry, LadderEvent, Match

from .challenges import challenge_create
from .standings import ladder_challenge_forfeit


def _ladder(ladder_id: int, lock: bool = False) -> Ladder:
    qs = Ladder.objects.select_for_update() if lock else Ladder.objects
    return first_or_error(qs.filter(pk=ladder_id), "ladder_not_found", f"no ladder {ladder_id}")


@transaction.atomic
def ladder_create(*, name: str, game: str, variant: str | None = None, options: dict | None = None,
                  challenge_reach: int = 3, days_per_move: int = 3, answer_days: int = 7,
                  created_by=None) -> Ladder:
    rules = games.get_game(game)
    if rules.min_players > 2 or rules.max_players < 2:
        raise ServiceError("not_two_player", f"ladders are for two-player games; {game} is for {rules.seats_text()}")
    normalized = rules.normalize_options(options, variant or None)
    if Ladder.objects.filter(name=name).exists():
        raise ServiceError("ladder_exists", f"a ladder named {name!r} exists")
    return Ladder.objects.create(name=name, game=rules.slug, variant=rules.public_variant(normalized),
                                 options=normalized, challenge_reach=challenge_reach, days_per_move=days_per_move,
                                 answer_days=answer_days, created_by=created_by)


@transaction.atomic
def ladder_join(*, ladder_id: int, user) -> LadderEntry:
    ladder = _ladder(ladder_id, lock=True)       # serialises joins: ranks stay dense
    if ladder.entries.filter(user=user).exists():
        raise ServiceError("already_joined", "you are already on this ladder")
    bottom = ladder.entries.aggregate(m=Max("rank"))["m"] or 0
    entry = LadderEntry.objects.create(ladder=ladder, user=user, rank=bottom + 1)
    LadderEvent.objects.create(ladder=ladder, kind=LadderEvent.Kind.JOINED, challenger=user,
                               challenger_rank=entry.rank, created_at=timezone.now())
    return entry


@transaction.atomic
def ladder_leave_all(*, user) -> list[int]:
    """Take `user` off every ladder (a suspension or a deleted account): everyone below moves up
    one rank. The ids of the ladders left."""
    left = []
    for entry in LadderEntry.objects.filter(user=user).select_related("ladder"):
        ladder = _ladder(entry.ladder_id, lock=True)
        entry.delete()
        below = list(ladder.entries.filter(rank__gt=entry.rank).order_by("rank"))
        for other in below:
            other.rank -= 1
        LadderEntry.objects.bulk_update(below, ["rank"])
        left.append(ladder.pk)
    return left


def _active_challenges(ladder: Ladder):
    """Ladder challenges still open or whose match is still being played."""
    return Challenge.objects.filter(ladder=ladder).filter(
        Q(status=Challenge.Status.OPEN) | Q(status=Challenge.Status.STARTED, match__status=Match.Status.ACTIVE))


@transaction.atomic
def ladder_challenge(*, ladder_id: int, user, opponent: str) -> Challenge:
    ladder = _ladder(ladder_id)
    # Lock both rungs (in id order, so two challengers cannot deadlock): a second challenge of the
    # same pair waits for the first to commit, then sees it and is refused; ranks cannot move meanwhile.
    entries = list(ladder.entries.select_for_update().select_related("user")
                   .filter(Q(user=user) | Q(user__username__iexact=opponent)).order_by("pk"))
    mine = next((e for e in entries if e.user_id == user.pk), None)
    theirs = next((e for e in entries if e.user.username.upper() == opponent.upper()), None)
    if mine is None:
        raise ServiceError("not_on_ladder", "join the ladder before challenging")
    if theirs is None:
        raise ServiceError("unknown_player", f"{opponent!r} is not on this ladder")
    # Both entries locked, in a fixed order: a second challenge by either waits here, then sees this one.
    locked = {e.pk: e for e in LadderEntry.objects.select_for_update().filter(pk__in=[mine.pk, theirs.pk])
              .order_by("pk")}
    mine, theirs = locked[mine.pk], locked[theirs.pk]
    if not 0 < mine.rank - theirs.rank <= ladder.challenge_reach:
        raise ServiceError("out_of_reach", f"you may challenge players 1 to {ladder.challenge_reach} ranks above "
                           f"you (you are #{mine.rank}, {opponent} is #{theirs.rank})")
    active = _active_challenges(ladder)
    pair = active.filter(seats__user=user).filter(seats__user=theirs.user_id)
    if pair.exists():
        raise ServiceError("ladder_game_pending", "you already have a ladder challenge or game with this player")
    if active.filter(created_by=user).exists():
        raise ServiceError("ladder_game_pending", "you have a ladder challenge under way: one at a time")
    return challenge_create(creator=user, game=ladder.game, options=ladder.options,
                            opponents=[opponent], rated=True,
                            days_per_move=ladder.days_per_move, ladder=ladder)


@transaction.atomic
def ladder_forfeit_unanswered(now=None) -> list[int]:
    """Decline every ladder challenge left unanswered past its ladder's window; the defender
    forfeits (the challenger takes their rank). Returns the challenge ids."""
    now = now or timezone.now()
    forfeited = []
    for ladder in Ladder.objects.filter(challenges__status=Challenge.Status.OPEN).distinct():
        cutoff = now - timedelta(days=ladder.answer_days)
        for challenge in (Challenge.objects.select_for_update(skip_locked=True)
                          .filter(ladder=ladder, status=Challenge.Status.OPEN, created_at__lt=cutoff)):
            challenge.status = Challenge.Status.DECLINED
            challenge.save(update_fields=["status", "updated_at"])
            ladder_challenge_forfeit(challenge)
            forfeited.append(challenge.pk)
    return forfeited


