"""Reads of the api app: tokens by secret, a user's tokens, stored idempotent answers."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import router
from django.db.models import QuerySet

from maatasite.sql_once import instances_once

from .models import ApiToken

TOKEN_PREFIX = "mta_"
TOKEN_SQL = "token_for_secret"  # its name in maatasite.sql_once


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _token_query(key_hash: str) -> QuerySet[ApiToken]:
    """The one row :func:`token_for_secret` reads: the live token with this hash, with its user."""
    return ApiToken.objects.select_related("user").filter(key_hash=key_hash, revoked_at__isnull=True).order_by()[:1]


# _token_query's SQL is built once per process and database (maatasite.sql_once): this is the
# first read of every API request with a token, and building it (a join with the user's twenty
# columns) cost Django more than running it (bench/api.py's 304: the token read was 44 % of the
# request's profiled time, in-process). A test compares the objects with the ORM's.
_TOKEN_SQL_PLACEHOLDER = "0" * 64  # a hash no secret has: the compiled SQL's variable parameter


def token_for_secret(*, secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, with its user, or None: _token_query's
    row, through its SQL built once."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    found = instances_once(
        TOKEN_SQL,
        queryset=_token_query,
        placeholder=_TOKEN_SQL_PLACEHOLDER,
        value=token_hash(secret),
        alias=router.db_for_read(ApiToken),
    )
    return found[0] if found else None


def tokens_of_user(*, user: Any) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")
