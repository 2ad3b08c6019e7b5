"""`selectors.capabilities` against the services: over generated situations (every game; matches
under way, finished and aborted; casual, rated, ladder and tournament games; engines and people at
the table; offers pending; a deadline passed), for each player, a spectator, staff and an anonymous
visitor, every capability the selector grants the service accepts, and every one it denies the
service refuses with the same code. Each service call runs in a savepoint that is rolled back."""
from __future__ import annotations

from datetime import timedelta
from random import Random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

import games
from matches.errors import ServiceError
from matches.models import Analysis, EngineJob, Match, TournamentGame
from matches.selectors import capabilities
from matches.selectors.analysis import analysis_for
from matches.selectors.matches import match_state, match_with_seats
from matches.services import (
    analysis,
    challenges,
    ladders,
    offers,
    play,
    results,
    tournaments,
)

from .factories import UserFactory

pytestmark = pytest.mark.django_db

TWO_SEATS = sorted(slug for slug, g in games.GAMES.items() if g.min_players <= 2 <= g.max_players)


@pytest.fixture(autouse=True)
def _no_quotas(settings):
    """Quotas (429) are counted per request, not capabilities: out of the way here."""
    settings.MAX_ACTIVE_ENGINE_MATCHES = settings.MAX_OPEN_CHALLENGES = settings.MAX_PENDING_ANALYSES = 0


@pytest.fixture
def people(db):
    return [UserFactory(username=name) for name in ("ann", "ben", "cid", "dee")]


@pytest.fixture
def onlookers(db):
    return [UserFactory(username="carol"), UserFactory(username="erin", is_staff=True), AnonymousUser()]


# -- situations -------------------------------------------------------------------------------------
def _start(slug: str, people, engines: int = 0, **extra) -> Match:
    seats = games.get_game(slug).min_players
    humans = people[:seats - engines]
    opponents = [u.username for u in humans[1:]] + ["ai:random"] * engines
    challenge = challenges.challenge_create(creator=humans[0], game=slug, opponents=opponents, **extra)
    for user in humans[1:]:
        challenge = challenges.challenge_accept(challenge_id=challenge.pk, user=user)
    return challenge.match


def _advance(match: Match, plies: int, seed: int) -> Match:
    """`plies` more moves, random but legal, each by the seat to move (an engine's through the
    engines' write-back service)."""
    rng = Random(seed)
    for _ in range(plies):
        match = match_with_seats(match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        move = rng.choice(match_state(match).legal_notations())
        seat = match.seats.all()[match.to_move]
        if seat.ai_level:
            job = EngineJob.objects.get(match=match, status__in=EngineJob.LIVE)
            play.engine_move_apply(match_id=match.pk, ply=match.ply, notation=move, job_id=job.pk)
        else:
            play.move_submit(match_id=match.pk, user=seat.user, move=move)
    return Match.objects.get(pk=match.pk)


def _quietly(call) -> None:
    """Set a situation up; a refusal just means this situation has one pending offer fewer."""
    try:
        call()
    except ServiceError:
        pass


def _ladder_match(slug: str, people) -> Match:
    ladder = ladders.ladder_create(name=f"{slug} ladder", game=slug, created_by=people[0])
    for user in people[:2]:
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    pending = ladders.ladder_challenge(ladder_id=ladder.pk, user=people[1], opponent=people[0].username)
    return challenges.challenge_accept(challenge_id=pending.pk, user=people[0]).match


def _tournament_match(slug: str, people) -> Match:
    cup = tournaments.tournament_create(creator=people[0], name=f"{slug} cup", game=slug, kind="round-robin",
                                        max_entrants=2)
    for user in people[:2]:
        tournaments.tournament_join(tournament_id=cup.pk, user=user)
    tournaments.tournament_start(tournament_id=cup.pk, user=people[0])
    return TournamentGame.objects.get(tournament=cup).match


def _situations(slug: str, people) -> list[tuple[str, Match]]:
    rules = games.get_game(slug)
    seats = rules.min_players
    found = [("new", _start(slug, people)),
             ("first round", _advance(_start(slug, people), seats - 1, 1)),
             ("under way", _advance(_start(slug, people), seats + 1, 2))]
    if seats > 1:
        found += [("engine to move", _advance(_start(slug, people, engines=1), seats - 1, 3)),
                  ("engine, under way", _advance(_start(slug, people, engines=1), seats + 1, 4))]
        offered = _advance(_start(slug, people), seats + 1, 5)
        users = [s.user for s in offered.seats.order_by("seat")]
        _quietly(lambda: offers.match_draw(match_id=offered.pk, user=users[0]))
        _quietly(lambda: offers.match_takeback(match_id=offered.pk, user=users[1]))
        found.append(("offers pending", offered))
        rated = _advance(_start(slug, people, rated=True, days_per_move=3), 1, 6)
        found.append(("rated", rated))
        late = _advance(_start(slug, people, rated=True, days_per_move=3), seats, 7)
        Match.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=1))
        found.append(("deadline passed", late))
    if slug in TWO_SEATS:
        found += [("ladder", _ladder_match(slug, people)),
                  ("tournament", _advance(_tournament_match(slug, people), 1, 8))]
    resigned = _advance(_start(slug, people), seats + 1, 9)
    results.match_resign(match_id=resigned.pk, user=resigned.seats.get(seat=0).user)
    challenges.challenge_rematch(match_id=resigned.pk, user=resigned.seats.get(seat=0).user)
    aborted = _start(slug, people)
    results.match_abort(match_id=aborted.pk, user=aborted.seats.get(seat=0).user)
    return found + [("resigned", resigned), ("aborted", aborted)]


# -- asking the services ----------------------------------------------------------------------------
class _Undo(Exception):
    """Rolls the savepoint of one service call back."""


def _answer(call) -> str | None:
    """None if the service accepts (its writes then undone), else its refusal's code."""
    try:
        with transaction.atomic():
            call()
            raise _Undo
    except _Undo:
        return None
    except (ServiceError, games.GameError) as exc:
        return exc.code


def _a_move(match: Match) -> str:
    """The viewer's first legal move on their turn, else any move of the position."""
    state = match_state(match)
    return state.legal_notations()[0] if not state.is_terminal else "a1"


def _read_analysis(match: Match, user) -> None:
    """Read an analysis of the match as it would be stored: in a hidden-information game one of
    a player's own turns (the viewer's, if they play), else one anybody asked for."""
    rules = games.get_game(match.game)
    seats = list(match.seats.order_by("seat"))
    if rules.has_hidden_information:
        mine = capabilities.seat_for(user, seats) or seats[0]
        row = Analysis.objects.create(match=match, requested_by=mine.user, level="easy",
                                      upto_ply=match.ply, seat=mine.seat)
    else:
        row = Analysis.objects.create(match=match, requested_by=seats[0].user, level="easy", upto_ply=match.ply)
    analysis_for(row.pk, user)


def _service(name: str, match: Match, user):
    """The service call a capability stands for."""
    pk = match.pk
    if name == "move":
        return lambda: play.move_submit(match_id=pk, user=user, move=_a_move(match))
    if name.endswith(("_draw", "_takeback")):
        action, kind = name.split("_")
        service = offers.match_draw if kind == "draw" else offers.match_takeback
        return lambda: service(match_id=pk, user=user, action=action)
    return {
        "abort": lambda: results.match_abort(match_id=pk, user=user),
        "resign": lambda: results.match_resign(match_id=pk, user=user),
        "rematch": lambda: challenges.challenge_rematch(match_id=pk, user=user),
        "analyse": lambda: analysis.analysis_request(match_id=pk, user=user, level="easy"),
        "read_analysis": lambda: _read_analysis(match, user),
    }[name]


def _compare(situation: str, match: Match, user) -> tuple[list[capabilities.Verdict], list[str]]:
    """The selector's verdicts for `user`, and where the services answered otherwise."""
    fresh = match_with_seats(match.pk)
    verdicts = capabilities.verdicts(fresh, list(fresh.seats.all()), user)
    assert set(verdicts) == set(capabilities.CAPABILITIES)
    found = []
    for name, verdict in verdicts.items():
        answered = _answer(_service(name, fresh, user))
        if answered != verdict.code:
            who = getattr(user, "username", "") or "anonymous"
            found.append(f"{match.game} {situation}, {who}, {name}: selector {verdict.code}, service {answered}")
    return list(verdicts.values()), found


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_the_selector_grants_what_the_services_accept_and_denies_with_their_codes(slug, people, onlookers):
    problems, granted, denied, codes = [], 0, 0, set()
    for situation, match in _situations(slug, people):
        for user in [s.user for s in match.seats.order_by("seat") if s.user is not None] + onlookers:
            verdicts, disagreements = _compare(situation, match, user)
            problems += disagreements
            denied += sum(not v.allowed for v in verdicts)
            granted += sum(v.allowed for v in verdicts)
            codes |= {v.code for v in verdicts if v.code}
    assert not problems, "\n".join(problems)
    assert granted and denied
    assert codes == _refusals_to_meet(games.get_game(slug))     # the situations reach every refusal


def _refusals_to_meet(rules: games.Game) -> set[str]:
    """The denial codes a game's situations must meet: all but those its rules rule out."""
    expected = set(capabilities.DENIAL_CODES)
    if rules.max_players == 1:         # alone: nobody to agree with, to wait for or to play again
        return expected - {"abort_unavailable", "already_offered", "no_offer", "not_your_turn", "time_out",
                           "nothing_to_take_back", "rematch_pending", "takeback_against_engine",
                           "draw_unavailable", "takeback_unavailable", "hidden_information", "not_yours"}
    expected.discard("no_opponent")
    if rules.draws_by_agreement:
        expected.discard("draw_unavailable")
    if rules.has_hidden_information:
        expected -= {"takeback_against_engine", "nothing_to_take_back"}
        if not rules.draws_by_agreement:           # no agreement of either kind: never an offer
            expected -= {"already_offered", "no_offer"}
    else:
        expected -= {"hidden_information", "not_yours", "takeback_unavailable"}
    if rules.slug not in TWO_SEATS:
        expected.discard("abort_unavailable")      # no ladders or tournaments
    return expected
