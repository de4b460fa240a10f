"""/api/v1/: the URLs of every app's API (each app's ``api_urls.urlpatterns``), in one
namespace "api" (``reverse("api:game", ...)``), with the OpenAPI schema (schema/) and the
interactive docs (docs/) built from them all. Every path ends in '/'.

This module sits at the top of the layers (with maatasite/urls.py): it imports the apps,
and no app imports it.
"""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import accounts.api_urls
import analysis.api_urls
import api.api_urls
import chat.api_urls
import fairplay.api_urls
import games.api_urls
import ladder.api_urls
import privacy.api_urls
import ratings.api_urls
import tournaments.api_urls
import webhooks.api_urls
from api.apis import unknown_path

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script as a file of its own (docs/?script=), and
    # api/swagger_ui.html its style as a file: the page runs under the site's strict CSP.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
        name="docs",
    ),
    *api.api_urls.urlpatterns,
    *accounts.api_urls.urlpatterns,
    *games.api_urls.urlpatterns,
    *privacy.api_urls.urlpatterns,
    *ratings.api_urls.urlpatterns,
    *chat.api_urls.urlpatterns,
    *analysis.api_urls.urlpatterns,
    *ladder.api_urls.urlpatterns,
    *tournaments.api_urls.urlpatterns,
    *fairplay.api_urls.urlpatterns,
    *webhooks.api_urls.urlpatterns,
    # Anything else under /api/v1/ is a 404 in the API's error shape, not an HTML page.
    re_path(r"^[\s\S]*$", unknown_path, name="unknown"),  # [\s\S]: a %0A in the path too
]
