"""Request bodies (validation only; no business logic: that lives in services)."""
from rest_framework import serializers

from .services import OFFER_ACTIONS


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(r"^[A-Za-z0-9_.@+-]{2,150}$", help_text="2-150 letters, digits, _.@+-")
    password = serializers.CharField(write_only=True, min_length=8, max_length=128)


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)


class ChallengeIn(serializers.Serializer):
    game = serializers.CharField(max_length=40, help_text="a slug from GET /api/v1/games/")
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True, allow_null=True)
    options = serializers.DictField(required=False, default=dict)
    opponents = serializers.ListField(
        child=serializers.CharField(allow_null=True, max_length=150), required=False, default=list,
        max_length=7, help_text='one entry per other seat: a username, "ai:<level>", or null (open seat)')
    rated = serializers.BooleanField(required=False, default=False)
    days_per_move = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=60,
                                             help_text="correspondence clock; null for none")
    seat = serializers.IntegerField(required=False, default=0, min_value=0, max_value=7,
                                    help_text="the challenger's seat (0 moves first in most games)")


class MoveIn(serializers.Serializer):
    move = serializers.CharField(max_length=2000, trim_whitespace=False, help_text="move notation")
    ply = serializers.IntegerField(required=False, min_value=0,
                                   help_text="the ply the match is at (409 stale_ply if it moved on)")


class OfferIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=OFFER_ACTIONS, required=False, default="offer")


class AnalysisIn(serializers.Serializer):
    level = serializers.CharField(required=False, default="medium", max_length=32)


class LadderIn(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    game = serializers.CharField(max_length=40)
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True, allow_null=True)
    options = serializers.DictField(required=False, default=dict)
    challenge_reach = serializers.IntegerField(required=False, default=3, min_value=1, max_value=50)
    days_per_move = serializers.IntegerField(required=False, allow_null=True, default=3, min_value=1,
                                             max_value=60)


class LadderChallengeIn(serializers.Serializer):
    opponent = serializers.CharField(max_length=150)
