"""The tournaments app's paths under /api/v1/ (URL names in the "api" namespace)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("tournaments/", apis.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", apis.TournamentDetailView.as_view(), name="tournament"),
    path(
        "tournaments/<int:tournament_id>/standings/",
        apis.TournamentStandingsView.as_view(),
        name="tournament_standings",
    ),
    path(
        "tournaments/<int:tournament_id>/register/", apis.TournamentRegisterView.as_view(), name="tournament_register"
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/", apis.TournamentWithdrawView.as_view(), name="tournament_withdraw"
    ),
]
