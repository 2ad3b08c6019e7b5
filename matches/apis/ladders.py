"""Ranked ladders."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import LadderEvent
from matches.selectors import challenges as challenge_selectors
from matches.selectors import ladders as selectors
from matches.services import ladders

from .challenges import ChallengeOut
from .query import Api, PageQueryIn, query_params
from .schema import TwoPlayerGameField, VariantOrBlankField, errors, page_of, paginated, valid


class LadderIn(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    game = TwoPlayerGameField(max_length=40)
    variant = VariantOrBlankField(max_length=40, required=False, allow_blank=True, allow_null=True,
                           help_text="a named variant (or an alias) of the game; its settings apply first")
    options = serializers.DictField(required=False, default=dict, help_text="the game's options (see games/{slug}/)")
    challenge_reach = serializers.IntegerField(required=False, default=3, min_value=1, max_value=50,
                                               help_text="how many ranks above themselves a player may challenge")
    days_per_move = serializers.IntegerField(required=False, default=3, min_value=1, max_value=60,
                                             help_text="the clock of ladder matches: days per move (rated games need one)")
    answer_days = serializers.IntegerField(required=False, default=7, min_value=1, max_value=60,
                                           help_text="days a challenged player has to accept; then they forfeit")


class LadderChallengeIn(serializers.Serializer):
    opponent = serializers.CharField(max_length=150)


class StandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    forfeits = serializers.IntegerField(help_text="challenges lost without playing")


class LadderOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    variant = serializers.CharField(help_text='the closest named variant ("standard" for the defaults)')
    options = serializers.DictField()
    challenge_reach = serializers.IntegerField(help_text="how many ranks above you may challenge")
    days_per_move = serializers.IntegerField(allow_null=True)
    answer_days = serializers.IntegerField(help_text="days a challenged player has to accept")
    created_by = serializers.CharField(allow_null=True)
    players = serializers.IntegerField()


class LadderDetailOut(LadderOut):
    standings = StandingOut(many=True)


class LadderEntryOut(serializers.Serializer):
    ladder = serializers.IntegerField()
    rank = serializers.IntegerField()


class LadderEventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LadderEvent.Kind.values, help_text=(
        "joined; climbed (the challenger won and took the defender's rank); defended; forfeited "
        "(a side never answered or never moved: a forfeiting defender loses their rank as if beaten)"))
    at = serializers.DateTimeField()
    challenger = serializers.CharField(help_text="the player who joined, or who challenged")
    challenger_rank = serializers.IntegerField(help_text="their rank after the event")
    defender = serializers.CharField(allow_null=True)
    defender_rank = serializers.IntegerField(allow_null=True, help_text="their rank after the event")
    forfeited_by = serializers.CharField(allow_null=True)
    challenge = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)


class LadderListApi(Api):
    @extend_schema(responses={200: page_of(LadderOut), **errors("page_not_found", "invalid_filter", "page_not_found")},
                   summary="Ladders")
    @query_params(PageQueryIn)
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.ladders_query(), selectors.ladder_payload, LadderOut)

    @extend_schema(request=LadderIn, summary="Open a ladder", responses={
        201: LadderDetailOut, **errors("unknown_game", "invalid_options", "not_two_player",
                                       "ladder_exists", body=True, auth=True)})
    def post(self, request: Request) -> Response:
        ladder = ladders.ladder_create(**valid(LadderIn, request), created_by=request.user)
        payload = selectors.ladder_payload(selectors.get_ladder(ladder.pk), standings=True)
        return Response(LadderDetailOut(payload).data, status=status.HTTP_201_CREATED)


class LadderDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LadderDetailOut, **errors("ladder_not_found")}, summary="A ladder with its standings")
    def get(self, request: Request, pk: int) -> Response:
        return Response(LadderDetailOut(selectors.ladder_payload(selectors.get_ladder(pk), standings=True)).data)


class LadderHistoryApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(LadderEventOut), **errors("page_not_found", "ladder_not_found", "invalid_filter")},
                   summary="How the standings changed, newest first")
    @query_params(PageQueryIn)
    def get(self, request: Request, pk: int) -> Response:
        return paginated(request, self, selectors.ladder_history(pk), selectors.ladder_event_payload, LadderEventOut)


class LadderJoinApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, summary="Join a ladder at the bottom", responses={
        201: LadderEntryOut, **errors("ladder_not_found", "already_joined", auth=True)})
    def post(self, request: Request, pk: int) -> Response:
        entry = ladders.ladder_join(ladder_id=pk, user=request.user)
        return Response(LadderEntryOut({"ladder": pk, "rank": entry.rank}).data, status=status.HTTP_201_CREATED)


class LadderChallengeApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "challenge"}

    @extend_schema(request=LadderChallengeIn, summary="Challenge a player above you", responses={
        201: ChallengeOut, **errors("ladder_not_found", "not_on_ladder", "unknown_player", "out_of_reach",
                                    "ladder_game_pending", "too_many_challenges", body=True, auth=True)})
    def post(self, request: Request, pk: int) -> Response:
        data = valid(LadderChallengeIn, request)
        challenge = ladders.ladder_challenge(ladder_id=pk, user=request.user, opponent=data["opponent"])
        payload = challenge_selectors.challenge_payload(challenge_selectors.get_challenge(challenge.pk))
        return Response(ChallengeOut(payload).data, status=status.HTTP_201_CREATED)
