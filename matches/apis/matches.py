"""Matches: list, detail, moves, offers and endings, export and board pictures."""
from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

import games
from matches.converters import MAX_ID
from matches.models import Match
from matches.selectors import capabilities
from matches.selectors import matches as selectors
from matches.services import offers, play, results

from .caching import ETAG_PARAMETERS, ETAG_RESPONSES, conditional, match_version, viewer_key, weak_etag
from .query import Api, PageQueryIn, query_params
from .schema import TimeControlSchema, errors, page_of, paginated, rendered, valid


class MoveIn(serializers.Serializer):
    move = serializers.CharField(max_length=2000, trim_whitespace=False, help_text="move notation")
    ply = serializers.IntegerField(required=False, min_value=0, max_value=MAX_ID,
                                   help_text=(
        "the ply the match is at (409 stale_ply if it moved on). Resending your last move with the "
        "ply and notation it was recorded with answers 201 with that move again, so a move whose "
        "answer was lost can be retried safely"))


class OfferIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=offers.OFFER_ACTIONS, required=False, default="offer", help_text=(
        "offer (accepts a pending offer of another seat), accept, decline, or withdraw your own offer"))


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(help_text='a username or "ai:<level>"')


class ResultOut(serializers.Serializer):
    winners = serializers.ListField(child=serializers.IntegerField(), help_text="winning seats; empty for a draw")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="one score per seat")
    termination = serializers.ChoiceField(choices=[t.value for t in games.Termination])


class ClockOut(serializers.Serializer):
    seat = serializers.IntegerField()
    remaining = serializers.IntegerField(allow_null=True, help_text=(
        "seconds left on this seat's clock when the response was made (null for an engine seat)"))
    running = serializers.BooleanField(help_text="the clock is counting down (this seat is to move)")


class LastMoveOut(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField(help_text="notation (a secret part shown in its public form)")
    created_at = serializers.DateTimeField()


class PendingOfferOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["draw", "takeback"])
    seat = serializers.IntegerField(help_text="the seat that offered (or agreed)")
    ply = serializers.IntegerField(allow_null=True, help_text="the ply the match was at when it offered")


class MatchSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    variant = serializers.CharField(help_text='the closest named variant ("standard" for the defaults)')
    options = serializers.DictField(help_text="the match's options (secret ones left out)")
    status = serializers.ChoiceField(choices=Match.Status.values)
    seats = SeatOut(many=True)
    viewer_seat = serializers.IntegerField(allow_null=True, help_text="the caller's seat, if they play")
    ply = serializers.IntegerField(help_text="moves played so far")
    to_move = serializers.IntegerField(allow_null=True, help_text="the seat to move; null once over")
    rated = serializers.BooleanField()
    time_control = TimeControlSchema(allow_null=True, help_text="the clock; null: none")
    deadline = serializers.DateTimeField(allow_null=True, help_text=(
        "when the seat to move loses on time; null without a clock, on an engine's turn or while its "
        "player is on vacation"))
    clocks = ClockOut(many=True, allow_null=True, help_text="per seat; null for a match without a clock")
    last_move = LastMoveOut(allow_null=True, help_text="the latest move; null before the first")
    offers = PendingOfferOut(many=True, help_text="pending draw and takeback offers (the next move lets them lapse)")
    result = ResultOut(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class CapabilityOut(serializers.Serializer):
    allowed = serializers.BooleanField(help_text="the caller may do this now")
    code = serializers.ChoiceField(choices=capabilities.DENIAL_CODES, allow_null=True, help_text=(
        "null when allowed; else the error code the request would be answered with"))
    message = serializers.CharField(allow_null=True, help_text="why not, in words; null when allowed")


class _Capabilities(serializers.Serializer):
    def to_representation(self, instance):
        # Each capability is `Verdict.as_dict()` already: plain `allowed`, `code` and `message`,
        # which DRF's field-by-field rendering (fourteen nested serializers, half the cost of a
        # move's answer) would copy unchanged. The fields above still declare them (the schema).
        return {name: {"allowed": instance[name]["allowed"], "code": instance[name]["code"],
                       "message": instance[name]["message"]} for name in self.fields}


CapabilitiesOut = type("CapabilitiesOut", (_Capabilities,), {
    name: CapabilityOut(help_text=help_text) for name, help_text in capabilities.CAPABILITY_HELP.items()})


class MatchDetailOut(MatchSummaryOut):
    state = serializers.DictField(help_text="the position as the caller may see it (the game's view)")
    legal_moves = serializers.ListField(child=serializers.CharField(),
                                        help_text="the caller's legal moves, on their turn")
    legal_moves_complete = serializers.BooleanField(help_text=(
        "true: legal_moves lists every legal move; false (New Eleusis): it lists single plays and move "
        "kinds, and longer plays are written by the grammar"))
    grammar = serializers.CharField(help_text="where the move grammar is: the game's catalogue entry, member `notation`")
    finished_at = serializers.DateTimeField(allow_null=True)
    capabilities = CapabilitiesOut(help_text=(
        "what the caller may do now, each with the error code the request would be refused with: the "
        "same rules the endpoints apply (limits on how much one may have going at once aside)"))


class MoveOut(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField(help_text="notation (a secret part shown in its public form)")
    created_at = serializers.DateTimeField()


class LegalMoveOut(serializers.Serializer):
    move = serializers.CharField(help_text="notation, as POST matches/{id}/moves/ takes it")


class PlayedOut(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.CharField()
    match = MatchDetailOut()


MOVE_ERRORS = ("match_not_found", "not_seated", "match_finished", "stale_ply", "not_your_turn",
               "invalid_move", "illegal_move", "game_over", "time_out")
OFFER_ERRORS = ("match_not_found", "not_seated", "match_finished", "invalid_action", "no_offer", "no_opponent",
                "already_offered",
                "time_out")


class MatchListQueryIn(PageQueryIn):
    status = serializers.ChoiceField(choices=Match.Status.values, required=False)
    player = serializers.CharField(required=False, max_length=150, help_text='a username or "ai:<level>"')
    game = serializers.CharField(required=False, max_length=50, help_text="a game slug")
    my_turn = serializers.BooleanField(required=False, default=False, help_text=(
        "true: your inbox, the active matches where you are to move, soonest deadline first (sign in)"))
    active = serializers.BooleanField(required=False, default=False, help_text=(
        "true: every active match you play in, soonest deadline first (sign in)"))


class MatchListApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(MatchSummaryOut), **ETAG_RESPONSES,
                              **errors("invalid_filter", "page_not_found", auth=True)},
                   parameters=ETAG_PARAMETERS, summary="Matches, newest first, filterable; ?my_turn=true is your inbox")
    @query_params(MatchListQueryIn)
    def get(self, request: Request) -> Response:
        query = request.query
        inbox = query["my_turn"] or query["active"]
        if inbox and not request.user.is_authenticated:
            raise NotAuthenticated("my_turn and active list your own matches: sign in")
        qs = selectors.matches_query(status=query.get("status"), player=query.get("player"), game=query.get("game"),
                                     viewer=request.user if inbox else None,
                                     my_turn=query["my_turn"], active=query["active"])
        return paginated(request, self, qs, lambda m: selectors.match_summary(m, request.user), MatchSummaryOut,
                         etag=lambda page, count: weak_etag("matches", request.get_full_path(), viewer_key(request),
                                                            count, [match_version(m) for m in page]))


class MatchDetailQueryIn(serializers.Serializer):
    legal = serializers.ChoiceField(choices=["all", "none"], default="all", help_text=(
        "all (default): the caller's legal moves on their turn; none: leave them out (long lists can be "
        "read a page at a time from matches/{id}/legal/)"))


class MatchDetailApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: MatchDetailOut, **ETAG_RESPONSES, **errors("match_not_found", "invalid_filter")},
                   parameters=ETAG_PARAMETERS, summary="A match as the caller may see it")
    @query_params(MatchDetailQueryIn)
    def get(self, request: Request, pk: int) -> Response:
        legal = request.query["legal"] == "all"
        match = selectors.get_match(pk)
        etag = weak_etag("match", match_version(match), viewer_key(request), legal)
        return conditional(request, etag, lambda: Response(
            rendered(MatchDetailOut, selectors.match_detail(match, request.user, legal=legal))))


class MatchLegalMovesApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: page_of(LegalMoveOut),
                              **errors("match_not_found", "invalid_filter", "page_not_found")},
                   summary="The caller's legal moves, a page at a time (empty unless it is their turn)")
    @query_params(PageQueryIn)
    def get(self, request: Request, pk: int) -> Response:
        match = selectors.get_match(pk)
        moves = selectors.legal_moves_for(match, selectors.viewer_seat(match, request.user))
        return paginated(request, self, moves, lambda m: {"move": m}, LegalMoveOut)


class MoveQueryIn(serializers.Serializer):
    legal = serializers.ChoiceField(choices=["all", "none"], default="none", help_text=(
        "none (default): the answer's match leaves out legal_moves (it is the opponent's turn, unless a "
        "prepared reply brought it back); all: include the caller's legal moves"))


class MatchMovesApi(Api):
    throttle_scopes = {"POST": "moves"}

    @extend_schema(responses={200: MoveOut(many=True), **errors("match_not_found")}, summary="The move history")
    def get(self, request: Request, pk: int) -> Response:
        return Response(rendered(MoveOut, selectors.match_moves(selectors.get_match(pk)), many=True))

    @extend_schema(request=MoveIn, summary="Play a move",
                   responses={201: PlayedOut, **errors(*MOVE_ERRORS, "invalid_filter", body=True, auth=True)})
    @query_params(MoveQueryIn)
    def post(self, request: Request, pk: int) -> Response:
        data = valid(MoveIn, request)
        played = play.move_submit(match_id=pk, user=request.user, move=data["move"], ply=data.get("ply"))
        rules = games.get_game(played.match.game)
        shown = selectors.public_move_text(rules, played.record.notation, played.state)
        detail = selectors.match_detail(played.match, request.user, played.seats, played.state,
                                        legal=request.query["legal"] == "all")
        return Response(rendered(PlayedOut, {"ply": played.record.ply, "seat": played.record.seat, "move": shown,
                                             "match": detail}), status=status.HTTP_201_CREATED)


def _match_action(service, summary: str, body=None, codes=()):
    class _Api(Api):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(request=body, summary=summary, responses={
            200: MatchDetailOut, **errors("match_not_found", "not_seated", "match_finished", *codes,
                                          body=body is not None, auth=True)})
        def post(self, request: Request, pk: int) -> Response:
            extra = valid(body, request) if body else {}
            service(match_id=pk, user=request.user, **extra)
            return Response(rendered(MatchDetailOut, selectors.match_detail(selectors.get_match(pk), request.user)))

    _Api.__name__ = f"{service.__name__.title().replace('_', '')}Api"
    return _Api


MatchResignApi = _match_action(results.match_resign, "Resign", codes=("time_out",))
MatchAbortApi = _match_action(results.match_abort, "Abort before every seat has moved",
                              codes=("too_late_to_abort", "abort_unavailable"))
MatchDrawApi = _match_action(offers.match_draw, "Offer, accept, decline or withdraw a draw", OfferIn,
                             OFFER_ERRORS + ("draw_unavailable",))
MatchTakebackApi = _match_action(offers.match_takeback,
                                 "Offer, accept, decline or withdraw taking back your last move",
                                 OfferIn, OFFER_ERRORS + ("takeback_unavailable", "takeback_against_engine",
                                                          "nothing_to_take_back"))


class MatchExportApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, **errors("match_not_found")},
                   summary="Text record (tags + moves)")
    def get(self, request: Request, pk: int) -> HttpResponse:
        return HttpResponse(selectors.match_export(selectors.get_match(pk)), content_type="text/plain; charset=utf-8")


class BoardQueryIn(serializers.Serializer):
    # "as" is a Python keyword, so the field is declared through the class dict.
    locals()["as"] = serializers.ChoiceField(choices=["svg", "text"], default="svg", help_text="default svg")


class MatchBoardApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "image/svg+xml"): OpenApiResponse(OpenApiTypes.STR, description="SVG (default)"),
                              (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="text, with ?as=text"),
                              **errors("match_not_found", "invalid_filter")},
                   summary="A picture of the position as the caller may see it")
    @query_params(BoardQueryIn)
    def get(self, request: Request, pk: int) -> HttpResponse:
        form = request.query["as"]
        match = selectors.get_match(pk)
        seat = selectors.viewer_seat(match, request.user)
        state = selectors.match_state(match)
        if form == "text":
            text = state.render_text(seat)
            return HttpResponse(text if text.endswith("\n") else text + "\n", content_type="text/plain; charset=utf-8")
        return HttpResponse(state.render_svg(seat), content_type="image/svg+xml")
