"""/api/v1/: every path ends in '/'. The OpenAPI schema is at schema/, interactive docs at docs/.

Ratings and ladders are served through their apps' selectors and services;
tournaments through the tournaments app's own views (tournaments/api.py), which
api/views.py documents in the schema.
"""
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import views, views_chat, views_privacy

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script as a file of its own (docs/?script=), and
    # api/swagger_ui.html its style as a file: the page runs under the site's strict CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
         name="docs"),
    path("ping/", views.PingView.as_view(), name="ping"),
    # accounts
    path("auth/signup/", views.SignupView.as_view(), name="signup"),
    path("auth/confirm/", views.ConfirmView.as_view(), name="confirm"),
    path("auth/confirm/resend/", views.ConfirmResendView.as_view(), name="confirm_resend"),
    path("auth/password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("auth/password/reset/confirm/", views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("auth/token/", views.CredentialsTokenView.as_view(), name="token"),
    path("tokens/", views.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", views.TokenDetailView.as_view(), name="token_detail"),
    path("me/", views.MeView.as_view(), name="me"),
    path("account/email/", views.AccountEmailView.as_view(), name="account_email"),
    path("account/export/", views_privacy.AccountExportView.as_view(), name="account_export"),
    path("account/delete/", views_privacy.AccountDeleteView.as_view(), name="account_delete"),
    path("players/<str:username>/", views.PlayerView.as_view(), name="player"),
    path("players/<str:username>/games/", views.PlayerGamesView.as_view(), name="player_games"),
    # games
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/solo/", views.SoloCreateView.as_view(), name="solo"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/moves/", views.MoveSubmitView.as_view(), name="moves"),
    path("games/<int:game_id>/resign/", views.GameResignView.as_view(), name="resign"),
    path("games/<int:game_id>/abort/", views.GameAbortView.as_view(), name="abort"),
    path("games/<int:game_id>/draw/offer/", views.DrawOfferView.as_view(), name="draw_offer"),
    path("games/<int:game_id>/draw/accept/", views.DrawAcceptView.as_view(), name="draw_accept"),
    path("games/<int:game_id>/draw/decline/", views.DrawDeclineView.as_view(), name="draw_decline"),
    path("games/<int:game_id>/messages/", views_chat.GameMessagesView.as_view(), name="game_messages"),
    # challenges
    path("challenges/", views.ChallengeListView.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>/", views.ChallengeDetailView.as_view(), name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.ChallengeAcceptView.as_view(), name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", views.ChallengeDeclineView.as_view(),
         name="challenge_decline"),
    path("challenges/<int:challenge_id>/cancel/", views.ChallengeCancelView.as_view(), name="challenge_cancel"),
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
    # polling
    path("events/", views.EventsView.as_view(), name="events"),
    # Anything else under /api/v1/ is a 404 in the API's error shape, not an HTML page.
    re_path(r"^[\s\S]*$", views.unknown_path, name="unknown"),  # [\s\S]: a %0A in the path too
]
