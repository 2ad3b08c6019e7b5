"""What a viewer may do in a match: the one answer that the match detail (`capabilities`), the
match page's buttons and the services all use. The services ask these same rules, on the rows
they have locked, before they write.

Each capability is granted or denied with the stable code (`matches/errors.py` CODES) and message
the service answers for that request; the rules run in the service's order, so the first refusal
is the service's. Limits on how much a person may have going at once (429: open challenges,
engine matches, pending analyses) are not capabilities: they are counted when a request is made.

A rule reads a fact that needs a query only when it gets that far: the seats that have moved
(known without one once every seat has had a turn, in games whose seats take their first turns
in order), whether the match is a tournament game, a pending rematch. The detail of a match under
way past its first round costs no statement.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Callable, Sequence

from django.db.models import Q, QuerySet
from django.utils import timezone

import games
from ai_workers.engines.offers import accepts_takeback
from matches.errors import ServiceError
from matches.models import Analysis, Challenge, Match, MatchSeat, Move, TournamentGame

DRAW, TAKEBACK = "draw", "takeback"
OFFER_ACTIONS = ("offer", "accept", "decline", "withdraw")
#: Each capability, with the request it stands for.
CAPABILITY_HELP = {
    "move": "POST matches/{id}/moves/",
    **{f"{action}_{kind}": f'POST matches/{{id}}/{kind}/ {{"action": "{action}"}}'
       for kind in (DRAW, TAKEBACK) for action in OFFER_ACTIONS},
    "abort": "POST matches/{id}/abort/",
    "resign": "POST matches/{id}/resign/",
    "rematch": "POST matches/{id}/rematch/",
    "analyse": "POST matches/{id}/analysis/",
    "read_analysis": "GET analyses/{id}/ of this match's analyses (hidden information: your own)",
}
CAPABILITIES = tuple(CAPABILITY_HELP)
#: Every code a capability may be denied with.
DENIAL_CODES = ("not_authenticated", "not_seated", "match_finished", "not_your_turn", "time_out", "no_opponent",
                "draw_unavailable", "takeback_unavailable", "takeback_against_engine", "no_offer",
                "already_offered", "nothing_to_take_back", "too_late_to_abort", "abort_unavailable",
                "match_in_progress", "rematch_pending", "hidden_information", "not_yours")


@dataclass(frozen=True)
class Verdict:
    """Granted (no code), or denied with the service's code and message."""

    code: str | None = None
    message: str = ""

    @property
    def allowed(self) -> bool:
        return self.code is None

    def check(self) -> None:
        """Refuse as the service does (ServiceError) when denied."""
        if self.code is not None:
            raise ServiceError(self.code, self.message)

    def as_dict(self) -> dict:
        return {"allowed": self.allowed, "code": self.code, "message": self.message or None}


GRANTED = Verdict()


def is_person(user) -> bool:
    return user is not None and user.is_authenticated


def seat_for(user, seats: Sequence[MatchSeat]) -> MatchSeat | None:
    """The seat `user` holds (a person's, never an engine's)."""
    if not is_person(user):
        return None
    return next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)


class Table:
    """A match, its seats (in seat order) and one viewer; facts that need a query are read once,
    when a rule first needs them."""

    def __init__(self, match: Match, seats: Sequence[MatchSeat], user, now: datetime | None = None) -> None:
        self.match, self.seats, self.user = match, list(seats), user
        self.now = now or timezone.now()
        self.seat = seat_for(user, self.seats)

    @cached_property
    def rules(self) -> games.Game:
        return games.get_game(self.match.game)

    def pending(self, kind: str) -> list[MatchSeat]:
        """Other seats' pending offers of `kind`."""
        return [s for s in self.seats if s.offer == kind and s is not self.seat]

    @cached_property
    def moved_seats(self) -> frozenset[int]:
        match = self.match
        if match.ply == 0:
            return frozenset()
        if self.rules.seats_take_first_turns_in_order and match.ply >= match.players:
            return frozenset(s.seat for s in self.seats)
        return frozenset(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())

    @cached_property
    def in_tournament(self) -> bool:
        return TournamentGame.objects.filter(match=self.match).exists()


Rule = Callable[[Table], Verdict]


def _first(table: Table, *rules: Rule) -> Verdict:
    """The first refusal of `rules`, asked in order (later rules may assume earlier ones passed)."""
    for rule in rules:
        verdict = rule(table)
        if not verdict.allowed:
            return verdict
    return GRANTED


# -- the rules the services also ask on their own rows ----------------------------------------------
def person_verdict(user) -> Verdict:
    return GRANTED if is_person(user) else Verdict("not_authenticated", "sign in first")


def seated_verdict(seat: MatchSeat | None) -> Verdict:
    return GRANTED if seat is not None else Verdict("not_seated", "you do not play in this match")


def active_verdict(match: Match) -> Verdict:
    if match.status != Match.Status.ACTIVE:
        return Verdict("match_finished", f"the match is {match.status}")
    return GRANTED


def in_time_verdict(match: Match, now: datetime | None = None) -> Verdict:
    """A player whose deadline has passed has lost on time, even before the sweep settles it."""
    if match.deadline is not None and match.deadline <= (now or timezone.now()):
        return Verdict("time_out", "the deadline of the seat to move has passed; the clock settles the match")
    return GRANTED


def turn_verdict(match: Match, seat: MatchSeat) -> Verdict:
    if match.to_move != seat.seat:
        return Verdict("not_your_turn", f"it is seat {match.to_move}'s turn, not yours")
    return GRANTED


# -- the same as rules of a table --------------------------------------------------------------------
def _person(t: Table) -> Verdict:
    return person_verdict(t.user)


def _seated(t: Table) -> Verdict:
    return seated_verdict(t.seat)


def _active(t: Table) -> Verdict:
    return active_verdict(t.match)


def _in_time(t: Table) -> Verdict:
    return in_time_verdict(t.match, t.now)


def _your_turn(t: Table) -> Verdict:
    return turn_verdict(t.match, t.seat)


def _has_opponent(kind: str) -> Rule:
    def rule(t: Table) -> Verdict:
        if len(t.seats) < 2:
            return Verdict("no_opponent", f"a one-seat match has nobody to agree a {kind} with")
        return GRANTED
    return rule


def _kind_offered(kind: str) -> Rule:
    """Whether the game, and the table, have this kind of agreement at all."""
    def rule(t: Table) -> Verdict:
        if kind == DRAW and not t.rules.draws_by_agreement:
            return Verdict("draw_unavailable", f"{t.rules.title} has no draws by agreement: play on or resign")
        if kind == TAKEBACK and t.rules.has_hidden_information:
            # The moves replayed after a takeback would reveal cards that were drawn.
            return Verdict("takeback_unavailable", "takebacks are not offered in games with hidden information")
        if kind == TAKEBACK and any(s.ai_level for s in t.seats if s is not t.seat) and not accepts_takeback():
            return Verdict("takeback_against_engine", "engines never agree to take moves back")
        return GRANTED
    return rule


def _offer_to_answer(kind: str, action: str) -> Rule:
    def rule(t: Table) -> Verdict:
        mine = t.seat.offer
        if action == "withdraw" and mine != kind:
            return Verdict("no_offer", f"you have no {kind} offer to withdraw")
        if action in ("accept", "decline") and not t.pending(kind):
            return Verdict("no_offer", f"there is no {kind} offer to {action}")
        if action in ("offer", "accept") and (mine == kind or (mine and action == "offer")):
            return Verdict("already_offered", f"your {mine} offer is pending: withdraw it first")
        return GRANTED
    return rule


def offer_maker(t: Table, kind: str) -> MatchSeat:
    """Whose offer an agreement settles: the earliest pending one of another seat, else the viewer's."""
    theirs = t.pending(kind)
    return min(theirs, key=lambda s: s.offer_ply or 0) if theirs else t.seat


def _maker_has_moved(kind: str, action: str) -> Rule:
    def rule(t: Table) -> Verdict:
        if kind == TAKEBACK and action in ("offer", "accept") and offer_maker(t, kind).seat not in t.moved_seats:
            return Verdict("nothing_to_take_back", "there is no move of yours to take back")
        return GRANTED
    return rule


def offer_verdict(t: Table, kind: str, action: str) -> Verdict:
    """Offer, accept, decline or withdraw a draw or a takeback (services.offers)."""
    return _first(t, _person, _seated, _active, _in_time, _has_opponent(kind), _kind_offered(kind),
                  _offer_to_answer(kind, action), _maker_has_moved(kind, action))


def move_verdict(t: Table) -> Verdict:
    return _first(t, _person, _seated, _active, _your_turn, _in_time)


def resign_verdict(t: Table) -> Verdict:
    return _first(t, _person, _seated, _active, _in_time)


def _before_every_seat_moved(t: Table) -> Verdict:
    if len(t.moved_seats) >= len(t.seats):
        return Verdict("too_late_to_abort", "a match can be aborted only before every seat has moved")
    return GRANTED


def _abortable_kind(t: Table) -> Verdict:
    if t.match.ladder_id or t.in_tournament:
        return Verdict("abort_unavailable", "ladder and tournament games cannot be aborted: resign instead")
    return GRANTED


def abort_verdict(t: Table) -> Verdict:
    """Call the match off, unrated: a player, while some seat has not moved yet."""
    return _first(t, _person, _seated, _active, _before_every_seat_moved, _abortable_kind)


def _over(t: Table) -> Verdict:
    if t.match.status == Match.Status.ACTIVE:
        return Verdict("match_in_progress", "a rematch is for a match that is over")
    return GRANTED


def _not_asked_already(t: Table) -> Verdict:
    if Challenge.objects.filter(rematch_of=t.match, status=Challenge.Status.OPEN, created_by=t.user).exists():
        return Verdict("rematch_pending", "you have asked for this rematch already")
    return GRANTED


def rematch_verdict(t: Table) -> Verdict:
    """Ask for a rematch (or accept another player's request): a player, once the match is over."""
    return _first(t, _person, _seated, _over, _not_asked_already)


def _analysable_now(t: Table) -> Verdict:
    if t.match.status == Match.Status.ACTIVE and (t.rules.has_hidden_information or not t.user.is_staff):
        return Verdict("match_in_progress", "analysis is available once the match is over (no engine help mid-game)")
    return GRANTED


def _player_if_hidden(t: Table) -> Verdict:
    if t.rules.has_hidden_information and t.seat is None:
        return Verdict("hidden_information", "in a game with hidden information only a player can ask "
                       "for analysis, and only of their own turns")
    return GRANTED


def analyse_verdict(t: Table) -> Verdict:
    """Ask for an engine analysis (services.analysis): finished matches only, unless staff ask
    about a perfect-information match in progress; hidden-information games only by a player."""
    return _first(t, _person, _analysable_now, _player_if_hidden)


def _readers_only(t: Table) -> Verdict:
    if t.rules.has_hidden_information and t.seat is None:
        return Verdict("not_yours", "this analysis shows one player's own cards; only they may read it")
    return GRANTED


def read_analysis_verdict(t: Table) -> Verdict:
    """Read the match's analyses: anyone, except in a game with hidden information, where a
    player reads the analyses they asked for (of their own turns) and nobody else any."""
    return _first(t, _readers_only)


# -- one analysis -----------------------------------------------------------------------------------
def analysis_verdict(analysis: Analysis, user) -> Verdict:
    """Whether `user` may read this analysis: one that covers a seat's own turns shows that
    seat's cards, so only its requester may."""
    if analysis.seat is not None and (not is_person(user) or analysis.requested_by_id != user.pk):
        return Verdict("not_yours", "this analysis shows one player's own cards; only they may read it")
    return GRANTED


def readable_analyses(match: Match, user) -> QuerySet[Analysis]:
    """The match's analyses `user` may read (`analysis_verdict` as a filter)."""
    readable = Q(seat__isnull=True)
    if is_person(user):
        readable |= Q(requested_by=user)
    return Analysis.objects.filter(readable, match=match)


# -- every capability at once -----------------------------------------------------------------------
def verdicts(match: Match, seats: Sequence[MatchSeat], user, now: datetime | None = None) -> dict[str, Verdict]:
    t = Table(match, seats, user, now)
    found = {"move": move_verdict(t)}
    for kind in (DRAW, TAKEBACK):
        for action in OFFER_ACTIONS:
            found[f"{action}_{kind}"] = offer_verdict(t, kind, action)
    found.update(abort=abort_verdict(t), resign=resign_verdict(t), rematch=rematch_verdict(t),
                 analyse=analyse_verdict(t), read_analysis=read_analysis_verdict(t))
    return found


def capabilities(match: Match, seats: Sequence[MatchSeat], user) -> dict[str, dict]:
    """The payload form: capability → {allowed, code, message}."""
    return {name: verdict.as_dict() for name, verdict in verdicts(match, seats, user).items()}
