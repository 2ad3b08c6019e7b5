"""The caller's own account: `accounts/me/`."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.models import Profile
from matches.selectors import profiles as selectors
from matches.services import profiles

from .query import Api
from .schema import errors, valid


class ProfileFields(serializers.Serializer):
    display_name = serializers.CharField(max_length=50, allow_blank=True, help_text="shown beside your username")
    bio = serializers.CharField(max_length=1000, allow_blank=True, trim_whitespace=False)


class SettingsFields(serializers.Serializer):
    notification_digest = serializers.ChoiceField(
        choices=Profile.Digest.values, help_text="a summary of your events by mail: none, daily or weekly")


class AccountOut(serializers.Serializer):
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    profile = ProfileFields()
    settings = SettingsFields()


class ProfilePatchIn(ProfileFields):
    display_name = serializers.CharField(max_length=50, allow_blank=True, required=False)
    bio = serializers.CharField(max_length=1000, allow_blank=True, trim_whitespace=False, required=False)


class SettingsPatchIn(SettingsFields):
    notification_digest = serializers.ChoiceField(choices=Profile.Digest.values, required=False)


class AccountPatchIn(serializers.Serializer):
    profile = ProfilePatchIn(required=False)
    settings = SettingsPatchIn(required=False)


class AccountMeApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: AccountOut, **errors(auth=True)}, summary="Your account, profile and settings")
    def get(self, request: Request) -> Response:
        return Response(AccountOut(selectors.account_payload(request.user)).data)

    @extend_schema(request=AccountPatchIn, responses={200: AccountOut, **errors(body=True, auth=True)},
                   summary="Change your profile or settings (the fields you send)")
    def patch(self, request: Request) -> Response:
        data = valid(AccountPatchIn, request)
        profiles.profile_update(user=request.user, profile=data.get("profile"), settings=data.get("settings"))
        return Response(AccountOut(selectors.account_payload(request.user)).data)
