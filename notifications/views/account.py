"""The notification settings page: address, preferences and webhooks (form POSTs that redirect back)."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.errors import ServiceError, localized_message
from notifications.forms import (
    CHANNEL_LABELS,
    EmailForm,
    PreferencesForm,
    WebhookForm,
    channel_field_name,
)
from notifications.locale import set_language_cookie
from notifications.models import CHANNELS, KINDS
from notifications.selectors import account as selectors
from notifications.services import addresses, preferences, webhooks


def _preferences_initial(user) -> dict:
    current = selectors.preferences_payload(user)
    initial = {k: current[k] for k in ("time_zone", "digest", "digest_hour", "digest_weekday", "language")}
    for kind in KINDS:
        for channel in CHANNELS:
            initial[channel_field_name(kind, channel)] = channel in current["channels"][kind]
    return initial


@login_required
def settings_page(request: HttpRequest, *, email_form=None, webhook_form=None, status: int = 200) -> HttpResponse:
    user = request.user
    email = selectors.email_payload(user)
    context = {
        "email": email, "email_form": email_form or EmailForm(initial={"email": email["email"] or ""}),
        "preferences_form": PreferencesForm(initial=_preferences_initial(user)),
        "channel_labels": [CHANNEL_LABELS[c] for c in CHANNELS],
        "webhooks": [selectors.webhook_payload(h) for h in selectors.webhooks_of(user)],
        "webhook_form": webhook_form or WebhookForm(), "new_secret": request.session.pop("webhook_secret", None),
        "window_minutes": settings.NOTIFY_YOUR_TURN_WINDOW_MINUTES,
    }
    return render(request, "notifications/pages/settings.html", context, status=status)


@login_required
@require_POST
def email_post(request: HttpRequest) -> HttpResponse:
    if request.POST.get("action") == "resend":
        return _done(request, lambda: addresses.address_resend(user=request.user), _("The link is on its way."))
    if request.POST.get("action") == "remove":
        addresses.address_remove(user=request.user)
        messages.success(request, _("Your address was removed."))
        return redirect("notifications:settings")
    form = EmailForm(request.POST)
    if not form.is_valid():
        return settings_page(request, email_form=form, status=400)
    try:
        addresses.address_set(user=request.user, address=form.cleaned_data["email"])
    except ServiceError as exc:
        form.add_error("email", localized_message(exc.code, exc.message))
        return settings_page(request, email_form=form, status=exc.status)
    messages.success(request, _("Saved. Open the link we mailed to verify the address."))
    return redirect("notifications:settings")


@login_required
@require_POST
def preferences_post(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Those preferences are not valid: ") + "; ".join(
            f"{name}: {' '.join(errs)}" for name, errs in form.errors.items()))
        return redirect("notifications:settings")
    data = form.cleaned_data
    response = _done(request, lambda: preferences.preferences_update(
        user=request.user, channels=form.channels(), time_zone=data["time_zone"], digest=data["digest"],
        digest_hour=data["digest_hour"], digest_weekday=data["digest_weekday"], language=data["language"]),
        _saved_in(data["language"]))
    # The browser's cookie would outrank the saved language: it follows the choice.
    if data["language"]:
        set_language_cookie(response, data["language"])
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH)
    return response


@login_required
@require_POST
def webhook_post(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST)
    if not form.is_valid():
        return settings_page(request, webhook_form=form, status=400)
    try:
        hook = webhooks.webhook_create(user=request.user, url=form.cleaned_data["url"], kinds=form.cleaned_data["kinds"])
    except ServiceError as exc:
        form.add_error("url", localized_message(exc.code, exc.message))
        return settings_page(request, webhook_form=form, status=exc.status)
    # Shown once, on the page this redirect leads to.
    request.session["webhook_secret"] = {"id": hook.pk, "secret": hook.secret}
    return redirect("notifications:settings")


@login_required
@require_POST
def webhook_delete_post(request: HttpRequest, pk: int) -> HttpResponse:
    return _done(request, lambda: webhooks.webhook_delete(user=request.user, webhook_id=pk), _("Webhook deleted."))


def _saved_in(language: str) -> str:
    """The confirmation, in the language just chosen (the page after it will be in that language)."""
    with translation.override(language or translation.get_language()):
        return _("Preferences saved.")


def _done(request: HttpRequest, action, success: str) -> HttpResponse:
    try:
        action()
    except ServiceError as exc:
        messages.error(request, localized_message(exc.code, exc.message))
    else:
        messages.success(request, success)
    return redirect("notifications:settings")
