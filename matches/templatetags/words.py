"""`{{ value|word }}`: a few words the pages show from data (a match's status, an offer's kind, an
analysis's state, a digest's period) in the page's language; any other value is shown as it is."""
from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

WORDS = {
    "active": _("active"), "finished": _("finished"), "aborted": _("aborted"),
    "draw": _("draw"), "takeback": _("takeback"),
    "queued": _("queued"), "running": _("running"), "done": _("done"), "failed": _("failed"),
    "daily": _("daily"), "weekly": _("weekly"),
}


@register.filter
def word(value):
    return WORDS.get(value, value) if isinstance(value, str) else value
