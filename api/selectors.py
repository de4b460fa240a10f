"""Reads of the api app: tokens by secret, a user's tokens, stored idempotent answers."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import QuerySet

from .models import ApiToken

TOKEN_PREFIX = "mta_"


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_for_secret(*, secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, or None."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    return ApiToken.objects.select_related("user").filter(key_hash=token_hash(secret), revoked_at__isnull=True).first()


def tokens_of_user(*, user: Any) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")
