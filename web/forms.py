"""Forms of the pages: sign-up and the challenge form (whose options come from the catalogue)."""
from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from rest_framework.throttling import BaseThrottle

import games
from ai_workers.engines import LEVELS
from matches.errors import ServiceError, localized_message
from matches.services.logins import login_attempt_from, login_check, login_failed

CLOCK_KINDS = [("none", _("No clock")), ("per_move", _("Days per move")), ("fischer", _("Fischer (a bank of days)"))]
OPPONENT_KINDS = [("engine", _("An engine")), ("person", _("People (usernames)")), ("open", _("Anyone (open seats)"))]
MAX_OPPONENTS = 7


class GuardedLoginForm(AuthenticationForm):
    """Django's log-in form under the API's limits: attempts per address (the `login` budget,
    read through the proxies the API trusts) and failed logins per account (services/logins.py)."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        try:
            login_attempt_from(BaseThrottle().get_ident(self.request))
            login_check(username)
        except ServiceError as refused:
            raise ValidationError(gettext("%(message)s (in %(seconds)s s).") % {
                "message": localized_message(refused.code, refused.message), "seconds": refused.detail["retry_after"]},
                code="throttled") from None
        try:
            return super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                login_failed(username)
            raise


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150, validators=[UnicodeUsernameValidator()],
                               label=_("Username"), help_text=_("Letters, digits and @ . + - _ only."),
                               widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}))
    password = forms.CharField(min_length=8, max_length=128, label=_("Password"), help_text=_("At least 8 characters."),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(max_length=128, label=_("Password again"),
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    email = forms.EmailField(max_length=254, required=False, label=_("E-mail address (optional)"),
                             help_text=_("For your-turn mails and password resets; only you see it. "
                                         "We mail a link to verify it."),
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


def option_field_name(slug: str, option: str) -> str:
    return f"option-{slug}-{option}"


class ChallengeForm(forms.Form):
    """The fixed fields; the game's own options arrive as `option-<game>-<name>` (blank = default)."""

    game = forms.ChoiceField(choices=lambda: [(slug, g.title) for slug, g in sorted(games.GAMES.items())], label=_("Game"))
    variant = forms.CharField(max_length=40, required=False, label=_("Variant"))
    players = forms.IntegerField(min_value=1, max_value=MAX_OPPONENTS + 1, required=False,
                                 label=_("Players"), help_text=_("Seats in all, for games that take several."))
    opponent = forms.ChoiceField(choices=OPPONENT_KINDS, initial="engine", widget=forms.RadioSelect, label=_("Opponent"))
    level = forms.ChoiceField(choices=[(lv, lv) for lv in LEVELS], initial="easy", required=False,
                              label=_("Engine level"))
    usernames = forms.CharField(max_length=1200, required=False, label=_("Usernames"),
                                help_text=_("Comma-separated, one per other seat (ai:<level> seats an engine)."))
    rated = forms.BooleanField(required=False, label=_("Rated"))
    clock = forms.ChoiceField(choices=CLOCK_KINDS, initial="none", required=False, widget=forms.RadioSelect,
                              label=_("Clock"))
    days_per_move = forms.IntegerField(min_value=1, max_value=60, required=False, label=_("Days per move"),
                                       initial=3, help_text=_("Every turn gets this many days."))
    initial_days = forms.IntegerField(required=False, label=_("Days to start"), initial=7)
    increment_days = forms.IntegerField(required=False, label=_("Days added after each move"), initial=1)
    max_days = forms.IntegerField(required=False, label=_("At most (days)"), initial=14,
                                  help_text=_("The bank never holds more than this."))

    def clean(self):
        data = super().clean()
        slug = data.get("game")
        if not slug:
            return data
        rules = games.get_game(slug)
        players = data.get("players") or (rules.min_players if rules.max_players == 1 else max(2, rules.min_players))
        data["opponents"] = self._opponents(data, players - 1)
        data["options"] = self._options(rules, data.get("variant") or None)
        data["time_control"] = self._time_control(data)
        return data

    def _time_control(self, data: dict) -> dict | None:
        """The chosen clock as the challenge service takes it (the service checks the ranges).
        Every field is sent (the hidden ones too): the chosen kind picks those that count; without
        a kind, a number of days per move stands for itself."""
        kind = data.get("clock") or ("per_move" if data.get("days_per_move") else "none")
        fields = {"per_move": {"days": "days_per_move"},
                  "fischer": {"initial_days": "initial_days", "increment_days": "increment_days", "max_days": "max_days"}}
        if kind not in fields:
            return None
        chosen = {name: data.get(field) for name, field in fields[kind].items()}
        for name, field in fields[kind].items():
            if chosen[name] is None:
                self.add_error(field, _("Give a number of days for this clock."))
        return {"kind": kind, **chosen}

    def _options(self, rules: games.Game, variant: str | None) -> dict:
        """The options typed or chosen, as the catalogue's values. A field left at the game's
        default or at the variant's value is left out, so the variant (applied first) stands."""
        specs = rules.describe()["options"]
        preset = rules.variants.get(rules.variant_aliases.get(variant, variant), {}) if variant else {}
        chosen = {}
        for name, spec in specs.items():
            text = self.data.get(option_field_name(rules.slug, name), "").strip()
            if not text:
                continue
            value = option_value(spec, text)
            if value != spec["default"] and (name not in preset or value != preset[name]):
                chosen[name] = value
        return chosen

    def _opponents(self, data: dict, count: int) -> list[str | None]:
        kind = data.get("opponent")
        if kind == "engine":
            return [f"ai:{data.get('level') or 'random'}"] * count
        if kind == "open":
            return [None] * count
        names = [n.strip() for n in (data.get("usernames") or "").split(",") if n.strip()]
        if len(names) != count:
            self.add_error("usernames", ngettext("Name %(count)d player, one per other seat.",
                                                 "Name %(count)d players, one per other seat.", count) % {"count": count})
        return names


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def option_value(spec: dict, text: str):
    """A form's text as the option's value: one of its choices (or its 'off' value) spelled as the
    page shows it, a whole number for a range, else the text itself (the rules judge it)."""
    for value in [*spec.get("choices", []), *([spec["off"]] if "off" in spec else [])]:
        if _text(value) == text:
            return value
    if "min" in spec and text.lstrip("-").isdigit():
        return int(text)
    return text


# Words that option values shorten; the value sent stays the API's.
_WORDS = {"ortho": "orthogonal", "orth": "orthogonal", "diag": "diagonal"}


def choice_label(value: str) -> str:
    """How an option's value reads in the form: 'ortho_diag' → 'orthogonal and diagonal'."""
    words = [_WORDS.get(w, w) for w in value.split("_")]
    return " and ".join(words) if all(w in _WORDS.values() for w in words) and len(words) > 1 else " ".join(words)


def option_inputs(entry: dict) -> list[dict]:
    """How each option of a catalogue entry (`describe()`) is asked for: a select when it has only
    choices, a number box for a plain range, a text box (with the admitted values named) otherwise."""
    inputs = []
    for name, spec in entry["options"].items():
        choices = [_text(c) for c in spec.get("choices", [])]
        has_range = "min" in spec
        off = gettext("%(value)s (off)") % {"value": _text(spec["off"])} if "off" in spec else ""
        kind = "select" if choices and not has_range else "number" if has_range and not choices and not off else "text"
        hint = ", ".join([*choices, *([f"{spec['min']}–{spec['max']}"] if has_range else []), *([off] if off else [])])
        inputs.append({"name": name, "field": option_field_name(entry["slug"], name),
                       "label": spec.get("label", name.replace("_", " ")), "doc": spec["doc"], "kind": kind,
                       "choices": choices, "choice_labels": [(c, choice_label(c)) for c in choices], "default": _text(spec["default"]), "hint": hint,
                       "min": spec.get("min"), "max": spec.get("max")})
    return inputs
