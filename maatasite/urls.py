"""Root URL configuration. The games app owns the site's root, so it comes last."""

from django.contrib import admin
from django.urls import include, path

from accounts.views import admin_login

# An outage of Redis or PostgreSQL is a 503 with Retry-After (maatasite.unavailable), any other
# uncaught exception Django's 500.
handler500 = "maatasite.unavailable.server_error"

urlpatterns = [
    path("admin/login/", admin_login),  # the admin's own login, under the credential pages' budgets
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("players/", include("accounts.urls_players")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ratings/", include("ratings.urls")),
    path("ladders/", include("ladder.urls")),
    path("api/v1/", include("maatasite.api_urls")),
    path("tournaments/", include("tournaments.urls")),
    path("correspondence/", include("correspondence.urls")),
    path("privacy/", include("privacy.urls")),
    path("settings/webhooks/", include("webhooks.urls")),
    path("", include("ops.urls")),
    path("", include("chat.urls")),
    path("", include("analysis.urls")),
    path("", include("games.urls")),
]
