"""Challenges: to named people, open seats (anyone may take them) and engine seats. When every
seat has accepted, the match starts in the same transaction (engine-only challenges at once)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import games
from ai_workers.engines import LEVELS
from matches import policies
from matches.errors import ServiceError, first_or_error
from matches.models import Challenge, ChallengeSeat, Match, MatchSeat
from matches.selectors import capabilities
from matches.selectors.clocks import parse_time_control

from .accounts import AI_PREFIX
from .events import notify
from .play import match_start
from .standings import ladder_challenge_forfeit

User = get_user_model()


@dataclass(frozen=True)
class SeatRequest:
    user: "User | None" = None
    ai_level: str = ""


def _parse_opponent(entry: object, creator) -> SeatRequest:
    if entry is None:
        return SeatRequest()
    if not isinstance(entry, str) or not entry.strip():
        raise ServiceError("invalid_opponent", f"an opponent is a username, 'ai:<level>' or null, not {entry!r}")
    if entry.startswith(AI_PREFIX):
        level = entry[len(AI_PREFIX):]
        if level not in LEVELS:
            raise ServiceError("unknown_level", f"unknown engine level {level!r}; choose from {list(LEVELS)}")
        return SeatRequest(ai_level=level)
    user = first_or_error(User.objects.filter(username__iexact=entry).order_by("pk"),
                          "unknown_player", f"no player named {entry!r}")
    if user.pk == creator.pk:
        raise ServiceError("invalid_opponent", "you cannot challenge yourself")
    policies.check_challenge(creator, user)
    return SeatRequest(user=user)


def _seat_plan(creator, opponents: Sequence[object], creator_seat: int) -> list[SeatRequest]:
    requests = [_parse_opponent(o, creator) for o in opponents]
    named = [r.user.pk for r in requests if r.user is not None]
    if len(named) != len(set(named)):
        raise ServiceError("invalid_opponent", "a player may hold only one seat")
    if not 0 <= creator_seat <= len(requests):
        raise ServiceError("invalid_seat", f"seat must be between 0 and {len(requests)}")
    requests.insert(creator_seat, SeatRequest(user=creator))
    return requests


@transaction.atomic
def challenge_create(*, creator, game: str, options: dict | None = None,
                     variant: str | None = None, opponents: Sequence[object] = (),
                     rated: bool = False, time_control: dict | None = None,
                     days_per_move: int | None = None, seat: int = 0, ladder=None,
                     rematch_of: Match | None = None) -> Challenge:
    """`time_control` (or its shorthand `days_per_move`) sets the clock: matches.selectors.clocks."""
    rules = games.get_game(game)
    plan = _seat_plan(creator, opponents, seat)
    rules.check_players(len(plan))
    normalized = rules.normalize_options(options, variant or None)
    clock = parse_time_control(time_control, days_per_move)
    if rated and (len(plan) < 2 or any(r.ai_level for r in plan)):
        raise ServiceError("rated_needs_people", "rated matches are between two or more people, without engine seats")
    if rated and clock is None:
        raise ServiceError("rated_needs_clock", "a rated match needs a time control (time_control or days_per_move)")
    if any(r.ai_level for r in plan):
        _check_engine_matches(creator)
    if not all(r.ai_level or r.user == creator for r in plan):     # it will wait for people
        _check_open_challenges(creator)
    challenge = Challenge.objects.create(
        game=rules.slug, variant=rules.public_variant(normalized), options=normalized,
        rated=rated, time_control=clock, created_by=creator, ladder=ladder, rematch_of=rematch_of,
        expires_at=timezone.now() + timedelta(days=settings.CHALLENGE_DAYS))
    ChallengeSeat.objects.bulk_create([
        ChallengeSeat(challenge=challenge, seat=i, user=r.user, ai_level=r.ai_level,
                      accepted=(r.user == creator or bool(r.ai_level)), open_seat=r.user is None and not r.ai_level)
        for i, r in enumerate(plan)])
    invited = [r.user for r in plan if r.user is not None and r.user != creator]
    notify(invited, "challenge_received", {"challenge": challenge.pk, "game": rules.slug,
                                           "variant": challenge.variant, "from": creator.username})
    _start_if_ready(challenge, creator)
    return challenge


def _locked_challenge(challenge_id: int) -> Challenge:
    challenge = first_or_error(Challenge.objects.select_for_update().filter(pk=challenge_id),
                               "challenge_not_found", f"no challenge {challenge_id}")
    if challenge.status != Challenge.Status.OPEN:
        raise ServiceError("challenge_closed", f"the challenge is {challenge.status}")
    if challenge.expires_at is not None and challenge.expires_at <= timezone.now():
        raise ServiceError("challenge_closed", "the challenge has expired")
    return challenge


@transaction.atomic
def challenge_accept(*, challenge_id: int, user) -> Challenge:
    """Accept your seat, or take an open one."""
    challenge = _locked_challenge(challenge_id)
    seats = list(challenge.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None and mine.accepted:
        raise ServiceError("already_accepted", "you have already accepted this challenge")
    if mine is None:
        mine = next((s for s in seats if s.user_id is None and not s.ai_level), None)
        if mine is None:
            raise ServiceError("not_invited", "this challenge has no seat for you")
        policies.check_challenge(user, challenge.created_by)
        mine.user = user
    if any(s.ai_level for s in seats):
        _check_engine_matches(user)
    mine.accepted = True
    mine.save(update_fields=["user", "accepted"])
    notify([challenge.created_by], "challenge_accepted", {"challenge": challenge.pk, "by": user.username})
    _start_if_ready(challenge, user)
    return challenge


@transaction.atomic
def challenge_decline(*, challenge_id: int, user) -> Challenge:
    """Decline a challenge you were invited to; someone who took an open seat leaves it instead
    (it is open again), so nobody can end another player's open challenge. Declining a ladder
    challenge is the defender's forfeit."""
    challenge = _locked_challenge(challenge_id)
    seat = first_or_error(challenge.seats.filter(user=user).exclude(user=challenge.created_by),
                          "not_invited", "only an invited player can decline")
    if seat.open_seat:
        seat.user, seat.accepted = None, False
        seat.save(update_fields=["user", "accepted"])
        notify([challenge.created_by], "challenge_seat_left", {"challenge": challenge.pk, "by": user.username})
        return challenge
    challenge.status = Challenge.Status.DECLINED
    challenge.save(update_fields=["status", "updated_at"])
    notify([challenge.created_by], "challenge_declined", {"challenge": challenge.pk, "by": user.username})
    if challenge.ladder_id:
        ladder_challenge_forfeit(challenge)
    return challenge


@transaction.atomic
def challenge_cancel(*, challenge_id: int, user) -> Challenge:
    """Withdraw your own challenge."""
    challenge = _locked_challenge(challenge_id)
    if challenge.created_by_id != user.pk:
        raise ServiceError("not_challenger", "only the challenger can cancel")
    challenge.status = Challenge.Status.CANCELLED
    challenge.save(update_fields=["status", "updated_at"])
    invited = [s.user for s in challenge.seats.select_related("user") if s.user_id != user.pk]
    notify(invited, "challenge_cancelled", {"challenge": challenge.pk})
    return challenge


def _check_engine_matches(user) -> None:
    limit = settings.MAX_ACTIVE_ENGINE_MATCHES
    with_engines = MatchSeat.objects.exclude(ai_level="").values("match_id")
    active = Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user, pk__in=with_engines).count()
    if limit and active >= limit:
        raise ServiceError("too_many_engine_matches", f"you have {active} matches against engines going; "
                           f"the limit is {limit}: finish or resign one first", detail={"limit": limit, "active": active})


def _check_open_challenges(user) -> None:
    limit = settings.MAX_OPEN_CHALLENGES
    waiting = Challenge.objects.filter(created_by=user, status=Challenge.Status.OPEN).count()
    if limit and waiting >= limit:
        raise ServiceError("too_many_challenges", f"you have {waiting} open challenges; the limit is {limit}: "
                           "cancel one first", detail={"limit": limit, "open": waiting})


def _start_if_ready(challenge: Challenge, user) -> None:
    seats = list(challenge.seats.select_related("user"))
    if all(s.accepted for s in seats):
        challenge.match = match_start(challenge, seats, cause=user)
        challenge.status = Challenge.Status.STARTED
        challenge.save(update_fields=["match", "status", "updated_at"])


def challenges_expire(now=None) -> list[int]:
    """Close the open challenges past their expiry (each once, even with two sweepers: the rows
    are locked and a closed challenge no longer matches) and tell everyone seated."""
    now = now or timezone.now()
    with transaction.atomic():
        expired = list(Challenge.objects.select_for_update(skip_locked=True)
                       .filter(status=Challenge.Status.OPEN, expires_at__lte=now).order_by("id"))
        for challenge in expired:
            challenge.status = Challenge.Status.EXPIRED
            challenge.save(update_fields=["status", "updated_at"])
            users = [challenge.created_by] + [s.user for s in challenge.seats.select_related("user")]
            notify(users, "challenge_expired", {"challenge": challenge.pk})
    return [c.pk for c in expired]


@transaction.atomic
def challenge_rematch(*, match_id: int, user) -> Challenge:
    """The same game again with the seats turned (two seats swap): a challenge from the caller to
    the other players, on the same options (secret ones drawn afresh), clock and rating. If another
    player of the match has already asked for it, asking too accepts theirs."""
    match = first_or_error(Match.objects.select_for_update().filter(pk=match_id),
                           "match_not_found", f"no match {match_id}")
    seats = list(match.seats.select_related("user").order_by("seat"))
    table = capabilities.Table(match, seats, user)
    capabilities.rematch_verdict(table).check()
    mine = table.seat
    pending = Challenge.objects.filter(rematch_of=match, status=Challenge.Status.OPEN).first()
    if pending is not None:
        return challenge_accept(challenge_id=pending.pk, user=user)
    turned = seats[-1:] + seats[:-1]               # seat i moves to seat i + 1
    rules = games.get_game(match.game)
    return challenge_create(
        creator=user, game=match.game, variant=match.variant or None, options=rules.public_options(match.options),
        opponents=[s.player_name for s in turned if s.seat != mine.seat], rated=match.rated,
        time_control=match.time_control, seat=turned.index(mine), rematch_of=match)
