"""The API's own URLs (under /api/v1/, in the "api" namespace: maatasite/api_urls.py).

The catch-all 404 (``api.apis.unknown_path``) is not here: the assembly puts it after
every app's URLs."""

from django.urls import path

from . import apis

urlpatterns = [
    path("ping/", apis.PingView.as_view(), name="ping"),
]
