"""Challenges: create, list, read, accept, decline, cancel."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import Challenge
from matches.selectors import challenges as selectors
from matches.services import challenges

from .query import Api, PageQueryIn, query_params
from .schema import (GameSlugField, OpponentField, TimeControlSchema, VariantOrBlankField, errors, page_of, paginated,
                     valid)


class ChallengeIn(serializers.Serializer):
    game = GameSlugField(max_length=40)
    variant = VariantOrBlankField(max_length=40, required=False, allow_blank=True, allow_null=True,
                           help_text="a named variant (or an alias) of the game; its settings apply first")
    options = serializers.DictField(required=False, default=dict)
    opponents = serializers.ListField(
        child=OpponentField(allow_null=True, max_length=150), required=False, default=list,
        max_length=7, help_text='one entry per other seat: a username, "ai:<level>", or null (open seat)')
    rated = serializers.BooleanField(required=False, default=False)
    time_control = TimeControlSchema(required=False, allow_null=True, help_text=(
        '{"kind": "per_move", "days": d} or {"kind": "fischer", "initial_days": a, "increment_days": b, '
        '"max_days": c}; none: no clock (rated matches need one)'))
    days_per_move = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=60,
                                             help_text='shorthand for {"kind": "per_move", "days": days_per_move}')
    seat = serializers.IntegerField(required=False, default=0, min_value=0, max_value=7,
                                    help_text="the challenger's seat (0 moves first in most games)")


class ChallengeSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text='a username, "ai:<level>", or null (open)')
    accepted = serializers.BooleanField()


class ChallengeOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    variant = serializers.CharField(help_text='the closest named variant ("standard" for the defaults)')
    options = serializers.DictField()
    rated = serializers.BooleanField()
    time_control = TimeControlSchema(allow_null=True)
    days_per_move = serializers.IntegerField(allow_null=True, help_text="the days of a per_move clock, else null")
    status = serializers.ChoiceField(choices=Challenge.Status.values)
    created_by = serializers.CharField()
    created_by_rating = serializers.FloatField(allow_null=True, help_text=(
        "the challenger's rating in this game (1500 without one), in lists"))
    seats = ChallengeSeatOut(many=True)
    match = serializers.IntegerField(allow_null=True, help_text="the match id once every seat accepted")
    ladder = serializers.IntegerField(allow_null=True)
    rematch_of = serializers.IntegerField(allow_null=True, help_text="the match this one asks to play again")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="an open challenge expires then")
    created_at = serializers.DateTimeField()


CREATE_ERRORS = ("unknown_game", "invalid_options", "invalid_opponent", "unknown_player", "unknown_level",
                 "invalid_seat", "rated_needs_people", "rated_needs_clock", "invalid_time_control", "game_error",
                 "too_many_challenges", "too_many_engine_matches")


class ChallengeListQueryIn(PageQueryIn):
    open = serializers.BooleanField(required=False, default=False, help_text=(
        "true: open seats anyone may take (seeks), for anyone to read"))
    direction = serializers.ChoiceField(choices=["in", "out"], required=False, help_text=(
        "in: challenges to you; out: challenges from you (sign in)"))
    game = serializers.CharField(required=False, max_length=50, help_text="a game slug")
    rating_min = serializers.FloatField(required=False, min_value=0, max_value=10000,
                                        help_text="the challenger's rating in the game at least this")
    rating_max = serializers.FloatField(required=False, min_value=0, max_value=10000,
                                        help_text="the challenger's rating in the game at most this")


class ChallengeListCreateApi(Api):
    throttle_scopes = {"POST": "challenge"}

    @extend_schema(responses={200: page_of(ChallengeOut), **errors("invalid_filter", "page_not_found", auth=True)},
                   summary="Your challenges (sent and received, or ?direction=), or open ones (seeks)")
    @query_params(ChallengeListQueryIn)
    def get(self, request: Request) -> Response:
        query = request.query
        if query.get("direction") and not request.user.is_authenticated:
            raise NotAuthenticated("direction lists your own challenges: sign in")
        qs = selectors.challenges_for(request.user, open_only=query["open"], direction=query.get("direction"),
                                      game=query.get("game"), rating_min=query.get("rating_min"),
                                      rating_max=query.get("rating_max"))
        return paginated(request, self, qs, selectors.challenge_payload, ChallengeOut)

    @extend_schema(request=ChallengeIn, summary="Challenge people, open a seat, or play an engine",
                   responses={201: ChallengeOut, **errors(*CREATE_ERRORS, body=True, auth=True)})
    def post(self, request: Request) -> Response:
        data = valid(ChallengeIn, request)
        challenge = challenges.challenge_create(
            creator=request.user, game=data["game"], options=data["options"],
            variant=data.get("variant") or None, opponents=data["opponents"], rated=data["rated"],
            time_control=data.get("time_control"), days_per_move=data.get("days_per_move"), seat=data["seat"])
        payload = selectors.challenge_payload(selectors.get_challenge(challenge.pk))
        return Response(ChallengeOut(payload).data, status=status.HTTP_201_CREATED)


class ChallengeDetailApi(Api):
    @extend_schema(responses={200: ChallengeOut, **errors("challenge_not_found")},
                   summary="One challenge (its players', or anyone's while it has an open seat)")
    def get(self, request: Request, pk: int) -> Response:
        return Response(ChallengeOut(selectors.challenge_payload(selectors.visible_challenge(pk, request.user))).data)


def _challenge_action(service, summary: str, *codes: str):
    class _Api(Api):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(request=None, summary=summary, responses={
            200: ChallengeOut, **errors("challenge_not_found", "challenge_closed", *codes, auth=True)})
        def post(self, request: Request, pk: int) -> Response:
            service(challenge_id=pk, user=request.user)
            return Response(ChallengeOut(selectors.challenge_payload(selectors.get_challenge(pk))).data)

    _Api.__name__ = f"{service.__name__.title().replace('_', '')}Api"
    return _Api


ChallengeAcceptApi = _challenge_action(challenges.challenge_accept, "Accept your seat, or take an open one",
                                       "already_accepted", "not_invited", "too_many_engine_matches")
ChallengeDeclineApi = _challenge_action(challenges.challenge_decline, "Decline a challenge", "not_invited")
ChallengeCancelApi = _challenge_action(challenges.challenge_cancel, "Withdraw your challenge", "not_challenger")


class MatchRematchApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, summary="Ask for a rematch: the same game with the seats turned", responses={
        201: ChallengeOut, 200: OpenApiResponse(ChallengeOut, description="another player had asked already: "
                                                "this accepted their challenge"),
        **errors("match_not_found", "not_seated", "match_in_progress", "rematch_pending", "challenge_closed",
                 *CREATE_ERRORS, auth=True)})
    def post(self, request: Request, pk: int) -> Response:
        challenge = challenges.challenge_rematch(match_id=pk, user=request.user)
        created = challenge.created_by_id == request.user.pk
        return Response(ChallengeOut(selectors.challenge_payload(selectors.get_challenge(challenge.pk))).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
