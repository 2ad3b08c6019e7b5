"""The language switcher of every page: a form POST that sets the cookie (and, for a signed-in
player, saves the choice in their preferences), then goes back where it came from."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from matches.errors import ServiceError
from notifications.locale import set_language_cookie
from notifications.services import preferences


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    language = request.POST.get("language", "")
    back = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    try:
        preferences.check_language(language)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    if not language:
        language = settings.LANGUAGE_CODE
    if request.user.is_authenticated:
        preferences.preferences_update(user=request.user, language=language)
    translation.activate(language)
    response = HttpResponseRedirect(back)
    set_language_cookie(response, language)
    return response
