"""Pages reached from mails: verify an address, reset a password, and one-click unsubscribe (RFC 8058)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from matches.errors import ServiceError, localized_message
from notifications import links
from notifications.forms import KIND_LABELS, NewPasswordForm, PasswordResetForm
from notifications.services import addresses, passwords, preferences


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    try:
        row = addresses.address_verify(token=token)
    except ServiceError as exc:
        return render(request, "notifications/pages/message.html",
                      {"title": _("Link not valid"), "text": localized_message(exc.code, exc.message)}, status=exc.status)
    return render(request, "notifications/pages/message.html",
                  {"title": _("Address verified"),
                   "text": _("%(address)s is verified: mails can reach you now.") % {"address": row.address}})


def password_reset(request: HttpRequest) -> HttpResponse:
    form = PasswordResetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        passwords.reset_request(login=form.cleaned_data["login"])
        return render(request, "notifications/pages/message.html",
                      {"title": _("Check your mail"), "text": _(passwords.RESET_ANSWER).capitalize() + "."})
    return render(request, "notifications/pages/password_reset.html", {"form": form},
                  status=400 if request.method == "POST" else 200)


def password_reset_confirm(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    if passwords.reset_link_user(uid, token) is None:
        return render(request, "notifications/pages/message.html",
                      {"title": _("Link not valid"), "text": _("This reset link is wrong, used already or expired.")},
                      status=400)
    form = NewPasswordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            passwords.reset_confirm(uid=uid, token=token, password=form.cleaned_data["password"])
        except ServiceError as exc:
            form.add_error("password", exc.detail.get("password", exc.message))
        else:
            messages.success(request, _("Your password is changed; every other sign-in and API token is revoked."))
            return redirect("web:login")
    return render(request, "notifications/pages/password_new.html", {"form": form},
                  status=400 if request.method == "POST" else 200)


@csrf_exempt      # RFC 8058: the mail client POSTs without a session; the signed token is the credential
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    found = links.unsubscribe_token_read(token)
    if found is None:
        return render(request, "notifications/pages/message.html",
                      {"title": _("Link not valid"), "text": _("This unsubscribe link is not one of ours.")}, status=400)
    user_id, kind = found
    label = _("digest") if kind == "digest" else str(KIND_LABELS.get(kind, kind)).lower()
    if request.method == "POST":
        user = get_user_model().objects.filter(pk=user_id).first()
        if user is not None:
            preferences.channel_off(user=user, kind=kind)
        return render(request, "notifications/pages/message.html",
                      {"title": _("Unsubscribed"),
                   "text": _("No more %(label)s mails. Change this any time in your settings.") % {"label": label}})
    return render(request, "notifications/pages/unsubscribe.html", {"label": label, "token": token})
