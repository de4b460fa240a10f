"""Every write of the api app: tokens, idempotent answers, and the API's account actions
(token from credentials, password reset) built on accounts' own forms and services.
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from accounts.forms import PasswordResetForm
from accounts.ratelimits import login_failure_record, login_failures_check, login_failures_clear

from .errors import ApiError
from .models import SCOPES, ApiToken, IdempotencyRecord
from .selectors import TOKEN_PREFIX, token_hash

LAST_USED_GRANULARITY = timedelta(minutes=5)
MAX_TOKENS_PER_USER = 50


def _check_scopes(scopes: Iterable[str], allowed: Iterable[str] | None = None) -> list[str]:
    wanted = sorted(set(scopes))
    allowed_set = set(SCOPES if allowed is None else allowed)
    if not wanted or any(scope not in SCOPES for scope in wanted):
        raise ApiError("bad_scopes", _("Choose scopes among: %(scopes)s.") % {"scopes": ", ".join(SCOPES)},
                       details={"allowed": list(SCOPES)})
    if not set(wanted) <= allowed_set:
        raise ApiError("scope_escalation", _("A token cannot make a token with more scopes than its own."),
                       status_code=403, details={"allowed": sorted(allowed_set)})
    return wanted


@transaction.atomic
def token_create(*, user: Any, name: str, scopes: Iterable[str],
                 allowed_scopes: Iterable[str] | None = None) -> tuple[ApiToken, str]:
    """Make a personal access token; returns (token, secret). The secret is never stored."""
    checked = _check_scopes(scopes, allowed_scopes)
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS_PER_USER:
        raise ApiError("too_many_tokens", _("You have too many tokens: revoke some first."),
                       status_code=409, details={"limit": MAX_TOKENS_PER_USER})
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name.strip()[:100] or "token",
                                    key_hash=token_hash(secret), prefix=secret[:10], scopes=checked)
    return token, secret


def token_create_from_credentials(*, username: str, password: str, name: str,
                                  scopes: Iterable[str], client_address: str) -> tuple[ApiToken, str]:
    """Sign in with username (or email) and password and make a token, as an app does.

    Failed attempts count against the account and ``client_address`` pair, as on the login
    page (accounts/ratelimits.py): over the budget the password is not checked (RateLimited)."""
    user_model = get_user_model()
    account = user_model.objects.filter(username__iexact=username).first() or \
        user_model.objects.filter(email__iexact=username).first()
    account_name = account.username if account else username
    login_failures_check(account=account_name, address=client_address)
    if account is not None and not account.is_active and account.check_password(password):
        raise ApiError("account_inactive", _("This account is not active: confirm your email address first."),
                       status_code=403)
    user = authenticate(username=account_name, password=password)
    if user is None:
        login_failure_record(account=account_name, address=client_address)
        raise ApiError("bad_credentials", _("The username or password is wrong."), status_code=400)
    login_failures_clear(account=account_name, address=client_address)
    return token_create(user=user, name=name, scopes=scopes)


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


def password_reset_request(*, email: str) -> None:
    """Mail a reset link (with uid and token) to the active account with this address, if any.

    Says nothing about whether the address is known.
    """
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(domain_override=settings.SITE_URL.split("://")[-1],
                  email_template_name="accounts/email/password_reset_body.txt",
                  subject_template_name="accounts/email/password_reset_subject.txt")


@transaction.atomic
def password_reset_complete(*, uid: str, token: str, new_password: str) -> Any:
    """Set a new password from the uid and token of a reset mail; revokes the user's API tokens."""
    user_model = get_user_model()
    try:
        user = user_model.objects.get(pk=force_str(urlsafe_base64_decode(uid)))
    except (ValueError, TypeError, OverflowError, user_model.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise ApiError("bad_reset_link", _("This password reset link is not valid or has expired."))
    form = SetPasswordForm(user, {"new_password1": new_password, "new_password2": new_password})
    if not form.is_valid():
        raise ApiError("invalid", _("Some fields are not valid."),
                       details={"fields": {"new_password": form.errors.get("new_password2", [])
                                           or form.errors.get("new_password1", [])}})
    form.save()
    ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return user


# ---------------------------------------------------------------- idempotency

def _expiry() -> timedelta:
    return timedelta(hours=settings.API_IDEMPOTENCY_HOURS)


def idempotency_claim(*, user: Any, key: str, request_hash: str) -> tuple[IdempotencyRecord, bool]:
    """Claim ``key`` for this request inside the caller's transaction: (record, is_new).

    Call inside ``transaction.atomic``. A concurrent request with the same key waits
    on the unique index until the first commits, then finds its answer (is_new False).
    An expired record is replaced.
    """
    now = timezone.now()
    IdempotencyRecord.objects.filter(user=user, key=key, expires_at__lte=now).delete()
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(user=user, key=key, request_hash=request_hash,
                                                      expires_at=now + _expiry())
        return record, True
    except IntegrityError:
        return IdempotencyRecord.objects.get(user=user, key=key), False


def idempotency_store(*, record: IdempotencyRecord, status_code: int, body: Any) -> None:
    record.status_code = status_code
    record.response_body = body
    record.save(update_fields=["status_code", "response_body"])


def idempotency_purge(*, now: Any = None) -> int:
    """Delete expired records; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
