"""Tournaments: round-robin and Swiss, a round at a time."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import Match, Tournament
from matches.selectors import tournaments as selectors
from matches.services import tournaments

from .query import Api, PageQueryIn, query_params
from .schema import TwoPlayerGameField, VariantOrBlankField, errors, page_of, paginated, valid


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    game = TwoPlayerGameField(max_length=40)
    variant = VariantOrBlankField(max_length=40, required=False, allow_blank=True, allow_null=True,
                           help_text="a named variant (or an alias) of the game; its settings apply first")
    options = serializers.DictField(required=False, default=dict, help_text="the game's options (see games/{slug}/)")
    days_per_move = serializers.IntegerField(required=False, default=3, min_value=1, max_value=60,
                                             help_text="the clock of every game: days per move (rated games need one)")
    kind = serializers.ChoiceField(choices=Tournament.Kind.values)
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=63,
                                      help_text="Swiss only (1 to max_entrants − 1); a round-robin has as many as it needs")
    max_entrants = serializers.IntegerField(min_value=2, max_value=64)
    starts_at = serializers.DateTimeField(required=False, allow_null=True,
                                          help_text="when the server starts it (else the organiser does)")


class TournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    options = serializers.DictField()
    days_per_move = serializers.IntegerField(allow_null=True)
    kind = serializers.ChoiceField(choices=Tournament.Kind.values)
    rounds = serializers.IntegerField(allow_null=True, help_text="null for a round-robin until it starts")
    max_entrants = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    status = serializers.ChoiceField(choices=Tournament.Status.values)
    current_round = serializers.IntegerField(help_text="0 before the start")
    organiser = serializers.CharField()
    entrants = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class TournamentStandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.FloatField(help_text="1 a win or bye, ½ a draw")
    buchholz = serializers.FloatField(help_text="the sum of the opponents' scores")
    sonneborn_berger = serializers.FloatField(help_text="beaten opponents' scores plus half of drawn ones'")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()


class CrosstableRowOut(serializers.Serializer):
    player = serializers.CharField()
    cells = serializers.ListField(child=serializers.FloatField(allow_null=True), help_text=(
        "the score against each player, in standings order (null: not met, or not decided yet)"))


class TournamentGameOut(serializers.Serializer):
    first = serializers.CharField(help_text="seat 0")
    second = serializers.CharField(allow_null=True, help_text="seat 1; null for a bye")
    match = serializers.IntegerField(allow_null=True)
    first_score = serializers.FloatField(allow_null=True, help_text="seat 0's score once decided")
    status = serializers.ChoiceField(choices=[*Match.Status.values, "bye"])


class TournamentRoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    games = TournamentGameOut(many=True)


class TournamentDetailOut(TournamentOut):
    standings = TournamentStandingOut(many=True, help_text=(
        "by score, then Swiss: Buchholz, Sonneborn–Berger; round-robin: Sonneborn–Berger, wins"))
    crosstable = CrosstableRowOut(many=True)
    pairings = TournamentRoundOut(many=True)


class TournamentListQueryIn(PageQueryIn):
    status = serializers.ChoiceField(choices=Tournament.Status.values, required=False)


def _detail(pk: int) -> dict:
    return TournamentDetailOut(selectors.tournament_detail(selectors.get_tournament(pk))).data


class TournamentListApi(Api):
    @extend_schema(responses={200: page_of(TournamentOut), **errors("page_not_found", "invalid_filter")},
                   summary="Tournaments, newest first")
    @query_params(TournamentListQueryIn)
    def get(self, request: Request) -> Response:
        qs = selectors.tournaments_query(request.query.get("status"))
        return paginated(request, self, qs, selectors.tournament_summary, TournamentOut)

    @extend_schema(request=TournamentIn, summary="Organise a tournament", responses={
        201: TournamentDetailOut, **errors("unknown_game", "invalid_options", "not_two_player",
                                           "invalid_tournament", body=True, auth=True)})
    def post(self, request: Request) -> Response:
        tournament = tournaments.tournament_create(creator=request.user, **valid(TournamentIn, request))
        return Response(_detail(tournament.pk), status=status.HTTP_201_CREATED)


class TournamentDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TournamentDetailOut, **errors("tournament_not_found")},
                   summary="A tournament: standings with tie-breaks, crosstable, pairings per round")
    def get(self, request: Request, pk: int) -> Response:
        return Response(_detail(pk))


def _tournament_action(service, summary: str, codes: tuple[str, ...], created: bool = False):
    class _Api(Api):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(request=None, summary=summary, responses={
            (201 if created else 200): TournamentDetailOut, **errors("tournament_not_found", *codes, auth=True)})
        def post(self, request: Request, pk: int) -> Response:
            service(tournament_id=pk, user=request.user)
            return Response(_detail(pk), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    _Api.__name__ = f"{service.__name__.title().replace('_', '')}Api"
    return _Api


TournamentJoinApi = _tournament_action(tournaments.tournament_join, "Enter a tournament before it starts",
                                       ("tournament_closed", "tournament_full", "already_entered"), created=True)
TournamentLeaveApi = _tournament_action(tournaments.tournament_leave, "Withdraw before it starts",
                                        ("tournament_closed", "not_entered"))
TournamentStartApi = _tournament_action(tournaments.tournament_start, "Start now (the organiser)",
                                        ("not_organiser", "tournament_closed", "too_few_entrants"))
