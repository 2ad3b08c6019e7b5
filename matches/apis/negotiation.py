"""Content negotiation: a `?format=` no renderer of the operation offers, or an empty one, is 406
`not_acceptable` (DRF would answer 404, as if the resource did not exist, or ignore the empty one)."""
from __future__ import annotations

from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        if request.query_params.get(self.settings.URL_FORMAT_OVERRIDE) == "":
            raise NotAcceptable("?format= names no format: leave it out or name one")
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except Http404:
            wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
            raise NotAcceptable(f"no {wanted!r} format here") from None
