from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import matches.converters  # noqa: F401  (registers <id:...> before the URL confs below use it)
from pearlsite import metrics_view

urlpatterns = [
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (the CSP forbids inline script);
    # its page keeps one small inline <style>, allowed on this page only.
    path("api/docs/", csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(
        url_name="schema")), name="docs"),
    path("api/v1/", include("matches.urls")),
    path("metrics", metrics_view.metrics, name="metrics"),
    path("api/v1/", include("notifications.urls")),
    path("api/v1/", include("community.urls")),
    path("", include("web.urls")),
    path("", include("notifications.pages")),
]
# The admin is a password form facing the internet: served only when PEARLSITE_ADMIN=true.
if settings.ADMIN_ENABLED:
    urlpatterns.append(path("admin/", admin.site.urls))

handler404 = "web.views.base.not_found_handler"
handler500 = "matches.errors.server_error_view"
