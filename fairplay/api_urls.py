"""The fairplay app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("blocks/", apis.BlockListView.as_view(), name="blocks"),
    path("blocks/<str:username>/", apis.BlockDetailView.as_view(), name="block"),
    path("reports/", apis.ReportCreateView.as_view(), name="reports"),
]
