"""Writes (design §1): every state change of accounts, challenges, matches and analyses.

Each public function is one transaction. Move submission locks the match row, checks seat, turn
and ply, plays the move through `games`, appends it, updates the snapshot, settles the result and
ratings if the game ended, and schedules engine replies and notifications on commit.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Iterable, Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

import games
from ai_workers.engines import LEVELS

from . import ladders, ratings
from .errors import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from .models import Analysis, Challenge, ChallengeSeat, Event, Match, MatchSeat, Move, Rating
from .selectors import match_state, public_move_text

User = get_user_model()
AI_PREFIX = "ai:"


# ---------------------------------------------------------------------------------------------
# Accounts
# ---------------------------------------------------------------------------------------------
def account_register(*, username: str, password: str) -> tuple["User", str]:
    if username.startswith(AI_PREFIX) or ":" in username:
        raise BadRequest("usernames may not contain ':'", code="invalid_username")
    candidate = User(username=username)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise BadRequest("the password is too weak", code="weak_password",
                         detail={"password": exc.messages}) from exc
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise Conflict(f"the username {username!r} is taken", code="username_taken") from None
    token, _ = Token.objects.get_or_create(user=user)
    return user, token.key


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------
def _notify(users: Iterable["User | None"], kind: str, payload: dict) -> None:
    rows = [Event(user=u, kind=kind, payload=payload) for u in {u for u in users if u is not None}]
    Event.objects.bulk_create(rows)


# ---------------------------------------------------------------------------------------------
# Challenges
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatRequest:
    user: "User | None" = None
    ai_level: str = ""

    @property
    def is_open(self) -> bool:
        return self.user is None and not self.ai_level


def _parse_opponent(entry: object, creator: "User") -> SeatRequest:
    if entry is None:
        return SeatRequest()
    if not isinstance(entry, str) or not entry.strip():
        raise BadRequest(f"an opponent is a username, 'ai:<level>' or null, not {entry!r}",
                         code="invalid_opponent")
    if entry.startswith(AI_PREFIX):
        level = entry[len(AI_PREFIX):]
        if level not in LEVELS:
            raise BadRequest(f"unknown engine level {level!r}; choose from {list(LEVELS)}",
                             code="unknown_level")
        return SeatRequest(ai_level=level)
    user = User.objects.filter(username=entry).first()
    if user is None:
        raise BadRequest(f"no player named {entry!r}", code="unknown_player")
    if user.pk == creator.pk:
        raise BadRequest("you cannot challenge yourself", code="invalid_opponent")
    return SeatRequest(user=user)


def _seat_plan(creator: "User", opponents: Sequence[object], creator_seat: int) -> list[SeatRequest]:
    requests = [_parse_opponent(o, creator) for o in opponents]
    named = [r.user.pk for r in requests if r.user is not None]
    if len(named) != len(set(named)):
        raise BadRequest("a player may hold only one seat", code="invalid_opponent")
    if not 0 <= creator_seat <= len(requests):
        raise BadRequest(f"seat must be between 0 and {len(requests)}", code="invalid_seat")
    requests.insert(creator_seat, SeatRequest(user=creator))
    return requests


@transaction.atomic
def challenge_create(*, creator: "User", game: str, options: dict | None = None,
                     variant: str | None = None, opponents: Sequence[object] = (),
                     rated: bool = False, days_per_move: int | None = None, seat: int = 0,
                     ladder=None) -> Challenge:
    rules = games.get_game(game)
    plan = _seat_plan(creator, opponents, seat)
    rules.check_players(len(plan))
    normalized = rules.normalize_options(options, variant or None)
    if rated and (len(plan) < 2 or any(r.ai_level for r in plan)):
        raise BadRequest("rated matches are between two or more people, without engine seats",
                         code="rated_needs_people")
    challenge = Challenge.objects.create(
        game=rules.slug, variant=variant or rules.variant_of(normalized) or "", options=normalized,
        rated=rated, days_per_move=days_per_move, created_by=creator, ladder=ladder)
    ChallengeSeat.objects.bulk_create([
        ChallengeSeat(challenge=challenge, seat=i, user=r.user, ai_level=r.ai_level,
                      accepted=(r.user == creator or bool(r.ai_level)))
        for i, r in enumerate(plan)])
    invited = [r.user for r in plan if r.user is not None and r.user != creator]
    _notify(invited, "challenge", {"challenge": challenge.pk, "game": rules.slug,
                                   "from": creator.username})
    _start_if_ready(challenge)
    return challenge


def _locked_challenge(challenge_id: int) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound(f"no challenge {challenge_id}", code="challenge_not_found") from None


def _require_open(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.OPEN:
        raise Conflict(f"the challenge is {challenge.status}", code="challenge_closed")


@transaction.atomic
def challenge_accept(*, challenge_id: int, user: "User") -> Challenge:
    challenge = _locked_challenge(challenge_id)
    _require_open(challenge)
    seats = list(challenge.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None and mine.accepted:
        raise Conflict("you have already accepted this challenge", code="already_accepted")
    if mine is None:
        mine = next((s for s in seats if s.user_id is None and not s.ai_level), None)
        if mine is None:
            raise Forbidden("this challenge has no seat for you", code="not_invited")
        mine.user = user
    mine.accepted = True
    mine.save(update_fields=["user", "accepted"])
    _notify([challenge.created_by], "challenge_accepted",
            {"challenge": challenge.pk, "by": user.username})
    _start_if_ready(challenge)
    return challenge


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: "User") -> Challenge:
    challenge = _locked_challenge(challenge_id)
    _require_open(challenge)
    if not challenge.seats.filter(user=user).exclude(user=challenge.created_by).exists():
        raise Forbidden("only an invited player can decline", code="not_invited")
    challenge.status = Challenge.Status.DECLINED
    challenge.save(update_fields=["status", "updated_at"])
    _notify([challenge.created_by], "challenge_declined",
            {"challenge": challenge.pk, "by": user.username})
    return challenge


@transaction.atomic
def challenge_cancel(*, challenge_id: int, user: "User") -> Challenge:
    challenge = _locked_challenge(challenge_id)
    _require_open(challenge)
    if challenge.created_by_id != user.pk:
        raise Forbidden("only the challenger can cancel", code="not_challenger")
    challenge.status = Challenge.Status.CANCELLED
    challenge.save(update_fields=["status", "updated_at"])
    invited = [s.user for s in challenge.seats.select_related("user") if s.user_id != user.pk]
    _notify(invited, "challenge_cancelled", {"challenge": challenge.pk})
    return challenge


def _start_if_ready(challenge: Challenge) -> None:
    seats = list(challenge.seats.select_related("user"))
    if all(s.accepted for s in seats):
        match = match_start(challenge, seats)
        challenge.match = match
        challenge.status = Challenge.Status.STARTED
        challenge.save(update_fields=["match", "status", "updated_at"])


# ---------------------------------------------------------------------------------------------
# Matches
# ---------------------------------------------------------------------------------------------
def match_start(challenge: Challenge, seats: Sequence[ChallengeSeat]) -> Match:
    rules = games.get_game(challenge.game)
    seed = secrets.randbits(62)
    state = rules.new_state(players=len(seats), seed=seed, options=challenge.options)
    match = Match(
        game=rules.slug, variant=challenge.variant, options=challenge.options, seed=seed,
        players=len(seats), state=state.to_dict(), to_move=state.current_player,
        rated=challenge.rated, days_per_move=challenge.days_per_move, ladder=challenge.ladder)
    _set_deadline(match, seats)
    match.save()
    match_seats = MatchSeat.objects.bulk_create([
        MatchSeat(match=match, seat=s.seat, user=s.user, ai_level=s.ai_level) for s in seats])
    _notify([s.user for s in seats], "match_started", {"match": match.pk, "game": rules.slug})
    _schedule_ai(match, match_seats)
    return match


def _locked_match(match_id: int) -> tuple[Match, list[MatchSeat]]:
    """The match row, locked until the transaction ends, and its seats (in seat order)."""
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound(f"no match {match_id}", code="match_not_found") from None
    return match, list(match.seats.select_related("user").order_by("seat"))


def _seat_of(user: "User", seats: Sequence[MatchSeat]) -> MatchSeat:
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise Forbidden("you do not play in this match", code="not_seated")
    return seat


def _require_active(match: Match) -> None:
    if match.status != Match.Status.ACTIVE:
        raise Conflict(f"the match is {match.status}", code="match_finished")


def _set_deadline(match: Match, seats: Sequence[MatchSeat | ChallengeSeat]) -> None:
    human_to_move = match.to_move is not None and not seats[match.to_move].ai_level
    match.deadline = (timezone.now() + timedelta(days=match.days_per_move)
                      if match.days_per_move and human_to_move else None)


def _schedule_ai(match: Match, seats: Sequence[MatchSeat]) -> None:
    if match.status == Match.Status.ACTIVE and match.to_move is not None and seats[match.to_move].ai_level:
        from ai_workers.tasks import ai_move   # the worker package imports services: import late

        match_id, ply = match.pk, match.ply
        transaction.on_commit(lambda: ai_move.delay(match_id, ply))


@dataclass(frozen=True)
class Played:
    """A recorded move with the match as it now stands (so callers need not read it again)."""

    record: Move
    match: Match
    seats: list[MatchSeat]
    state: games.State


def _record_move(match: Match, seats: list[MatchSeat], seat: int, move, state) -> Played:
    rules = games.get_game(match.game)
    record = Move.objects.create(match=match, ply=match.ply + 1, seat=seat, notation=str(move))
    match.ply += 1
    match.state = state.to_dict()
    match.to_move = state.current_player
    for s in seats:
        if s.offer:
            s.offer = ""
            s.save(update_fields=["offer"])
    if state.is_terminal:
        _finish(match, seats, state.outcome)
    else:
        _set_deadline(match, seats)
    match.save()
    shown = public_move_text(rules, record.notation, state)
    _notify([s.user for s in seats if s.seat != seat], "move",
            {"match": match.pk, "ply": record.ply, "seat": seat, "move": shown})
    _schedule_ai(match, seats)
    return Played(record, match, seats, state)


def _finish(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome,
            status: str = Match.Status.FINISHED) -> None:
    match.status = status
    match.result = outcome.to_dict()
    match.to_move = None
    match.deadline = None
    match.finished_at = timezone.now()
    if match.rated and status == Match.Status.FINISHED:
        _apply_ratings(match, seats, outcome)
    if match.ladder_id and status == Match.Status.FINISHED:
        ladders.record_result(match, seats, outcome)
    _notify([s.user for s in seats], "match_finished", {"match": match.pk, "result": match.result})


def _apply_ratings(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    rows = {}
    for s in sorted(seats, key=lambda s: s.user_id):      # lock in a fixed order: no deadlocks
        Rating.objects.get_or_create(user_id=s.user_id, game=match.game)
        rows[s.seat] = Rating.objects.select_for_update().get(user_id=s.user_id, game=match.game)
    before = {seat: ratings.Glicko(r.rating, r.deviation, r.volatility) for seat, r in rows.items()}
    for seat, results in enumerate(ratings.pairwise_scores(outcome.scores)):
        new = ratings.update(before[seat], [(before[j], score) for j, score in results])
        row = rows[seat]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.save()


@transaction.atomic
def move_submit(*, match_id: int, user: "User", move: str, ply: int | None = None) -> Played:
    match, seats = _locked_match(match_id)
    seat = _seat_of(user, seats)
    _require_active(match)
    if ply is not None and ply != match.ply:     # first: the client's picture is out of date
        raise Conflict(f"the match is at ply {match.ply}, not {ply}", code="stale_ply",
                       detail={"ply": match.ply})
    if match.to_move != seat.seat:
        raise Forbidden(f"it is seat {match.to_move}'s turn, not yours", code="not_your_turn")
    state = match_state(match)
    parsed = state.parse_move(move)
    return _record_move(match, seats, seat.seat, parsed, state.apply(parsed))


@transaction.atomic
def ai_move_apply(*, match_id: int, ply: int, notation: str) -> Played | None:
    """Write an engine's reply, only if the match is still where the engine looked (CAS on ply)."""
    match, seats = _locked_match(match_id)
    if (match.status != Match.Status.ACTIVE or match.ply != ply or match.to_move is None
            or not seats[match.to_move].ai_level):
        return None
    state = match_state(match)
    parsed = state.parse_move(notation)
    return _record_move(match, seats, match.to_move, parsed, state.apply(parsed))


def _ending(match: Match, seats: Sequence[MatchSeat], loser: int,
            termination: games.Termination) -> games.Outcome:
    others = tuple(s.seat for s in seats if s.seat != loser)
    scores = tuple(0.0 if s.seat == loser else 1.0 for s in seats)
    return games.Outcome(others, scores, termination)


@transaction.atomic
def match_resign(*, match_id: int, user: "User") -> Match:
    match, seats = _locked_match(match_id)
    seat = _seat_of(user, seats)
    _require_active(match)
    _finish(match, seats, _ending(match, seats, seat.seat, games.Termination.RESIGNATION))
    match.save()
    return match


@transaction.atomic
def match_abort(*, match_id: int, user: "User") -> Match:
    match, seats = _locked_match(match_id)
    _seat_of(user, seats)
    _require_active(match)
    if match.ply >= match.players:
        raise Conflict("a match can be aborted only before every seat has moved", code="too_late_to_abort")
    outcome = games.Outcome((), tuple(0.0 for _ in seats), games.Termination.ABORTED)
    _finish(match, seats, outcome, status=Match.Status.ABORTED)
    match.save()
    return match


OFFER_ACTIONS = ("offer", "accept", "decline")


def _offer(match_id: int, user: "User", kind: str, action: str):
    """Shared offer bookkeeping for draws and takebacks.

    Returns (match, seats, agreed, initiator): `initiator` is the seat whose offer this is (the
    first to offer); `agreed` is true once every seat has offered or accepted. Engine seats agree
    to takebacks in unrated matches and never to draws."""
    if action not in OFFER_ACTIONS:
        raise BadRequest(f"action must be one of {list(OFFER_ACTIONS)}", code="invalid_action")
    match, seats = _locked_match(match_id)
    seat = _seat_of(user, seats)
    _require_active(match)
    if len(seats) < 2:
        raise Conflict(f"a one-seat match has nobody to agree a {kind} with", code="no_opponent")
    others_pending = [s for s in seats if s.offer == kind and s.seat != seat.seat]
    if action == "decline":
        if not others_pending:
            raise Conflict(f"there is no {kind} offer to decline", code="no_offer")
        for s in seats:
            if s.offer == kind:
                s.offer = ""
                s.save(update_fields=["offer"])
        _notify([s.user for s in seats if s != seat], f"{kind}_declined", {"match": match.pk})
        return match, seats, False, None
    if action == "accept" and not others_pending:
        raise Conflict(f"there is no {kind} offer to accept", code="no_offer")
    initiator = others_pending[0] if others_pending else seat
    seat.offer = kind
    seat.save(update_fields=["offer"])
    agreed = all(s.offer == kind or (s.ai_level and kind == "takeback" and not match.rated)
                 for s in seats)
    if not agreed:
        _notify([s.user for s in seats if s != seat], f"{kind}_offered",
                {"match": match.pk, "by": user.username})
    return match, seats, agreed, initiator


@transaction.atomic
def match_draw(*, match_id: int, user: "User", action: str = "offer") -> Match:
    match, seats, agreed, _ = _offer(match_id, user, "draw", action)
    if agreed:
        _finish(match, seats, games.Outcome.draw(len(seats), games.Termination.AGREEMENT))
        match.save()
    return match


@transaction.atomic
def match_takeback(*, match_id: int, user: "User", action: str = "offer") -> Match:
    """Undo the caller's last move (and everything after it) once every other seat agrees.

    Engine seats agree in unrated matches. Games with hidden information refuse takebacks: the
    moves replayed after one would reveal cards that were drawn."""
    match = Match.objects.filter(pk=match_id).first()
    if match is not None and games.get_game(match.game).has_hidden_information:
        raise Conflict("takebacks are not offered in games with hidden information",
                       code="takeback_unavailable")
    match, seats, agreed, initiator = _offer(match_id, user, "takeback", action)
    if not agreed:
        return match
    last = match.moves.filter(seat=initiator.seat).order_by("-ply").first()
    if last is None:
        raise Conflict("there is no move of yours to take back", code="nothing_to_take_back")
    keep = list(match.moves.filter(ply__lt=last.ply).values_list("notation", flat=True))
    rules = games.get_game(match.game)
    state = rules.replay(players=match.players, seed=match.seed, options=match.options, moves=keep)
    match.moves.filter(ply__gte=last.ply).delete()
    match.ply, match.state, match.to_move = len(keep), state.to_dict(), state.current_player
    for s in seats:
        s.offer = ""
        s.save(update_fields=["offer"])
    _set_deadline(match, seats)
    match.save()
    _notify([s.user for s in seats], "takeback", {"match": match.pk, "ply": match.ply})
    _schedule_ai(match, seats)
    return match


@transaction.atomic
def match_claim_timeouts(now=None) -> list[int]:
    """Finish every active match whose player to move let the deadline pass (they lose)."""
    now = now or timezone.now()
    expired = list(Match.objects.select_for_update(skip_locked=True)
                   .filter(status=Match.Status.ACTIVE, deadline__lt=now))
    for match in expired:
        seats = list(match.seats.select_related("user").order_by("seat"))
        _finish(match, seats, _ending(match, seats, match.to_move, games.Termination.TIMEOUT))
        match.save()
    return [m.pk for m in expired]


# ---------------------------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------------------------
@transaction.atomic
def analysis_request(*, match_id: int, user: "User", level: str = "medium") -> Analysis:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    if level not in LEVELS or level == "random":
        raise BadRequest(f"analysis level must be one of {[l for l in LEVELS if l != 'random']}",
                         code="unknown_level")
    if match.status == Match.Status.ACTIVE:
        raise Conflict("analysis is available once the match is over (no engine help mid-game)",
                       code="match_in_progress")
    seat = None
    if games.get_game(match.game).has_hidden_information:
        # An engine line shows what its seat held: analyse only the requester's own turns, from
        # their own view, and show the result to nobody else.
        seat = next((s.seat for s in match.seats.all() if s.user_id == user.pk), None)
        if seat is None:
            raise Unprocessable("in a game with hidden information only a player can ask for "
                                "analysis, and only of their own turns", code="hidden_information")
    analysis = Analysis.objects.create(match=match, requested_by=user, level=level,
                                       upto_ply=match.ply, seat=seat)
    from ai_workers.tasks import run_analysis

    transaction.on_commit(lambda: run_analysis.delay(analysis.pk))
    return analysis


def analysis_queue_finished(*, level: str = "easy", limit: int = 100) -> list[int]:
    """Queue analyses of finished matches that have none (perfect-information games only), on the
    `analysis-system` queue, so background work never delays people waiting for a reply."""
    if level not in LEVELS or level == "random":
        raise BadRequest(f"analysis level must be one of {[l for l in LEVELS if l != 'random']}",
                         code="unknown_level")
    open_games = [slug for slug, g in games.GAMES.items() if not g.has_hidden_information]
    todo = list(Match.objects.filter(status=Match.Status.FINISHED, game__in=open_games,
                                     analyses__isnull=True, ply__gt=0).order_by("id")[:limit])
    created = Analysis.objects.bulk_create([
        Analysis(match=m, requested_by=None, level=level, upto_ply=m.ply) for m in todo])
    ids = [a.pk for a in created]
    from ai_workers.tasks import run_analysis

    transaction.on_commit(lambda: [run_analysis.apply_async((pk,), queue="analysis-system") for pk in ids])
    return ids


def analysis_update(*, analysis_id: int, status: str, results: list | None = None,
                    error: str = "") -> None:
    fields = {"status": status, "error": error}
    if results is not None:
        fields["results"] = results
    if status in (Analysis.Status.DONE, Analysis.Status.FAILED):
        fields["finished_at"] = timezone.now()
    Analysis.objects.filter(pk=analysis_id).update(**fields)
    if status == Analysis.Status.DONE:
        analysis = Analysis.objects.select_related("requested_by").get(pk=analysis_id)
        _notify([analysis.requested_by], "analysis_done",
                {"analysis": analysis.pk, "match": analysis.match_id})
