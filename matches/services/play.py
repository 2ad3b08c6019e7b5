"""Playing: starting a match, submitting a move, and writing an engine's reply back.

A move submission is one transaction: lock the match row, check seat, ply (first, so an
out-of-date client always hears `stale_ply`) and turn, play through `games`, append the move,
update the snapshot, settle the result if the game ended, and send engine work after commit."""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connection, transaction
from django.utils import timezone

import games
from matches.errors import ServiceError
from matches.models import Challenge, ChallengeSeat, EngineJob, Match, MatchSeat, Move
from matches.selectors import capabilities
from matches.selectors.matches import match_state, match_with_seats
from pearlsite import metrics

from . import clocks, conditional, dispatch
from .events import batched, notify, write_along, write_held
from .match_rows import (
    announce_turn,
    expire_offers,
    locked_match,
    remember_last_move,
    require_active,
    require_in_time,
    seat_of,
)
from .results import finish


@dataclass(frozen=True)
class Played:
    """A recorded move with the match as it now stands (so callers need not read it again)."""

    record: Move
    match: Match
    seats: list[MatchSeat]
    state: games.State


def match_start(challenge: Challenge, seats: Sequence[ChallengeSeat], cause=None) -> Match:
    """The match of a challenge whose every seat has accepted (inside the caller's transaction);
    `cause` is whoever completed it (an engine's first move counts against their share)."""
    rules = games.get_game(challenge.game)
    seed = secrets.randbits(62)
    state = rules.new_state(players=len(seats), seed=seed, options=challenge.options)
    match = Match(
        game=rules.slug, variant=challenge.variant, options=challenge.options, seed=seed,
        players=len(seats), state=state.to_dict(), to_move=state.current_player,
        rated=challenge.rated, time_control=challenge.time_control, ladder=challenge.ladder)
    match_seats = [MatchSeat(seat=s.seat, user=s.user, ai_level=s.ai_level) for s in seats]
    clocks.clocks_start(match, match_seats, timezone.now())
    match.save()
    for s in match_seats:
        s.match = match
    MatchSeat.objects.bulk_create(match_seats)
    notify([s.user for s in seats], "match_started", {"match": match.pk, "game": rules.slug,
                                                      "variant": rules.public_variant(match.options)})
    announce_turn(match, match_seats)
    dispatch.schedule_reply(match, match_seats, cause=cause)
    return match


def record_move(match: Match, seats: list[MatchSeat], seat: int, move, state: games.State,
                cause=None) -> Played:
    """Record `move` by `seat`; then, if the seat now to move prepared a reply to it, play that
    too (and so on). Returns this move with the match and position as they end up. An engine's
    next move is caused by the person who moved (or `cause`)."""
    record = last = _record(match, seats, seat, move, state, prepared=False)
    while (reply := conditional.reply_to(match, last, seats)) is not None:
        parsed = state.parse_move(reply)       # checked by the rules when stored, in this position
        state = state.apply(parsed)
        last = _record(match, seats, match.to_move, parsed, state, prepared=True)
    announce_turn(match, seats)
    dispatch.schedule_reply(match, seats, cause=seats[seat].user or cause)
    return Played(record, match, seats, state)


MOVE_FIELDS = ["ply", "state", "to_move", "last_move", "turn_started_at", "deadline", "time_warned", "updated_at"]


def _record(match: Match, seats: list[MatchSeat], seat: int, move, state: games.State, prepared: bool) -> Move:
    """One move's writes: the record, clocks, snapshot, lapsed offers, the result, the event (to
    everyone else; a prepared reply also to its owner, who did not see it played)."""
    write_held()               # an earlier move of this request (a prepared reply follows it) first
    ended = state.is_terminal
    # On PostgreSQL an ordinary move's record and the match's changed columns travel with the
    # move's events, in one statement at the end (`events.write_along`); a result (rarely) writes
    # whatever it touches, in the usual order.
    together = connection.vendor == "postgresql" and not ended
    if together:               # written by `_write_along` below, with this created_at
        record = Move.from_db(DEFAULT_DB_ALIAS, ["id", *_MOVE_COLUMNS],
                              [None, match.pk, match.ply + 1, seat, str(move), timezone.now()])
        record.match = match
    else:
        record = Move.objects.create(match=match, ply=match.ply + 1, seat=seat, notation=str(move))
    clocks.turn_end(match, seats, record.created_at)
    match.ply += 1
    match.state = state.to_dict()
    match.to_move = state.current_player
    remember_last_move(match, record, state)
    expire_offers(match, seats)
    if ended:
        match.turn_started_at = None
        finish(match, seats, state.outcome)
        match.save()
    else:
        clocks.turn_start(match, seats, record.created_at)
        if together:
            _write_along(record, match)
        else:
            match.save(update_fields=MOVE_FIELDS)
    metrics.move_made(match.game, metrics.ENGINE if seats[seat].ai_level else metrics.HUMAN)
    payload = {"match": match.pk, "ply": record.ply, "seat": seat, "move": match.last_move["move"]}
    if prepared:
        payload["conditional"] = True
    notify([s.user for s in seats if prepared or s.seat != seat], "move", payload)
    return record


_MATCH_MOVE_FIELDS = [Match._meta.get_field(name) for name in MOVE_FIELDS]
_MOVE_COLUMNS = ["match_id", "ply", "seat", "notation", "created_at"]
_MOVE_FIELDS = [Move._meta.get_field(name) for name in ["match", "ply", "seat", "notation", "created_at"]]
_INSERT_MOVE_SQL = 'INSERT INTO "{move}" ({columns}) VALUES ({values}) RETURNING id'.format(
    move=Move._meta.db_table, columns=", ".join(_MOVE_COLUMNS), values=", ".join(["%s"] * len(_MOVE_COLUMNS)))
_UPDATE_MATCH_SQL = 'UPDATE "{match}" SET {changed} WHERE id = %s'.format(
    match=Match._meta.db_table, changed=", ".join(f'"{f.column}" = %s' for f in _MATCH_MOVE_FIELDS))


def _write_along(record: Move, match: Match) -> None:
    """INSERT the move and UPDATE the match's MOVE_FIELDS, sent with the move's events (one
    statement, `events.write_along`); the record gets its id once it is written. Values are
    prepared by each field's `get_db_prep_save`, as `save()` prepares them. Nothing of the move
    reads these rows before then: the match row is this transaction's (locked), the record new."""
    match.updated_at = timezone.now()
    moved = [f.get_db_prep_save(getattr(record, f.attname), connection) for f in _MOVE_FIELDS]
    changed = [f.get_db_prep_save(getattr(match, f.attname), connection) for f in _MATCH_MOVE_FIELDS]
    write_along(_INSERT_MOVE_SQL, moved, returned=lambda move_id: setattr(record, "id", move_id))
    write_along(_UPDATE_MATCH_SQL, [*changed, match.pk])


@transaction.atomic
def move_submit(*, match_id: int, user, move: str, ply: int | None = None) -> Played:
    match, seats = locked_match(match_id)
    seat = seat_of(user, seats)
    if ply is not None and ply != match.ply and (replayed := _replayed(match, seats, seat.seat, move, ply)):
        return replayed
    require_active(match)
    if ply is not None and ply != match.ply:     # first: the client's picture is out of date
        raise ServiceError("stale_ply", f"the match is at ply {match.ply}, not {ply}",
                           detail={"ply": match.ply})
    capabilities.turn_verdict(match, seat).check()
    require_in_time(match)
    state = match_state(match)
    parsed = state.parse_move(move)
    # The move's record, its match row and its events: one statement, the transaction's last.
    with batched():
        return record_move(match, seats, seat.seat, parsed, state.apply(parsed))


def _replayed(match: Match, seats: list[MatchSeat], seat: int, move: str, ply: int) -> Played | None:
    """The seat's last recorded move, if this submission repeats it exactly (the ply it was made
    at, the notation it was recorded in): a client retrying after its answer was lost gets the
    recorded move again instead of `stale_ply` (design §5.2)."""
    last = match.moves.filter(seat=seat).order_by("-ply").first()
    if last is None or last.ply != ply + 1 or last.notation != move.strip():
        return None
    return Played(record=last, match=match, seats=seats, state=match_state(match))


@transaction.atomic
def engine_move_apply(*, match_id: int, ply: int, notation: str, job_id: int | None = None,
                      job_status: str = EngineJob.Status.DONE, job_error: str = "") -> Played | None:
    """Write an engine's reply, only if its job is still open and the match is still where the
    engine looked (compare-and-set on ply), so a late or duplicated job never moves twice. The job
    is closed with `job_status` either way."""
    match = match_with_seats(match_id, lock=True)
    if match is None:
        return None
    cause = None
    if job_id is not None:
        job = EngineJob.objects.select_related("user").filter(pk=job_id).first()
        if job is None or not dispatch.job_finish(job_id, job_status, job_error, lane=job.lane):
            return None
        cause = job.user
    seats = match.seat_list
    if not (match.ply == ply and dispatch.engine_to_move(match, seats)):
        return None
    state = match_state(match)
    parsed = state.parse_move(notation)
    with batched():
        return record_move(match, seats, match.to_move, parsed, state.apply(parsed), cause=cause)
