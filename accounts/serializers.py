"""The API's shapes of accounts: sign-up, confirmation, password reset, tokens, your account,
a player's public shape. Input serializers check the requests; output ones shape the
answers from the objects themselves (a ``User``, an ``api.models.ApiToken``).
Comments, not docstrings, describe the classes: drf-spectacular would publish a
docstring in the schema, which must stay as committed (maatasite/openapi.yaml).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from api.models import SCOPES, ApiToken

# ---------------------------------------------------------------- auth and tokens


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=30)
    email = serializers.EmailField()
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
    language = serializers.ChoiceField(choices=[("", "")] + list(settings.LANGUAGES), required=False, default="")


class SignupResultSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    message = serializers.CharField()


class ConfirmSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=500, help_text="The token of the link in the confirmation mail.")


class EmailSerializer(serializers.Serializer):
    email = serializers.EmailField()


class EmailChangeSerializer(serializers.Serializer):
    email = serializers.EmailField(help_text="The new address (or the failing one, to confirm it again).")
    password = serializers.CharField(
        max_length=128,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your current password.",
    )


class MessageSerializer(serializers.Serializer):
    message = serializers.CharField()


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=100, help_text="The uid part of the reset link in the mail.")
    token = serializers.CharField(max_length=100, help_text="The token part of the reset link.")
    new_password = serializers.CharField(max_length=128, write_only=True)


class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="Your name for the token, e.g. the device.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=SCOPES), min_length=1, max_length=len(SCOPES), default=list(SCOPES)
    )


class CredentialsTokenSerializer(TokenCreateSerializer):
    username = serializers.CharField(max_length=254, help_text="Username or email address.")
    password = serializers.CharField(max_length=128, write_only=True)


# An ``api.models.ApiToken`` (never its secret).
class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The first characters of the secret, to recognise it.")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


# A token just made and its secret: ``(ApiToken, secret)``, as api.services.token_create returns them.
class TokenSecretSerializer(TokenSerializer):
    token = serializers.CharField(
        help_text="The secret: shown this once, never again. Send it as `Authorization: Bearer <token>`."
    )

    def to_representation(self, issued: tuple[ApiToken, str]) -> dict[str, Any]:
        token, secret = issued
        return {**TokenSerializer(token, context=self.context).data, "token": secret}


# ---------------------------------------------------------------- me and players


# The signed-in ``User``.
class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    display_name = serializers.CharField(allow_blank=True)
    language = serializers.CharField(allow_blank=True)
    time_zone = serializers.CharField(allow_blank=True)
    email_on_your_turn = serializers.BooleanField()
    email_on_game_over = serializers.BooleanField()
    email_is_failing = serializers.BooleanField(help_text="Mail to you bounced or was marked as spam: none is sent.")
    date_joined = serializers.DateTimeField()


class PreferencesSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=50, allow_blank=True, required=False)
    language = serializers.ChoiceField(choices=[("", "")] + list(settings.LANGUAGES), required=False)
    time_zone = serializers.CharField(max_length=64, allow_blank=True, required=False)
    email_on_your_turn = serializers.BooleanField(required=False)
    email_on_game_over = serializers.BooleanField(required=False)


# A player's public shape (the players endpoints of ratings add their ratings).
class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()
    games_played = serializers.IntegerField(help_text="Finished games.")
    games_active = serializers.IntegerField()
