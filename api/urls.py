"""/api/v1/: every path ends in '/'. The OpenAPI schema is at schema/, interactive docs at docs/.

The endpoints of ratings, ladders, tournaments, fair play (blocks and reports), chat and
privacy are their apps' own (<app>/apis.py), listed in each app's api_urls.py.
"""
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import views

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
    path("", include("privacy.api_urls")),
    path("", include("ratings.api_urls")),  # ratings/leaderboard/ and players/<username>/
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
    path("", include("chat.api_urls")),  # games/<id>/messages/
    # challenges
    path("challenges/", views.ChallengeListView.as_view(), name="challenges"),
    path("challenges/<int:challenge_id>/", views.ChallengeDetailView.as_view(), name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.ChallengeAcceptView.as_view(), name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", views.ChallengeDeclineView.as_view(),
         name="challenge_decline"),
    path("challenges/<int:challenge_id>/cancel/", views.ChallengeCancelView.as_view(), name="challenge_cancel"),
    path("", include("ladder.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("fairplay.api_urls")),  # blocks and reports
    # polling
    path("events/", views.EventsView.as_view(), name="events"),
    # Anything else under /api/v1/ is a 404 in the API's error shape, not an HTML page.
    re_path(r"^[\s\S]*$", views.unknown_path, name="unknown"),  # [\s\S]: a %0A in the path too
]
