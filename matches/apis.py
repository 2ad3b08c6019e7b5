"""REST endpoints (design §3), one view per operation: validate input, call a service or a
selector, shape the output. Every state a client sees comes from `state.view(viewer)`."""
from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.db.models import Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import games
from ai_workers.engines import LEVELS

from . import ladders, selectors, services
from .errors import BadRequest, Forbidden, NotFound
from .models import Analysis, Challenge, ChallengeSeat, Event, Ladder, Match, Rating
from .ratings import PROVISIONAL_DEVIATION
from .serializers import (AnalysisIn, ChallengeIn, LadderChallengeIn, LadderIn, MoveIn, OfferIn,
                          RegisterIn, TokenIn)

User = get_user_model()
OBJ = OpenApiTypes.OBJECT


def _valid(serializer_cls, request: Request) -> dict:
    serializer = serializer_cls(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _paginated(request: Request, view: APIView, items, render) -> Response:
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response([render(x) for x in page])


def _match(match_id: int) -> Match:
    match = Match.objects.prefetch_related("seats__user").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id}", code="match_not_found")
    return match


# --- accounts -------------------------------------------------------------------------------
class AccountCreateApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=RegisterIn, responses={201: OBJ}, summary="Register an account")
    def post(self, request: Request) -> Response:
        data = _valid(RegisterIn, request)
        user, token = services.account_register(username=data["username"], password=data["password"])
        return Response({"username": user.username, "token": token}, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=TokenIn, responses={200: OBJ}, summary="Get your API token")
    def post(self, request: Request) -> Response:
        data = _valid(TokenIn, request)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None:
            raise BadRequest("wrong username or password", code="invalid_credentials")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


# --- catalogue ------------------------------------------------------------------------------
def _game_entry(rules: games.Game) -> dict:
    return {**rules.describe(), "ai_levels": list(LEVELS)}


class GameListApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="The game catalogue", operation_id="games_list")
    def get(self, request: Request) -> Response:
        return Response([_game_entry(g) for _, g in sorted(games.GAMES.items())])


class GameDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="One game: seats, options, variants, rules summary")
    def get(self, request: Request, slug: str) -> Response:
        rules = games.GAMES.get(slug)
        if rules is None:
            raise NotFound(f"no game {slug!r}", code="game_not_found")
        return Response(_game_entry(rules))


# --- challenges -----------------------------------------------------------------------------
class ChallengeListCreateApi(APIView):
    @extend_schema(parameters=[OpenApiParameter("open", bool, description="only open seats anyone may take")],
                   responses={200: OBJ}, summary="Your challenges (sent and received), or open ones",
                   operation_id="challenges_list")
    def get(self, request: Request) -> Response:
        qs = Challenge.objects.select_related("created_by").prefetch_related(
            Prefetch("seats", queryset=ChallengeSeat.objects.select_related("user")))
        if request.query_params.get("open") in ("1", "true"):
            qs = qs.filter(status=Challenge.Status.OPEN, seats__user__isnull=True, seats__ai_level="")
        elif request.user.is_authenticated:
            qs = qs.filter(Q(created_by=request.user) | Q(seats__user=request.user))
        else:
            qs = qs.none()
        return _paginated(request, self, qs.distinct().order_by("-id"), selectors.challenge_payload)

    @extend_schema(request=ChallengeIn, responses={201: OBJ}, summary="Challenge people, open a seat, or play an engine")
    def post(self, request: Request) -> Response:
        data = _valid(ChallengeIn, request)
        challenge = services.challenge_create(
            creator=request.user, game=data["game"], options=data["options"],
            variant=data.get("variant") or None, opponents=data["opponents"], rated=data["rated"],
            days_per_move=data.get("days_per_move"), seat=data["seat"])
        return Response(selectors.challenge_payload(challenge), status=status.HTTP_201_CREATED)


class ChallengeDetailApi(APIView):
    @extend_schema(responses={200: OBJ}, summary="One challenge")
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.challenge_payload(get_object_or_404(Challenge, pk=pk)))


def _challenge_action(service):
    class _Api(APIView):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(request=None, responses={200: OBJ}, summary=service.__doc__ or service.__name__)
        def post(self, request: Request, pk: int) -> Response:
            challenge = service(challenge_id=pk, user=request.user)
            return Response(selectors.challenge_payload(Challenge.objects.get(pk=challenge.pk)))

    _Api.__name__ = f"{service.__name__.title().replace('_', '')}Api"
    return _Api


ChallengeAcceptApi = _challenge_action(services.challenge_accept)
ChallengeDeclineApi = _challenge_action(services.challenge_decline)
ChallengeCancelApi = _challenge_action(services.challenge_cancel)


# --- matches --------------------------------------------------------------------------------
class MatchListApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[
        OpenApiParameter("status", str, enum=[s.value for s in Match.Status]),
        OpenApiParameter("player", str, description='a username or "ai:<level>"'),
        OpenApiParameter("game", str)], responses={200: OBJ}, summary="Matches, filterable",
        operation_id="matches_list")
    def get(self, request: Request) -> Response:
        params = request.query_params
        status_filter = params.get("status")
        if status_filter and status_filter not in Match.Status.values:
            raise BadRequest(f"status must be one of {Match.Status.values}", code="invalid_filter")
        qs = selectors.matches_query(status=status_filter, player=params.get("player"),
                                     game=params.get("game"))
        return _paginated(request, self, qs, selectors.match_summary)


class MatchDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="A match as the caller may see it")
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.match_detail(_match(pk), request.user))


class MatchMovesApi(APIView):
    @extend_schema(responses={200: OBJ}, summary="The move history")
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.match_moves(_match(pk)))

    @extend_schema(request=MoveIn, responses={201: OBJ}, summary="Play a move")
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(MoveIn, request)
        played = services.move_submit(match_id=pk, user=request.user, move=data["move"],
                                      ply=data.get("ply"))
        rules = games.get_game(played.match.game)
        shown = selectors.public_move_text(rules, played.record.notation, played.state)
        detail = selectors.match_detail(played.match, request.user, played.seats, played.state)
        return Response({"ply": played.record.ply, "seat": played.record.seat, "move": shown, "match": detail},
                        status=status.HTTP_201_CREATED)


def _match_action(service, body=None, summary=""):
    class _Api(APIView):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(request=body, responses={200: OBJ}, summary=summary)
        def post(self, request: Request, pk: int) -> Response:
            extra = _valid(body, request) if body else {}
            service(match_id=pk, user=request.user, **extra)
            return Response(selectors.match_detail(_match(pk), request.user))

    _Api.__name__ = f"{service.__name__.title().replace('_', '')}Api"
    return _Api


MatchResignApi = _match_action(services.match_resign, summary="Resign")
MatchAbortApi = _match_action(services.match_abort, summary="Abort before every seat has moved")
MatchDrawApi = _match_action(services.match_draw, OfferIn, "Offer, accept or decline a draw")
MatchTakebackApi = _match_action(services.match_takeback, OfferIn,
                                 "Offer, accept or decline taking back your last move")


class MatchExportApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR}, summary="Text record (tags + moves)")
    def get(self, request: Request, pk: int) -> HttpResponse:
        return HttpResponse(selectors.match_export(_match(pk)), content_type="text/plain; charset=utf-8")


class MatchBoardApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("as", str, enum=["svg", "text"])],
                   responses={(200, "image/svg+xml"): OpenApiTypes.STR}, summary="A picture of the position")
    def get(self, request: Request, pk: int) -> HttpResponse:
        match = _match(pk)
        seat = selectors.viewer_seat(match, request.user)
        state = selectors.match_state(match)
        if request.query_params.get("as") == "text":
            text = state.render_text(seat)
            return HttpResponse(text if text.endswith("\n") else text + "\n", content_type="text/plain; charset=utf-8")
        return HttpResponse(state.render_svg(seat), content_type="image/svg+xml")


class MatchAnalysisApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=AnalysisIn, responses={202: OBJ}, summary="Ask an engine to analyse a finished match")
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(AnalysisIn, request)
        analysis = services.analysis_request(match_id=pk, user=request.user, level=data["level"])
        return Response(_analysis_payload(analysis), status=status.HTTP_202_ACCEPTED)


def _analysis_payload(analysis: Analysis) -> dict:
    return {"id": analysis.pk, "match": analysis.match_id, "level": analysis.level,
            "status": analysis.status, "upto_ply": analysis.upto_ply, "seat": analysis.seat,
            "results": analysis.results,
            "error": analysis.error or None, "created_at": analysis.created_at,
            "finished_at": analysis.finished_at}


class AnalysisDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="An analysis job and its per-ply results")
    def get(self, request: Request, pk: int) -> Response:
        analysis = get_object_or_404(Analysis, pk=pk)
        if analysis.seat is not None and analysis.requested_by_id != request.user.pk:
            raise Forbidden("this analysis shows one player's own cards; only they may read it",
                            code="not_yours")
        return Response(_analysis_payload(analysis))


# --- players, ladders, events ---------------------------------------------------------------
class PlayerDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="A player's profile and ratings")
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise NotFound(f"no player {username!r}", code="player_not_found")
        rows = Rating.objects.filter(user=user).order_by("game")
        return Response({
            "username": user.username, "joined": user.date_joined,
            "ratings": [{"game": r.game, "rating": round(r.rating, 1), "deviation": round(r.deviation, 1),
                         "provisional": r.deviation > PROVISIONAL_DEVIATION, "games": r.games}
                        for r in rows],
            "matches": {s: Match.objects.filter(seats__user=user, status=s).count()
                        for s in Match.Status.values},
        })


def _ladder_payload(ladder: Ladder, standings: bool = False) -> dict:
    out = {"id": ladder.pk, "name": ladder.name, "game": ladder.game, "variant": ladder.variant or None,
           "options": ladder.options, "challenge_reach": ladder.challenge_reach,
           "days_per_move": ladder.days_per_move, "players": ladder.entries.count()}
    if standings:
        out["standings"] = [{"rank": e.rank, "player": e.user.username, "wins": e.wins,
                             "losses": e.losses} for e in ladder.entries.select_related("user")]
    return out


class LadderListApi(APIView):
    @extend_schema(responses={200: OBJ}, summary="Ladders", operation_id="ladders_list")
    def get(self, request: Request) -> Response:
        return _paginated(request, self, Ladder.objects.order_by("name"), _ladder_payload)

    @extend_schema(request=LadderIn, responses={201: OBJ}, summary="Create a ladder (staff)")
    def post(self, request: Request) -> Response:
        if not request.user.is_staff:
            raise Forbidden("only staff create ladders", code="staff_only")
        data = _valid(LadderIn, request)
        ladder = ladders.ladder_create(**data)
        return Response(_ladder_payload(ladder, standings=True), status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OBJ}, summary="A ladder with its standings")
    def get(self, request: Request, pk: int) -> Response:
        return Response(_ladder_payload(get_object_or_404(Ladder, pk=pk), standings=True))


class LadderJoinApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: OBJ}, summary="Join a ladder at the bottom")
    def post(self, request: Request, pk: int) -> Response:
        entry = ladders.ladder_join(ladder_id=pk, user=request.user)
        return Response({"ladder": pk, "rank": entry.rank}, status=status.HTTP_201_CREATED)


class LadderChallengeApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=LadderChallengeIn, responses={201: OBJ}, summary="Challenge a player above you")
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(LadderChallengeIn, request)
        challenge = ladders.ladder_challenge(ladder_id=pk, user=request.user, opponent=data["opponent"])
        return Response(selectors.challenge_payload(challenge), status=status.HTTP_201_CREATED)


class EventListApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("after", int, description="only events with a larger id")],
                   responses={200: OBJ}, summary="Your event stream, newest first")
    def get(self, request: Request) -> Response:
        qs = Event.objects.filter(user=request.user)
        after = request.query_params.get("after")
        if after is not None:
            if not after.isdigit():
                raise BadRequest("after must be an event id", code="invalid_filter")
            qs = qs.filter(pk__gt=int(after))
        return _paginated(request, self, qs.order_by("-id"), lambda e: {
            "id": e.pk, "kind": e.kind, "payload": e.payload, "created_at": e.created_at})
