"""Match reads: the position, the list and detail payloads, the move history and the export."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import router, transaction
from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet, Subquery
from django.db.transaction import TransactionManagementError
from django.urls import get_script_prefix, get_urlconf, reverse

import games
from ai_workers.engines.jobs import public_notation
from games.record import format_record
from matches.errors import ServiceError
from matches.models import ConditionalMoves, Match, MatchSeat

from . import rows
from .capabilities import capabilities
from .clocks import clocks_payload


def match_state(match: Match) -> games.State:
    """The match's current position, from its snapshot."""
    return games.get_game(match.game).state_from_dict(match.state)


def get_match(match_id: int) -> Match:
    match = match_with_seats(match_id)
    if match is None:
        raise ServiceError("match_not_found", f"no match {match_id}")
    return match


def _seats_with_match(match_id: int, *, lock: bool = False) -> QuerySet:
    seats = MatchSeat.objects.select_related("match", "user").filter(match_id=match_id).order_by("seat")
    if lock:
        seats = seats.select_for_update(of=("match",)).annotate(has_conditional=Exists(
            ConditionalMoves.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("seat"))))
    return seats


def match_with_seats(match_id: int, *, lock: bool = False) -> Match | None:
    """The match with its seats (in seat order, users loaded) in one statement, or None; the seats
    are `match.seat_list` (as `Prefetch(to_attr=)` leaves them; `seats_of` reads them). `lock`: the
    match row is locked until the transaction ends, and each seat knows whether it has prepared
    replies (`has_conditional`)."""
    alias = router.db_for_write(Match) if lock else router.db_for_read(MatchSeat)
    if lock and transaction.get_autocommit(using=alias):
        raise TransactionManagementError("a locking read needs a transaction")
    if not rows.BIGINT_MIN <= match_id <= rows.BIGINT_MAX:
        return None          # no row has such an id (and SQLite cannot even bind it)
    if rows.plain_sql(alias, match_id):
        seats = _seat_rows(alias, match_id, lock)
    else:
        seats = list(_seats_with_match(match_id, lock=lock).using(alias))
    if not seats:            # every match has its seats from the start
        return None
    match = seats[0].match
    for seat in seats:
        seat.match = match
    match.seat_list = seats
    return match


_SEAT, _MATCH, _USER = rows.Columns(MatchSeat, "s"), rows.Columns(Match, "m"), rows.Columns(get_user_model(), "u")
_SEATS_SQL = (f"SELECT {_SEAT.sql}, {_MATCH.sql}, {_USER.sql}{{conditional}} FROM {_SEAT.table} "
              f"JOIN {_MATCH.table} ON {_MATCH.pk} = s.match_id LEFT JOIN {_USER.table} ON {_USER.pk} = s.user_id "
              "WHERE s.match_id = %s ORDER BY s.seat{lock}")
_LOCKED_SEATS_SQL = _SEATS_SQL.format(lock=" FOR UPDATE OF m", conditional=(
    f", EXISTS (SELECT 1 FROM {ConditionalMoves._meta.db_table} AS c "
    "WHERE c.match_id = s.match_id AND c.seat = s.seat)"))
_SEATS_SQL = _SEATS_SQL.format(lock="", conditional="")


def _seat_rows(alias: str, match_id: int, lock: bool) -> list[MatchSeat]:
    """`_seats_with_match(match_id, lock=lock)` as one plain statement (rows.py)."""
    found = rows.fetch(alias, _LOCKED_SEATS_SQL if lock else _SEATS_SQL, [match_id])
    if not found:
        return []
    match = _MATCH.instance(found[0], _SEAT.width, alias)
    seats = []
    user_at = _SEAT.width + _MATCH.width
    for row in found:
        seat = _SEAT.instance(row, 0, alias)
        seat.match = match
        seat.user = _USER.instance(row, user_at, alias) if seat.user_id is not None else None
        if lock:
            seat.has_conditional = row[-1]
        seats.append(seat)
    return seats


def seats_of(match: Match) -> list[MatchSeat]:
    """The match's seats in seat order: those read with it (`seat_list`), else from the database."""
    seats = getattr(match, "seat_list", None)
    return list(match.seats.all()) if seats is None else seats


def public_move_text(rules: games.Game, notation: str, state: games.State) -> str:
    """How a recorded move reads while `state` is displayed (games with secrets hide them)."""
    return public_notation(rules, notation, state)


def viewer_seat(match: Match, user, seats: Sequence[MatchSeat] | None = None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    seats = seats_of(match) if seats is None else seats
    return next((s.seat for s in seats if s.user_id == user.pk), None)


def seats_payload(seats: Sequence[MatchSeat]) -> list[dict]:
    return [{"seat": s.seat, "player": s.player_name} for s in seats]


def offers_payload(seats: Sequence[MatchSeat]) -> list[dict]:
    """The pending offers: kind, the seat that made it and the ply it was made at."""
    return [{"kind": s.offer, "seat": s.seat, "ply": s.offer_ply} for s in seats if s.offer]


def match_summary(match: Match, user=None, seats: Sequence[MatchSeat] | None = None) -> dict:
    """The list form: no position at all (cheap, and nothing hidden to leak), with what an inbox
    needs: the caller's seat, who is to move, the deadline, the clocks and the latest move."""
    rules = games.get_game(match.game)
    seats = seats_of(match) if seats is None else seats
    return {
        "id": match.pk, "game": match.game, "variant": rules.public_variant(match.options),
        "options": rules.public_options(match.options), "status": match.status,
        "seats": seats_payload(seats), "viewer_seat": viewer_seat(match, user, seats),
        "ply": match.ply, "to_move": match.to_move, "rated": match.rated,
        "time_control": match.time_control, "deadline": match.deadline, "clocks": clocks_payload(match, seats),
        "last_move": match.last_move, "offers": offers_payload(seats), "result": match.result,
        "created_at": match.created_at, "updated_at": match.updated_at,
    }


def match_detail(match: Match, user, seats: Sequence[MatchSeat] | None = None,
                 state: games.State | None = None, legal: bool = True) -> dict:
    """The detail form: the viewer's view of the position and, on their turn, their legal moves
    (left out with `legal=False`). `seats` and `state` may be passed in by a caller that has them."""
    seats = seats_of(match) if seats is None else seats
    seat = viewer_seat(match, user, seats)
    state = match_state(match) if state is None else state
    payload = match_summary(match, user, seats)
    payload["state"] = state.view(seat)
    payload["legal_moves"] = legal_moves_for(match, seat, state) if legal else []
    grammar = games.get_game(match.game).grammar
    payload["legal_moves_complete"] = grammar.legal_moves_complete
    payload["grammar"] = _grammar_url(match.game, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    payload["finished_at"] = match.finished_at
    payload["capabilities"] = capabilities(match, seats, user)
    return payload


@lru_cache(maxsize=512)
def _grammar_url(game: str, prefix: str, urlconf: str) -> str:
    """Where a game's move grammar is documented; the same for every request with this script
    prefix and URLconf (both in the key), so it is reversed once for each."""
    return reverse("game-detail", kwargs={"slug": game}, urlconf=urlconf) + "#/notation"


def legal_moves_for(match: Match, seat: int | None, state: games.State | None = None) -> list[str]:
    """The legal moves of `seat` (notation), on its turn; [] otherwise."""
    if seat is None or match.status != Match.Status.ACTIVE or match.to_move != seat:
        return []
    return (match_state(match) if state is None else state).legal_notations()


def match_moves(match: Match) -> list[dict]:
    rules = games.get_game(match.game)
    state = match_state(match) if rules.has_hidden_information else None
    return [{"ply": m.ply, "seat": m.seat,
             "move": public_move_text(rules, m.notation, state) if state else m.notation,
             "created_at": m.created_at}
            for m in match.moves.order_by("ply")]


def match_export(match: Match) -> str:
    """A text record that `games.record.replay_record` replays (perfect-information games)."""
    rules = games.get_game(match.game)
    tags: dict[str, object] = {
        "Event": "Pearlsite match", "Site": f"match {match.pk}",
        "Date": match.created_at.strftime("%Y.%m.%d"), "Game": match.game,
        "Variant": rules.public_variant(match.options), "Options": _json(rules.public_options(match.options)),
        "Players": match.players,
    }
    for s in seats_of(match):
        tags[f"Seat{s.seat}"] = s.player_name
    if not rules.has_hidden_information and match.status != Match.Status.ACTIVE:
        # Seeded randomness (an ai:random seat, a deal) is predictable from the seed: it is shown
        # once the match is over, and never for hidden-information games.
        tags["Seed"] = match.seed
    tags["Status"] = match.status
    if match.result:
        tags["Result"] = "-".join(f"{s:g}" for s in match.result["scores"])
        tags["Termination"] = match.result["termination"]
    return format_record(tags, [m["move"] for m in match_moves(match)])


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def matches_query(*, status: str | None = None, player: str | None = None, game: str | None = None,
                  viewer=None, my_turn: bool = False, active: bool = False) -> QuerySet[Match]:
    """Matches, newest first; with `my_turn` (the viewer is to move) or `active` (the viewer plays,
    the match goes on) an inbox for `viewer`, soonest deadline first. Seat conditions are EXISTS
    tests, not joins: no DISTINCT, so a page is an index scan that stops after 50 rows."""
    qs = Match.objects.defer("state").prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("user"), to_attr="seat_list"))
    if my_turn or active:
        qs = qs.filter(status=Match.Status.ACTIVE)
        qs = qs.filter(_seated(user=viewer, seat=OuterRef("to_move")) if my_turn else _seated(user=viewer))
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    if player:
        if player.startswith("ai:"):
            qs = qs.filter(_seated(ai_level=player[3:]))
        else:
            # The user's id as a scalar subquery (not a join): the plan then walks that user's
            # seats in the (user, match) index, newest match first.
            user_id = Subquery(get_user_model().objects.filter(username__iexact=player).order_by("pk")
                               .values("pk")[:1])
            qs = qs.filter(_seated(user_id=user_id))
    if my_turn or active:
        return qs.order_by(F("deadline").asc(nulls_last=True), "-id")
    return qs.order_by("-id")


def _seated(**seat) -> Exists:
    return Exists(MatchSeat.objects.filter(match=OuterRef("pk"), **seat))
