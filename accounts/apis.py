"""The API's endpoints of accounts: sign-up, confirmation, password reset, tokens, your account.

Thin: input serializers check the request, accounts' and api's services write, the output
serializers of accounts/serializers.py shape the answer. Built on api's shared base views.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response

from api import selectors as api_selectors
from api import services as api_services
from api.base import ApiView
from api.client_address import client_address_bucket
from api.docs import errors
from api.errors import ApiError
from api.throttling import AuthRateThrottle, IPRateThrottle, UserRateThrottle

from . import selectors, services
from . import serializers as s
from .models import User


def public_player_or_404(username: str) -> User:
    """The public player of this name, or the API's 404 (a deleted or hidden account is none)."""
    player = selectors.user_get_public(username=username)
    if player is None:
        raise ApiError("player_not_found", _("No such player."), status_code=404)
    return player


# ---------------------------------------------------------------- auth


# The credential endpoints: anyone, under the sign-in budgets. (A comment: drf-spectacular
# would publish a view's docstring as the description of its operations.)
class AuthView(ApiView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [AuthRateThrottle, IPRateThrottle]


class SignupView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.SignupSerializer,
        responses={201: s.SignupResultSerializer, **errors(400, 429)},
        summary="Sign up: an inactive account, confirmed through the mailed link",
        examples=[
            OpenApiExample(
                "Sign-up",
                request_only=True,
                value={"username": "alice", "email": "alice@example.org", "password": "a long passphrase"},
            )
        ],
    )
    def post(self, request: Any) -> Response:
        data = s.SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_signup(**data.validated_data)
        result = {
            "username": user.username,
            "email": user.email,
            "message": _("We have mailed you a link to confirm your address."),
        }
        return Response(s.SignupResultSerializer(result).data, status=status.HTTP_201_CREATED)


class ConfirmView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.ConfirmSerializer,
        responses={200: s.MessageSerializer, **errors(400, 429)},
        summary="Confirm the email address with the token of the mailed link",
        description="The token works once: used again (or after another link of the "
        "account was used) it answers 400 with code `already_confirmed` "
        "and changes nothing. It signs nobody in: get a token next.",
    )
    def post(self, request: Any) -> Response:
        data = s.ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_confirm_email(token=data.validated_data["token"])
        message = _("Your email address is confirmed. Welcome, %(name)s!") % {"name": user.public_name}
        return Response(s.MessageSerializer({"message": message}).data)


class ConfirmResendView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.EmailSerializer,
        responses={202: s.MessageSerializer, **errors(400, 429)},
        summary="Mail a new confirmation link",
    )
    def post(self, request: Any) -> Response:
        data = s.EmailSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_confirmation_resend(email=data.validated_data["email"])
        message = _("If an unconfirmed account uses that address, we have mailed it a new link.")
        return Response(s.MessageSerializer({"message": message}).data, status=status.HTTP_202_ACCEPTED)


class PasswordResetView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.EmailSerializer,
        responses={202: s.MessageSerializer, **errors(400, 429)},
        summary="Mail a password reset link (its uid and token go to the confirm endpoint)",
    )
    def post(self, request: Any) -> Response:
        data = s.EmailSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_request(email=data.validated_data["email"])
        message = _("If an account uses that address, we have mailed it a link.")
        return Response(s.MessageSerializer({"message": message}).data, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.PasswordResetConfirmSerializer,
        responses={200: s.MessageSerializer, **errors(400, 429)},
        summary="Set a new password (revokes the account's API tokens)",
    )
    def post(self, request: Any) -> Response:
        data = s.PasswordResetConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_complete(**data.validated_data)
        return Response(s.MessageSerializer({"message": _("Your password is changed.")}).data)


# ---------------------------------------------------------------- tokens


class CredentialsTokenView(AuthView):
    @extend_schema(
        tags=["auth"],
        request=s.CredentialsTokenSerializer,
        responses={201: s.TokenSecretSerializer, **errors(400, 403, 429)},
        summary="Get a token from username (or email) and password",
        examples=[
            OpenApiExample(
                "Token for a phone",
                request_only=True,
                value={
                    "username": "alice",
                    "password": "a long passphrase",
                    "name": "Alice's phone",
                    "scopes": ["read", "play"],
                },
            )
        ],
    )
    def post(self, request: Any) -> Response:
        data = s.CredentialsTokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        issued = services.token_create_from_credentials(
            **data.validated_data, client_address=client_address_bucket(request)
        )
        return Response(s.TokenSecretSerializer(issued).data, status=status.HTTP_201_CREATED)


class TokenListView(ApiView):
    @extend_schema(
        tags=["tokens"],
        responses={200: s.TokenSerializer(many=True), **errors(401, 403, 429)},
        summary="Your live tokens (never their secrets)",
    )
    def get(self, request: Any) -> Response:
        return Response(s.TokenSerializer(api_selectors.tokens_of_user(user=request.user), many=True).data)

    @extend_schema(
        tags=["tokens"],
        request=s.TokenCreateSerializer,
        responses={201: s.TokenSecretSerializer, **errors(400, 401, 403, 409, 429)},
        summary="Make a token (its secret is shown once)",
    )
    def post(self, request: Any) -> Response:
        data = s.TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        allowed = request.auth.scopes if hasattr(request.auth, "scopes") else None
        issued = api_services.token_create(user=request.user, allowed_scopes=allowed, **data.validated_data)
        return Response(s.TokenSecretSerializer(issued).data, status=status.HTTP_201_CREATED)


class TokenDetailView(ApiView):
    @extend_schema(tags=["tokens"], responses={204: None, **errors(401, 403, 404, 429)}, summary="Revoke a token")
    def delete(self, request: Any, token_id: int) -> Response:
        api_services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------- your account


class MeView(ApiView):
    @extend_schema(
        tags=["me"], responses={200: s.MeSerializer, **errors(401, 403, 429)}, summary="Your account and preferences"
    )
    def get(self, request: Any) -> Response:
        return Response(s.MeSerializer(request.user).data)

    @extend_schema(
        tags=["me"],
        request=s.PreferencesSerializer,
        responses={200: s.MeSerializer, **errors(400, 401, 403, 429)},
        summary="Change your preferences (only the fields you send)",
    )
    def patch(self, request: Any) -> Response:
        data = s.PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        current = {field: getattr(user, field) for field in s.PreferencesSerializer().fields.keys()}  # unsent: kept
        services.profile_update(user=user, **{**current, **data.validated_data})
        return Response(s.MeSerializer(user).data)


class AccountEmailView(ApiView):
    # A password check: it spends the budget of the sign-in endpoints too.
    throttle_classes = [UserRateThrottle, IPRateThrottle, AuthRateThrottle]

    @extend_schema(
        tags=["me"],
        request=s.EmailChangeSerializer,
        responses={202: s.MessageSerializer, **errors(400, 401, 403, 429)},
        summary="Change your email address (or confirm a failing one again): a link goes to it, "
        "and following it makes it the account's address and clears a failure",
    )
    def post(self, request: Any) -> Response:
        data = s.EmailChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.email_change_request(
            user=request.user, new_email=data.validated_data["email"], password=data.validated_data["password"]
        )
        message = _("We have mailed a link to %(email)s: follow it to use that address.") % {
            "email": data.validated_data["email"]
        }
        return Response(s.MessageSerializer({"message": message}).data, status=status.HTTP_202_ACCEPTED)
