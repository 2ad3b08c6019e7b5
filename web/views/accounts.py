"""Session sign-up, log-in and log-out beside the API's tokens (same accounts, same service)."""
from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from matches.errors import ServiceError, localized_message
from matches.services.accounts import account_register
from web.forms import GuardedLoginForm, SignupForm

FIELD_OF_CODE = {"invalid_username": "username", "username_taken": "username", "weak_password": "password",
                 "email_taken": "email"}

login_view = auth_views.LoginView.as_view(template_name="web/login.html", redirect_authenticated_user=True,
                                          authentication_form=GuardedLoginForm)
logout_view = auth_views.LogoutView.as_view()


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    ok = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                         require_https=request.is_secure())
    return target if ok else "web:lobby"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_register(username=form.cleaned_data["username"],
                                    password=form.cleaned_data["password"],
                                    email=form.cleaned_data["email"])[0]
        except ServiceError as exc:
            form.add_error(FIELD_OF_CODE.get(exc.code), exc.detail.get("password", exc.message)
                           if exc.code == "weak_password" else localized_message(exc.code, exc.message))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_url(request))
    status = 400 if request.method == "POST" else 200
    return render(request, "web/signup.html", {"form": form, "next": request.GET.get("next", "")}, status=status)
