"""Every write of the api app: tokens and idempotent answers.

Signing in for a token and the password reset are accounts' services (accounts/services.py),
built on these.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models.constants import OnConflict
from django.db.models.sql import InsertQuery
from django.utils import timezone
from django.utils.translation import gettext as _

from .errors import ApiError
from .models import SCOPES, ApiToken, IdempotencyRecord
from .selectors import TOKEN_PREFIX, token_hash

LAST_USED_GRANULARITY = timedelta(minutes=5)
MAX_TOKENS_PER_USER = 50


def _check_scopes(scopes: Iterable[str], allowed: Iterable[str] | None = None) -> list[str]:
    wanted = sorted(set(scopes))
    allowed_set = set(SCOPES if allowed is None else allowed)
    if not wanted or any(scope not in SCOPES for scope in wanted):
        raise ApiError(
            "bad_scopes",
            _("Choose scopes among: %(scopes)s.") % {"scopes": ", ".join(SCOPES)},
            details={"allowed": list(SCOPES)},
        )
    if not set(wanted) <= allowed_set:
        raise ApiError(
            "scope_escalation",
            _("A token cannot make a token with more scopes than its own."),
            status_code=403,
            details={"allowed": sorted(allowed_set)},
        )
    return wanted


@transaction.atomic
def token_create(
    *, user: Any, name: str, scopes: Iterable[str], allowed_scopes: Iterable[str] | None = None
) -> tuple[ApiToken, str]:
    """Make a personal access token; returns (token, secret). The secret is never stored."""
    checked = _check_scopes(scopes, allowed_scopes)
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS_PER_USER:
        raise ApiError(
            "too_many_tokens",
            _("You have too many tokens: revoke some first."),
            status_code=409,
            details={"limit": MAX_TOKENS_PER_USER},
        )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip()[:100] or "token", key_hash=token_hash(secret), prefix=secret[:10], scopes=checked
    )
    return token, secret


@transaction.atomic
def token_revoke(*, user: Any, token_id: int) -> ApiToken:
    """Revoke one of the user's tokens (revoking twice is harmless)."""
    token = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
    if token is None:
        raise ApiError("token_not_found", _("You have no such token."), status_code=404)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def token_mark_used(*, token: ApiToken) -> None:
    """Remember when a token was last used, at most once per few minutes (cheap polling)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_GRANULARITY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def tokens_revoke_all(*, user: Any) -> int:
    """Revoke every live token of the user (a new password ends them all); returns how many."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())


# ---------------------------------------------------------------- idempotency


def _expiry() -> timedelta:
    return timedelta(hours=settings.API_IDEMPOTENCY_HOURS)


def idempotency_claim(*, user: Any, key: str, request_hash: str) -> tuple[IdempotencyRecord, bool]:
    """Claim ``key`` for this request inside the caller's transaction: (record, is_new).

    Call inside ``transaction.atomic``. A concurrent request with the same key waits
    on the unique index until the first commits, then finds its answer (is_new False).
    An expired record is replaced.

    A new key costs one round trip: an insert that does nothing on a conflict (so no savepoint
    is needed to survive one) and returns the new row's id. A key already taken costs one more,
    the read of its row, which is ours only when it has no answer yet (``status_code`` 0): every
    committed row has one, as the answer is stored in the same transaction as the claim
    (:func:`idempotency_store`).
    """
    now = timezone.now()
    while True:
        claim = IdempotencyRecord(
            user=user, key=key, request_hash=request_hash, created_at=now, expires_at=now + _expiry()
        )
        if _inserted_unless_taken(claim):
            return claim, True
        record = IdempotencyRecord.objects.get(user=user, key=key)
        if record.expires_at > now:
            return record, record.status_code == 0
        IdempotencyRecord.objects.filter(pk=record.pk, expires_at__lte=now).delete()  # expired: claim anew


def _inserted_unless_taken(record: IdempotencyRecord) -> bool:
    """Insert ``record`` unless its key is taken (PostgreSQL's ``ON CONFLICT DO NOTHING``,
    SQLite's ``INSERT OR IGNORE``), in one statement that returns the new row's id; True when
    inserted (the record then has its id). The ORM's own insert, compiled as ``bulk_create``
    compiles it, with the id asked back: ``bulk_create(ignore_conflicts=True)`` does not ask,
    and a second statement would be needed to learn whether the row is ours."""
    alias = router.db_for_write(IdempotencyRecord)
    meta = IdempotencyRecord._meta
    query = InsertQuery(IdempotencyRecord, on_conflict=OnConflict.IGNORE)
    query.insert_values([field for field in meta.concrete_fields if field is not meta.pk], [record])
    compiler = query.get_compiler(using=alias)
    compiler.returning_fields = [meta.pk]
    ((statement, params),) = compiler.as_sql()
    with connections[alias].cursor() as cursor:
        cursor.execute(statement, params)
        row = cursor.fetchone()
    if row is None:
        return False
    record.pk = row[0]
    record._state.adding, record._state.db = False, alias
    return True


def idempotency_store(*, record: IdempotencyRecord, status_code: int, body: Any) -> None:
    record.status_code = status_code
    record.response_body = body
    record.save(update_fields=["status_code", "response_body"])


def idempotency_purge(*, now: Any = None) -> int:
    """Delete expired records; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
