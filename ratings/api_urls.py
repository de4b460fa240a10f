"""The ratings app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("ratings/leaderboard/", apis.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:username>/", apis.PlayerView.as_view(), name="player"),
]
