"""Staff tools (docs/operations.md §Staff tools): find an account and its matches, revoke its API
tokens, call off or decide a stuck match, list engine jobs and run a failed one again. Staff
accounts only (`is_staff`); everyone else gets 403 (401 without credentials) and nothing changes.
Every action is a service call, logged with the staff member's id in the request line."""
from __future__ import annotations

import logging

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import EngineJob, Match
from matches.selectors import matches as match_selectors
from matches.selectors import staff as selectors
from matches.services import accounts, jobs, results

from .matches import MatchSummaryOut
from .query import Api, PageQueryIn, query_params
from .schema import errors, page_of, paginated, rendered, valid

log = logging.getLogger(__name__)


class StaffApi(Api):
    permission_classes = [permissions.IsAdminUser]


class StaffUserOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    is_active = serializers.BooleanField()
    is_staff = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    tokens = serializers.IntegerField(allow_null=True, help_text="API tokens the account holds")


class UserSearchQueryIn(PageQueryIn):
    q = serializers.CharField(required=False, default="", max_length=150,
                              help_text="part of a username or e-mail address (none: every account)")


class StaffUserListApi(StaffApi):
    @extend_schema(responses={200: page_of(StaffUserOut), **errors("invalid_filter", "page_not_found", "forbidden",
                                                                    auth=True)},
                   summary="Staff: find accounts by part of their username or e-mail")
    @query_params(UserSearchQueryIn)
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.users_find(request.query["q"]), selectors.user_payload,
                         StaffUserOut)


class UserMatchesQueryIn(PageQueryIn):
    status = serializers.ChoiceField(choices=Match.Status.values, required=False)


class StaffUserMatchesApi(StaffApi):
    @extend_schema(responses={200: page_of(MatchSummaryOut), **errors(
        "user_not_found", "invalid_filter", "page_not_found", "forbidden", auth=True)},
        summary="Staff: an account's matches, newest first")
    @query_params(UserMatchesQueryIn)
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_named(username)
        return paginated(request, self, selectors.matches_of(user, request.query.get("status")),
                         lambda m: match_selectors.match_summary(m, request.user), MatchSummaryOut)


class RevokedOut(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="tokens revoked")


class StaffTokensRevokeApi(StaffApi):
    @extend_schema(request=None, responses={200: RevokedOut, **errors("user_not_found", "forbidden", auth=True)},
                   summary="Staff: revoke every API token of an account")
    def post(self, request: Request, username: str) -> Response:
        revoked = accounts.tokens_revoke_all(username=username)
        log.info("staff %s revoked %s tokens of %s", request.user.pk, revoked, username)
        return Response(RevokedOut({"revoked": revoked}).data)


class StaffMatchAbortApi(StaffApi):
    @extend_schema(request=None, responses={200: MatchSummaryOut, **errors(
        "match_not_found", "match_finished", "abort_unavailable", "forbidden", auth=True)},
        summary="Staff: call off a match (no result, unrated)")
    def post(self, request: Request, pk: int) -> Response:
        match = results.match_abort_by_staff(match_id=pk)
        log.info("staff %s aborted match %s", request.user.pk, pk)
        return Response(rendered(MatchSummaryOut, match_selectors.match_summary(match, request.user)))


class AdjudicateIn(serializers.Serializer):
    winner = serializers.IntegerField(allow_null=True, min_value=0,
                                      help_text="the winning seat; null for a draw")


class StaffMatchAdjudicateApi(StaffApi):
    @extend_schema(request=AdjudicateIn, responses={200: MatchSummaryOut, **errors(
        "match_not_found", "match_finished", "invalid_seat_choice", "forbidden", body=True, auth=True)},
        summary="Staff: decide a match (a seat wins, or a draw); it counts as a result")
    def post(self, request: Request, pk: int) -> Response:
        winner = valid(AdjudicateIn, request)["winner"]
        match = results.match_adjudicate(match_id=pk, winner=winner)
        log.info("staff %s adjudicated match %s: winner %s", request.user.pk, pk, winner)
        return Response(rendered(MatchSummaryOut, match_selectors.match_summary(match, request.user)))


class EngineJobOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=EngineJob.Kind.values)
    lane = serializers.ChoiceField(choices=EngineJob.Lane.values)
    status = serializers.ChoiceField(choices=EngineJob.Status.values)
    match = serializers.IntegerField(allow_null=True, help_text="empty for a position's lines")
    analysis = serializers.IntegerField(allow_null=True)
    position = serializers.IntegerField(allow_null=True, help_text="the analysis board's position, if any")
    ply = serializers.IntegerField()
    level = serializers.CharField()
    user = serializers.IntegerField(allow_null=True, help_text="whose request caused it")
    attempts = serializers.IntegerField()
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class EngineJobQueryIn(PageQueryIn):
    status = serializers.ChoiceField(choices=EngineJob.Status.values, required=False)
    match = serializers.IntegerField(required=False, min_value=1)


class StaffEngineJobListApi(StaffApi):
    @extend_schema(responses={200: page_of(EngineJobOut), **errors("invalid_filter", "page_not_found", "forbidden",
                                                                    auth=True)},
                   summary="Staff: engine jobs, newest first (?status=failed: the ones to look at)")
    @query_params(EngineJobQueryIn)
    def get(self, request: Request) -> Response:
        qs = selectors.engine_jobs_query(request.query.get("status"), request.query.get("match"))
        return paginated(request, self, qs, selectors.engine_job_payload, EngineJobOut)


class StaffEngineJobRetryApi(StaffApi):
    @extend_schema(request=None, responses={200: EngineJobOut, **errors(
        "engine_job_not_found", "job_not_retryable", "forbidden", auth=True)},
        summary="Staff: run a failed engine job again (from its first attempt)")
    def post(self, request: Request, pk: int) -> Response:
        job = jobs.job_retry(job_id=pk)
        log.info("staff %s queued engine job %s again", request.user.pk, pk)
        return Response(rendered(EngineJobOut, selectors.engine_job_payload(job)))
