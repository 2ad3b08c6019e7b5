"""The settings page's forms (the services check again: the API and the pages share every rule)."""
from __future__ import annotations

from zoneinfo import available_timezones

from django import forms

from matches.models import Profile
from notifications.models import CHANNELS, KINDS

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
KIND_LABELS = {"your_turn": "Your turn", "challenge_received": "Challenge received", "offer_made": "Offer made",
               "deadline_reminder": "Deadline reminder", "match_finished": "Match finished",
               "tournament_round": "Tournament round", "ladder_challenge": "Ladder challenge"}
CHANNEL_LABELS = {"email": "Mail now", "digest": "In the digest", "webhook": "Webhook"}


def channel_field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label="E-mail address",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class PreferencesForm(forms.Form):
    time_zone = forms.ChoiceField(choices=[(z, z) for z in sorted(available_timezones())], label="Time zone")
    digest = forms.ChoiceField(choices=[(d, d.capitalize()) for d in Profile.Digest.values], label="Digest")
    digest_hour = forms.TypedChoiceField(choices=[(h, f"{h:02d}:00") for h in range(24)], coerce=int,
                                         label="Digest at")
    digest_weekday = forms.TypedChoiceField(choices=list(enumerate(WEEKDAYS)), coerce=int, label="Weekly on")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in KINDS:
            for channel in CHANNELS:
                self.fields[channel_field_name(kind, channel)] = forms.BooleanField(
                    required=False, label=f"{KIND_LABELS[kind]}: {CHANNEL_LABELS[channel]}")

    def channels(self) -> dict[str, list[str]]:
        return {kind: [c for c in CHANNELS if self.cleaned_data.get(channel_field_name(kind, c))] for kind in KINDS}

    def matrix(self) -> list[dict]:
        return [{"label": KIND_LABELS[kind], "fields": [self[channel_field_name(kind, c)] for c in CHANNELS]}
                for kind in KINDS]


class WebhookForm(forms.Form):
    url = forms.URLField(max_length=500, label="HTTPS URL", assume_scheme="https")
    kinds = forms.MultipleChoiceField(choices=[(k, KIND_LABELS[k]) for k in KINDS],
                                      widget=forms.CheckboxSelectMultiple, label="Kinds")


class PasswordResetForm(forms.Form):
    login = forms.CharField(max_length=254, label="Username or e-mail address")


class NewPasswordForm(forms.Form):
    password = forms.CharField(min_length=8, max_length=128, label="New password",
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(max_length=128, label="New password again",
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data
