"""The caller's own e-mail address and notification preferences: `accounts/me/email/`,
`accounts/me/notifications/`, and verifying an address (`accounts/email/verify/`)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api
from matches.apis.schema import errors, valid
from matches.models import Profile
from notifications.models import CHANNELS, KINDS
from notifications.selectors import account as selectors
from notifications.services import addresses, preferences


class EmailOut(serializers.Serializer):
    email = serializers.EmailField(allow_null=True, help_text="seen by you only")
    verified = serializers.BooleanField()
    verified_at = serializers.DateTimeField(allow_null=True)


class EmailIn(serializers.Serializer):
    email = serializers.EmailField(max_length=254, help_text="a link to verify it is mailed there")


class VerifyIn(serializers.Serializer):
    token = serializers.CharField(max_length=500, help_text="the token of the link in the verification mail")


_channels = serializers.ListField(child=serializers.ChoiceField(choices=CHANNELS), max_length=len(CHANNELS))


class PreferencesOut(serializers.Serializer):
    channels = serializers.DictField(child=_channels, help_text="per kind, the channels that carry it ([]: off)")
    time_zone = serializers.CharField(help_text="IANA name; every time in a mail is in this zone")
    digest = serializers.ChoiceField(choices=Profile.Digest.values, help_text="none, daily or weekly")
    digest_hour = serializers.IntegerField(help_text="the local hour the digest is sent at (0-23)")
    digest_weekday = serializers.IntegerField(help_text="weekly digests: 0 Monday .. 6 Sunday")
    language = serializers.CharField(allow_blank=True, help_text='the pages\' language: "en", "ja", or "" (the browser\'s)')
    kinds = serializers.ListField(child=serializers.CharField())
    channel_names = serializers.ListField(child=serializers.CharField())


class PreferencesIn(serializers.Serializer):
    channels = serializers.DictField(child=serializers.ListField(child=serializers.ChoiceField(choices=CHANNELS),
                                                                max_length=len(CHANNELS)),
                                     required=False, help_text=f"kinds: {', '.join(KINDS)}")
    time_zone = serializers.CharField(required=False, max_length=64, help_text="IANA name; every time in a mail is in this zone")
    digest = serializers.ChoiceField(choices=Profile.Digest.values, required=False)
    digest_hour = serializers.IntegerField(required=False, min_value=0, max_value=23)
    digest_weekday = serializers.IntegerField(required=False, min_value=0, max_value=6)
    language = serializers.CharField(required=False, allow_blank=True, max_length=8,
                                     help_text='"en", "ja", or "" to follow the browser')


class EmailApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: EmailOut, **errors(auth=True)}, summary="Your e-mail address")
    def get(self, request: Request) -> Response:
        return Response(EmailOut(selectors.email_payload(request.user)).data)

    @extend_schema(request=EmailIn, responses={200: EmailOut, **errors("email_taken", body=True, auth=True)},
                   summary="Set or change your address (a new one is verified by a mailed link)")
    def put(self, request: Request) -> Response:
        addresses.address_set(user=request.user, address=valid(EmailIn, request)["email"])
        return Response(EmailOut(selectors.email_payload(request.user)).data)

    @extend_schema(request=None, responses={204: None, **errors(auth=True)}, summary="Remove your address")
    def delete(self, request: Request) -> Response:
        addresses.address_remove(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailResendApi(Api):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scopes = {"POST": "password_reset"}

    @extend_schema(request=None, responses={202: None, **errors("no_email", "already_verified", auth=True)},
                   summary="Mail the verification link again")
    def post(self, request: Request) -> Response:
        addresses.address_resend(user=request.user)
        return Response(status=status.HTTP_202_ACCEPTED)


class EmailVerifyApi(Api):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=VerifyIn, responses={200: EmailOut, **errors("invalid_link", body=True)},
                   summary="Verify an address with the mailed token")
    def post(self, request: Request) -> Response:
        row = addresses.address_verify(token=valid(VerifyIn, request)["token"])
        return Response(EmailOut(selectors.email_payload(row.user)).data)


class PreferencesApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: PreferencesOut, **errors(auth=True)}, summary="Your notification preferences")
    def get(self, request: Request) -> Response:
        return Response(PreferencesOut(selectors.preferences_payload(request.user)).data)

    @extend_schema(request=PreferencesIn, summary="Change your notification preferences (the fields you send)",
                   responses={200: PreferencesOut, **errors("invalid_time_zone", "invalid_channels", "invalid_language", body=True,
                                                            auth=True)})
    def patch(self, request: Request) -> Response:
        preferences.preferences_update(user=request.user, **valid(PreferencesIn, request))
        return Response(PreferencesOut(selectors.preferences_payload(request.user)).data)
