"""Tournaments, correspondence style: every game of a round runs at once, and the next round is
paired when the last game of the round ends (`standings` asks for it after commit; the beat's
`tournaments_tick` also starts tournaments at their start time and catches any round left over).
Pairing and tie-breaks are the pure `matches.pairing`; games are rated like any other."""
from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

import games
from matches import pairing
from matches.errors import ServiceError, first_or_error
from matches.models import Challenge, ChallengeSeat, Rating, Tournament, TournamentEntry, TournamentGame
from matches.rating_keys import key_for
from matches.selectors.clocks import parse_time_control

from . import standings
from .events import notify
from .play import match_start

OPEN, RUNNING = Tournament.Status.OPEN, Tournament.Status.RUNNING


def _locked(tournament_id: int) -> Tournament:
    return first_or_error(Tournament.objects.select_for_update().filter(pk=tournament_id),
                          "tournament_not_found", f"no tournament {tournament_id}")


@transaction.atomic
def tournament_create(*, creator, name: str, game: str, kind: str, max_entrants: int,
                      rounds: int | None = None, variant: str | None = None, options: dict | None = None,
                      days_per_move: int = 3, starts_at: datetime | None = None) -> Tournament:
    rules = games.get_game(game)
    if not rules.min_players <= 2 <= rules.max_players:
        raise ServiceError("not_two_player", f"tournaments pair two players; {game} is for {rules.seats_text()}")
    normalized = rules.normalize_options(options, variant or None)
    if kind == Tournament.Kind.SWISS and not (rounds and rounds < max_entrants):
        raise ServiceError("invalid_tournament", "a Swiss tournament needs 1 to max_entrants − 1 rounds",
                           detail={"field": "rounds"})
    if starts_at is not None and starts_at <= timezone.now():
        raise ServiceError("invalid_tournament", "the start time has passed", detail={"field": "starts_at"})
    return Tournament.objects.create(
        name=name, game=rules.slug, variant=rules.public_variant(normalized), options=normalized,
        days_per_move=days_per_move, kind=kind, rounds=rounds if kind == Tournament.Kind.SWISS else 0,
        max_entrants=max_entrants, starts_at=starts_at, created_by=creator)


@transaction.atomic
def tournament_join(*, tournament_id: int, user) -> TournamentEntry:
    tournament = _locked(tournament_id)          # serialises entries: the limit holds
    if tournament.status != OPEN:
        raise ServiceError("tournament_closed", f"the tournament is {tournament.status}")
    if tournament.entries.filter(user=user).exists():
        raise ServiceError("already_entered", "you have entered this tournament already")
    if tournament.entries.count() >= tournament.max_entrants:
        raise ServiceError("tournament_full", f"the tournament takes {tournament.max_entrants} entrants")
    return TournamentEntry.objects.create(tournament=tournament, user=user)


@transaction.atomic
def tournament_leave(*, tournament_id: int, user) -> None:
    tournament = _locked(tournament_id)
    if tournament.status != OPEN:
        raise ServiceError("tournament_closed", f"the tournament is {tournament.status}: resign its games instead")
    if not tournament.entries.filter(user=user).delete()[0]:
        raise ServiceError("not_entered", "you have not entered this tournament")


@transaction.atomic
def tournament_start(*, tournament_id: int, user=None) -> Tournament:
    """Start now: by the organiser (`user`), or by the beat at the start time (`user` None)."""
    tournament = _locked(tournament_id)
    if user is not None and tournament.created_by_id != user.pk:
        raise ServiceError("not_organiser", "only the organiser may start the tournament")
    if tournament.status != OPEN:
        raise ServiceError("tournament_closed", f"the tournament is {tournament.status}")
    entries = _seeded(tournament)
    if len(entries) < 2:
        raise ServiceError("too_few_entrants", "a tournament needs at least two entrants")
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        tournament.rounds = len(pairing.round_robin([e.user_id for e in entries]))
    tournament.rounds = min(tournament.rounds, len(entries) - 1 + len(entries) % 2)
    tournament.status = RUNNING
    _next_round(tournament, entries)
    return tournament


def _seeded(tournament: Tournament) -> list[TournamentEntry]:
    """Entries strongest first (rating under the tournament's key, then who joined first); saved."""
    key = key_for(tournament.game, tournament.options)
    entries = list(tournament.entries.order_by("joined_at", "id"))
    rating = dict(Rating.objects.filter(game=key.game, variant=key.variant,
                                        user_id__in=[e.user_id for e in entries]).values_list("user_id", "rating"))
    entries.sort(key=lambda e: -rating.get(e.user_id, 0.0))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
    TournamentEntry.objects.bulk_update(entries, ["seed"])
    return entries


def _played(tournament: Tournament) -> list[pairing.Game]:
    return [pairing.Game(g.round, g.first_id, g.second_id, g.first_score) for g in tournament.games.all()]


def _next_round(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Pair and start the next round, or finish the tournament (saves it)."""
    players = [e.user_id for e in entries]
    number = tournament.current_round + 1
    pairs = None
    if number <= tournament.rounds:
        if tournament.kind == Tournament.Kind.ROUND_ROBIN:
            pairs = pairing.round_robin(players)[number - 1]
        else:
            pairs = pairing.swiss_round(pairing.entrants(players, _played(tournament)))
    if pairs is None:                   # all rounds played, or no Swiss pairing without a repeat
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save()
        notify([e.user for e in entries], "tournament_finished", {"tournament": tournament.pk})
        return
    tournament.current_round = number
    tournament.save()
    users = {e.user_id: e.user for e in tournament.entries.select_related("user")}
    for first, second in pairs:
        game = TournamentGame(tournament=tournament, round=number, first_id=first, second_id=second)
        if second is not None and not (users[first].is_active and users[second].is_active):
            game.first_score = standings.absent_score(users[first], users[second])
        elif second is not None:
            game.match = _start_match(tournament, users[first], users[second])
        game.save()
    notify(users.values(), "tournament_round", {"tournament": tournament.pk, "round": number})


def _start_match(tournament: Tournament, first, second):
    """A pairing is a challenge both seats have accepted; it is never stored as one."""
    terms = Challenge(game=tournament.game, variant=tournament.variant, options=tournament.options,
                      rated=True, time_control=parse_time_control(None, tournament.days_per_move))
    seats = [ChallengeSeat(seat=0, user=first, accepted=True), ChallengeSeat(seat=1, user=second, accepted=True)]
    return match_start(terms, seats)


@transaction.atomic
def tournament_advance(*, tournament_id: int) -> bool:
    """Pair the next round if every game of the current one is decided. True if it moved on."""
    tournament = _locked(tournament_id)
    if tournament.status != RUNNING:
        return False
    if tournament.games.filter(round=tournament.current_round, second__isnull=False,
                               first_score__isnull=True).exists():
        return False
    _next_round(tournament, list(tournament.entries.select_related("user").order_by("seed")))
    return True


def tournaments_tick(now=None) -> dict[str, list[int]]:
    """The beat's round: start tournaments whose time has come (cancel those with too few
    entrants), and move on any running tournament whose round is over."""
    now = now or timezone.now()
    done: dict[str, list[int]] = {"started": [], "cancelled": [], "advanced": []}
    for pk in Tournament.objects.filter(status=OPEN, starts_at__lte=now).values_list("pk", flat=True):
        try:
            tournament_start(tournament_id=pk)
            done["started"].append(pk)
        except ServiceError as exc:
            if exc.code == "too_few_entrants":
                Tournament.objects.filter(pk=pk, status=OPEN).update(status=Tournament.Status.CANCELLED)
                done["cancelled"].append(pk)
    for pk in Tournament.objects.filter(status=RUNNING).values_list("pk", flat=True):
        if tournament_advance(tournament_id=pk):
            done["advanced"].append(pk)
    return done
