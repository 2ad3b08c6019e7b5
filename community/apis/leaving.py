"""Leaving: download your data; delete your account."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api
from matches.apis.schema import errors, valid

from ..selectors.export import account_export
from ..services import leaving


class DeleteIn(serializers.Serializer):
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class AccountExportApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **errors(auth=True)},
                   summary="Everything Pearlsite holds about you, as one JSON document")
    def get(self, request: Request) -> Response:
        response = Response(account_export(request.user))
        response["Content-Disposition"] = 'attachment; filename="pearlsite-account.json"'
        return response


class AccountDeleteApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "login"}      # a password guess, like a login

    @extend_schema(request=DeleteIn, responses={204: None, **errors("wrong_password", body=True, auth=True)},
                   summary="Delete your account (your password confirms it)")
    def post(self, request: Request) -> Response:
        leaving.account_delete(user=request.user, password=valid(DeleteIn, request)["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)
