"""The API's URLs of accounts (under /api/v1/, in the "api" namespace: maatasite/api_urls.py)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("auth/signup/", apis.SignupView.as_view(), name="signup"),
    path("auth/confirm/", apis.ConfirmView.as_view(), name="confirm"),
    path("auth/confirm/resend/", apis.ConfirmResendView.as_view(), name="confirm_resend"),
    path("auth/password/reset/", apis.PasswordResetView.as_view(), name="password_reset"),
    path("auth/password/reset/confirm/", apis.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("auth/token/", apis.CredentialsTokenView.as_view(), name="token"),
    path("tokens/", apis.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", apis.TokenDetailView.as_view(), name="token_detail"),
    path("me/", apis.MeView.as_view(), name="me"),
    path("account/email/", apis.AccountEmailView.as_view(), name="account_email"),
]
