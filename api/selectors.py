"""Reads of the api app: tokens by secret, a user's tokens, stored idempotent answers."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import connections, router
from django.db.models import QuerySet

from maatasite.sql_once import built_once

from .models import ApiToken

TOKEN_PREFIX = "mta_"
TOKEN_SQL = "token_for_secret"  # its name in maatasite.sql_once


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _token_query(key_hash: str) -> QuerySet[ApiToken]:
    """The one row :func:`token_for_secret` reads: the live token with this hash, with its user."""
    return ApiToken.objects.select_related("user").filter(key_hash=key_hash, revoked_at__isnull=True).order_by()[:1]


@dataclass(frozen=True)
class _TokenSql:
    """_token_query's SQL as Django builds it, with what turns its row into the two objects."""

    sql: str
    token_columns: tuple[int, ...]
    token_names: tuple[str, ...]
    user_model: Any
    user_columns: tuple[int, ...]
    user_names: tuple[str, ...]
    converters: dict[int, tuple[list[Any], Any]]
    """Django's converters of the row's values by column (JSON read from text, and SQLite's
    times), called as the ORM calls them."""


# _token_query's SQL is built once per process and database (maatasite.sql_once): this is the
# first read of every API request with a token, and building it (a join with the user's twenty
# columns) cost Django more than running it (bench/api.py's 304: the token read was 44 % of the
# request's profiled time, in-process). A test compares the objects with the ORM's.
_TOKEN_SQL_PLACEHOLDER = "0" * 64  # a hash no secret has: the compiled SQL's one parameter


def _token_sql_describe(compiler: Any, sql: str) -> _TokenSql:
    """Which of the row's columns are the token's and which its user's, and their converters."""
    user_model = ApiToken._meta.get_field("user").related_model
    token_columns: list[int] = []
    user_columns: list[int] = []
    names: dict[int, str] = {}
    for index, (expression, _sql, _alias) in enumerate(compiler.select):
        field = expression.target
        names[index] = field.attname
        if field.model is ApiToken:
            token_columns.append(index)
        elif field.model is not None and issubclass(user_model, field.model):
            user_columns.append(index)
        else:
            raise RuntimeError("token_for_secret: unexpected column %r" % (expression,))
    return _TokenSql(
        sql=sql,
        token_columns=tuple(token_columns),
        token_names=tuple(names[i] for i in token_columns),
        user_model=user_model,
        user_columns=tuple(user_columns),
        user_names=tuple(names[i] for i in user_columns),
        converters=compiler.get_converters([expression for expression, _sql, _alias in compiler.select]),
    )


def token_for_secret(*, secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, with its user, or None: _token_query's
    row, through its SQL built once."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    alias = router.db_for_read(ApiToken)
    connection = connections[alias]
    compiled = built_once(
        TOKEN_SQL,
        queryset=_token_query,
        placeholder=_TOKEN_SQL_PLACEHOLDER,
        alias=alias,
        connection=connection,
        describe=_token_sql_describe,
    )
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, [token_hash(secret)])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, (converters, expression) in compiled.converters.items():
        for converter in converters:
            values[index] = converter(values[index], expression, connection)
    token = ApiToken.from_db(alias, compiled.token_names, [values[i] for i in compiled.token_columns])
    user = compiled.user_model.from_db(alias, compiled.user_names, [values[i] for i in compiled.user_columns])
    ApiToken._meta.get_field("user").set_cached_value(token, user)
    return token


def tokens_of_user(*, user: Any) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")
