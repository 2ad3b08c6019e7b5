"""The settings page's forms (the services check again: the API and the pages share every rule)."""
from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from matches.models import Profile
from notifications.models import CHANNELS, KINDS

WEEKDAYS = [_("Monday"), _("Tuesday"), _("Wednesday"), _("Thursday"), _("Friday"), _("Saturday"), _("Sunday")]
KIND_LABELS = {"your_turn": _("Your turn"), "challenge_received": _("Challenge received"),
               "offer_made": _("Offer made"), "deadline_reminder": _("Deadline reminder"),
               "match_finished": _("Match finished"), "tournament_round": _("Tournament round"),
               "ladder_challenge": _("Ladder challenge")}
CHANNEL_LABELS = {"email": _("Mail now"), "digest": _("In the digest"), "webhook": _("Webhook")}
DIGEST_LABELS = {"none": _("None"), "daily": _("Daily"), "weekly": _("Weekly")}


def channel_field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label=_("E-mail address"),
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class PreferencesForm(forms.Form):
    time_zone = forms.ChoiceField(choices=[(z, z) for z in sorted(available_timezones())], label=_("Time zone"))
    digest = forms.ChoiceField(choices=[(d, DIGEST_LABELS[d]) for d in Profile.Digest.values], label=_("Digest"))
    digest_hour = forms.TypedChoiceField(choices=[(h, f"{h:02d}:00") for h in range(24)], coerce=int,
                                         label=_("Digest at"))
    digest_weekday = forms.TypedChoiceField(choices=list(enumerate(WEEKDAYS)), coerce=int, label=_("Weekly on"))
    language = forms.ChoiceField(choices=[("", _("The browser's choice")), *settings.LANGUAGES], required=False,
                                 label=_("Language of the pages"))

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
    url = forms.URLField(max_length=500, label=_("HTTPS URL"), assume_scheme="https")
    kinds = forms.MultipleChoiceField(choices=[(k, KIND_LABELS[k]) for k in KINDS],
                                      widget=forms.CheckboxSelectMultiple, label=_("Kinds"))


class PasswordResetForm(forms.Form):
    login = forms.CharField(max_length=254, label=_("Username or e-mail address"))


class NewPasswordForm(forms.Form):
    password = forms.CharField(min_length=8, max_length=128, label=_("New password"),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(max_length=128, label=_("New password again"),
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data
