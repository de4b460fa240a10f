"""The endpoints still in api/views.py, api/views_chat.py and api/views_privacy.py, until they
move to their apps: maatasite/api_urls.py puts them under /api/v1/ in the "api" namespace.

Ratings and ladders are served through their apps' selectors and services;
tournaments through the tournaments app's own views (tournaments/api.py), which
api/views.py documents in the schema.
"""
from django.urls import path

from . import views, views_chat, views_privacy

urlpatterns = [
    # accounts (privacy app)
    path("account/export/", views_privacy.AccountExportView.as_view(), name="account_export"),
    path("account/delete/", views_privacy.AccountDeleteView.as_view(), name="account_delete"),
    path("players/<str:username>/", views.PlayerView.as_view(), name="player"),
    # games (chat app)
    path("games/<int:game_id>/messages/", views_chat.GameMessagesView.as_view(), name="game_messages"),
    # ratings and ladders
    path("ratings/leaderboard/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("ladders/", views.LadderListView.as_view(), name="ladders"),
    path("ladders/<int:ladder_id>/", views.LadderDetailView.as_view(), name="ladder"),
    path("ladders/<int:ladder_id>/join/", views.LadderJoinView.as_view(), name="ladder_join"),
    path("ladders/<int:ladder_id>/leave/", views.LadderLeaveView.as_view(), name="ladder_leave"),
    path("ladders/<int:ladder_id>/challenges/", views.LadderChallengeView.as_view(), name="ladder_challenge"),
    # tournaments (views of the tournaments app, documented in api/views.py)
    path("tournaments/", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<int:tournament_id>/standings/", views.TournamentStandingsView.as_view(),
         name="tournament_standings"),
    path("tournaments/<int:tournament_id>/register/", views.TournamentRegisterView.as_view(),
         name="tournament_register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.TournamentWithdrawView.as_view(),
         name="tournament_withdraw"),
    # blocks and reports (fair play)
    path("blocks/", views.BlockListView.as_view(), name="blocks"),
    path("blocks/<str:username>/", views.BlockDetailView.as_view(), name="block"),
    path("reports/", views.ReportCreateView.as_view(), name="reports"),
]
