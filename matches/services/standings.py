"""Standings after a result, inside the finishing transaction (`results.finish`): ladder ranks
(the winner climbs by leapfrog: everyone between moves down one) and tournament scores (a round
whose games are all decided asks for the next one after commit)."""
from __future__ import annotations

from typing import Sequence

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

import games
from matches.models import Challenge, LadderEntry, LadderEvent, Match, MatchSeat, Move, TournamentGame

from .events import notify

TOURNAMENT_ADVANCE_TASK = "matches.tasks.tournament_advance"


def silent_seats(match: Match, seats: Sequence[MatchSeat]) -> set[int]:
    """Seats that never moved in the match."""
    moved = set(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())
    return {s.seat for s in seats} - moved


def _ladder_entries(match: Match, seats: Sequence[MatchSeat]):
    """(challenger, defender, entry by seat), locked; None if either has left the ladder."""
    challenger_id = match.challenge.created_by_id if hasattr(match, "challenge") else None
    entries = {e.user_id: e for e in LadderEntry.objects.select_for_update()
               .filter(ladder_id=match.ladder_id, user_id__in=[s.user_id for s in seats]).order_by("pk")}
    if len(entries) != 2 or challenger_id not in entries:
        return None
    defender = next(e for e in entries.values() if e.user_id != challenger_id)
    return entries[challenger_id], defender, {s.seat: entries[s.user_id] for s in seats}


def record_ladder_result(match: Match, seats: Sequence[MatchSeat], outcome: games.Outcome) -> None:
    """Ranks and records after a ladder match. A match that a side never moved in is no game: the
    side that lost it forfeits (no win or loss is counted, and it is not rated)."""
    found = _ladder_entries(match, seats)
    if found is None:
        return                               # someone left the ladder meanwhile: no rank change
    challenger, defender, by_seat = found
    if silent_seats(match, seats):
        losers = [by_seat[s] for s in by_seat if outcome.winners and s not in outcome.winners]
        if losers:
            ladder_forfeit(challenger, defender, losers[0], challenge_id=match.challenge.pk, match_id=match.pk)
        return
    for seat, entry in by_seat.items():
        if seat in outcome.winners:
            entry.wins += 1
        elif outcome.winners:
            entry.losses += 1
        entry.save(update_fields=["wins", "losses"])
    won = any(by_seat[w].pk == challenger.pk for w in outcome.winners)
    kind = LadderEvent.Kind.CLIMBED if won and challenger.rank > defender.rank else LadderEvent.Kind.DEFENDED
    if kind == LadderEvent.Kind.CLIMBED:
        _climb(challenger, defender)
    _ladder_event(kind, challenger, defender, challenge_id=match.challenge.pk, match_id=match.pk)


def record_no_show(match: Match, seats: Sequence[MatchSeat], absent: int) -> None:
    """A seat ran out of time without ever moving, so the match was called off unrated; in a
    ladder or a tournament that is still the absent side's forfeit."""
    if match.ladder_id:
        found = _ladder_entries(match, seats)
        if found is not None:
            challenger, defender, by_seat = found
            ladder_forfeit(challenger, defender, by_seat[absent], challenge_id=match.challenge.pk,
                           match_id=match.pk)
    if absent in (0, 1):
        _score_tournament_game(match, 0.0 if absent == 0 else 1.0)


def ladder_forfeit(challenger: LadderEntry, defender: LadderEntry, loser: LadderEntry, *,
                   challenge_id: int | None = None, match_id: int | None = None) -> None:
    """`loser` forfeits the challenge (locked entries): a forfeiting defender gives up their rank
    as if beaten; a forfeiting challenger stays where they are."""
    LadderEntry.objects.filter(pk=loser.pk).update(forfeits=F("forfeits") + 1)
    if loser.pk == defender.pk and challenger.rank > defender.rank:
        _climb(challenger, defender)
    _ladder_event(LadderEvent.Kind.FORFEITED, challenger, defender, forfeited_by=loser.user_id,
                  challenge_id=challenge_id, match_id=match_id)


def ladder_challenge_forfeit(challenge: Challenge) -> None:
    """The defender of a declined ladder challenge forfeits it (declined by them, or by the
    server when the answer window ran out): the challenger climbs as if they had won."""
    defender_seat = challenge.seats.exclude(user_id=challenge.created_by_id).select_related("user").first()
    entries = {e.user_id: e for e in LadderEntry.objects.select_for_update().filter(
        ladder_id=challenge.ladder_id, user_id__in=[challenge.created_by_id, defender_seat.user_id])
        .order_by("pk")}
    if len(entries) == 2:
        challenger, defender = entries[challenge.created_by_id], entries[defender_seat.user_id]
        ladder_forfeit(challenger, defender, defender, challenge_id=challenge.pk)
    notify([challenge.created_by, defender_seat.user], "ladder_forfeit",
           {"ladder": challenge.ladder_id, "challenge": challenge.pk,
            "forfeited_by": defender_seat.user.username})


def _climb(challenger: LadderEntry, defender: LadderEntry) -> None:
    old, new = challenger.rank, defender.rank
    # Ranks are unique (deferred constraint): shift the block, then drop the climber in.
    LadderEntry.objects.filter(ladder_id=challenger.ladder_id, rank__gte=new, rank__lt=old) \
        .update(rank=F("rank") + 1)
    LadderEntry.objects.filter(pk=challenger.pk).update(rank=new)
    challenger.rank, defender.rank = new, defender.rank + 1


def _ladder_event(kind: str, challenger: LadderEntry, defender: LadderEntry, **extra) -> None:
    LadderEvent.objects.create(ladder_id=challenger.ladder_id, kind=kind, challenger_id=challenger.user_id,
                               defender_id=defender.user_id, challenger_rank=challenger.rank,
                               defender_rank=defender.rank, created_at=timezone.now(),
                               forfeited_by_id=extra.get("forfeited_by"), challenge_id=extra.get("challenge_id"),
                               match_id=extra.get("match_id"))


def record_tournament_result(match: Match, outcome: games.Outcome) -> None:
    """Score a tournament game (nothing for other matches)."""
    if len(outcome.scores) != 2:
        return                        # tournament games have two seats; a puzzle has one
    first, second = outcome.scores[0], outcome.scores[1]
    _score_tournament_game(match, 1.0 if first > second else 0.5 if first == second else 0.0)


def absent_score(first, second) -> float:
    """Seat 0's score in a tournament pairing with a suspended or deleted player (`is_active`
    cleared), decided without play: the one present wins; when both are absent, neither does."""
    if first.is_active == second.is_active:
        return 0.5 if first.is_active else 0.0
    return 1.0 if first.is_active else 0.0


def score_voided_tournament_game(match: Match, seats) -> None:
    """A voided tournament match is scored as a pairing with the absent (nothing for other matches)."""
    users = [s.user for s in sorted(seats, key=lambda s: s.seat)]
    if len(users) == 2 and None not in users:
        _score_tournament_game(match, absent_score(*users))


def _score_tournament_game(match: Match, first_score: float) -> None:
    """When the round is then all decided, ask for the next one after commit."""
    game = TournamentGame.objects.filter(match_id=match.pk).first()
    if game is None:
        return
    game.first_score = first_score
    game.save(update_fields=["first_score"])
    undecided = TournamentGame.objects.filter(tournament_id=game.tournament_id, round=game.round,
                                              second__isnull=False, first_score__isnull=True)
    if not undecided.exists():
        tournament_id = game.tournament_id
        # By task name, as engine work is sent: the tournament service sits above this one.
        transaction.on_commit(lambda: current_app.signature(TOURNAMENT_ADVANCE_TASK, args=(tournament_id,))
                              .apply_async())
