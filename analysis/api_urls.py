"""The analysis app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("games/<int:game_id>/analysis/", apis.GameAnalysisView.as_view(), name="game_analysis"),
]
