"""The pages in the player's language and time zone (docs/i18n.md).

Django's LocaleMiddleware has already chosen a language: the switcher's cookie, else the browser's
Accept-Language, else English. For a signed-in player on a browser without that cookie (a new
device, after logging in), the language saved in their preferences wins, and the cookie is set so
the next request agrees. Every date and time on the pages is shown in the time zone of their
preferences (the one their mails use). The API is left alone: its messages follow Accept-Language.
"""
from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation

from notifications.models import Preferences
from pearlsite.middleware import SyncAndAsyncMiddleware, in_pool

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)


def _is_page(request) -> bool:
    return not request.path.startswith(("/api/", "/static/"))


def player_locale(request) -> tuple[str, str] | None:
    """(saved language or "", time zone) of the signed-in player; None for anyone else."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    row = Preferences.objects.filter(user_id=user.pk).values_list("language", "time_zone").first()
    return row or ("", "UTC")


def _apply(request, chosen: tuple[str, str] | None) -> bool:
    """Activate the player's time zone and, when the browser has no cookie, their language.
    True when the language cookie should be set on the response."""
    if chosen is None:
        return False
    language, zone = chosen
    timezone.activate(ZoneInfo(zone))
    if language in LANGUAGE_CODES and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return True
    return False


def set_language_cookie(response, language: str) -> None:
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                        path=settings.LANGUAGE_COOKIE_PATH, secure=settings.LANGUAGE_COOKIE_SECURE,
                        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE)


class PlayerLocaleMiddleware(SyncAndAsyncMiddleware):
    def call(self, request):
        if not _is_page(request):
            return self.get_response(request)
        set_cookie = _apply(request, player_locale(request))
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        if set_cookie:
            set_language_cookie(response, request.LANGUAGE_CODE)
        return response

    async def acall(self, request):
        if not _is_page(request):
            return await self.get_response(request)
        set_cookie = _apply(request, await in_pool(player_locale, request))
        try:
            response = await self.get_response(request)
        finally:
            timezone.deactivate()
        if set_cookie:
            set_language_cookie(response, request.LANGUAGE_CODE)
        return response
