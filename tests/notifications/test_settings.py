"""The notification settings read the environment and refuse junk (pearlsite/settings.py)."""
from __future__ import annotations

import pytest

from tests.matches.test_settings import _load_settings

SHOW = ("import django; django.setup(); from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.NOTIFY_REMINDER_HOURS, "
        "s.WEBHOOK_ALLOWED_NETWORKS)")


def test_mail_goes_to_the_console_by_default_and_to_smtp_from_email_url(tmp_path):
    default = _load_settings(tmp_path, code=SHOW)
    assert default.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend", default.stderr
    smtp = _load_settings(tmp_path, code=SHOW, EMAIL_URL="smtp+tls://user:secret@smtp.example.org:587",
                          PEARLSITE_NOTIFY_REMINDER_HOURS="12,2", PEARLSITE_WEBHOOK_ALLOWED_NETWORKS="10.0.0.0/8")
    assert smtp.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "587", "True",
                                   "[12,", "2]", "['10.0.0.0/8']"], smtp.stderr


@pytest.mark.parametrize("env,message", [
    ({"EMAIL_URL": "pigeon://loft"}, "EMAIL_URL is not a mail URL"),
    ({"PEARLSITE_SITE_URL": "games.example.org"}, "PEARLSITE_SITE_URL must be"),
    ({"PEARLSITE_NOTIFY_REMINDER_HOURS": "24,soon"}, "PEARLSITE_NOTIFY_REMINDER_HOURS must list whole hours"),
    ({"PEARLSITE_NOTIFY_REMINDER_HOURS": "0"}, "PEARLSITE_NOTIFY_REMINDER_HOURS must list hours between"),
    ({"PEARLSITE_NOTIFY_YOUR_TURN_WINDOW_MINUTES": "0"}, "PEARLSITE_NOTIFY_YOUR_TURN_WINDOW_MINUTES must be between"),
    ({"PEARLSITE_WEBHOOK_ALLOWED_NETWORKS": "the office"}, "PEARLSITE_WEBHOOK_ALLOWED_NETWORKS must list networks"),
    ({"PEARLSITE_THROTTLE_PASSWORD_RESET": "plenty"}, "PEARLSITE_THROTTLE_PASSWORD_RESET must be a rate"),
])
def test_junk_notification_settings_are_refused(tmp_path, env, message):
    result = _load_settings(tmp_path, **env)
    assert result.returncode != 0 and "ImproperlyConfigured" in result.stderr and message in result.stderr, result.stderr
