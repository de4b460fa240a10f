"""Every write to accounts goes through these functions (keyword-only arguments).

Names follow entity_action. Errors the user can fix are raised as
django.core.exceptions.ValidationError.
"""

import logging
import zoneinfo
from collections.abc import Iterable
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate, get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from api import services as api_services
from api.errors import ApiError
from api.models import ApiToken

from . import tokens
from .deliverability import address_failure_clear
from .forms import PasswordResetForm
from .models import DELETED_USERNAME_PREFIX, Block, User
from .names import validate_display_name
from .outbox import outbox_add
from .ratelimits import account_mail_spend, login_failure_record, login_failures_check, login_failures_clear

logger = logging.getLogger(__name__)

# The one-time link tokens live in accounts.tokens (see its docstring); re-exported for the mail code.
email_confirmation_token_make = tokens.email_confirmation_token_make
email_change_token_make = tokens.email_change_token_make


def _language_check(language: str) -> str:
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Unknown language."), code="language")
    return language


def _time_zone_check(time_zone: str) -> str:
    if time_zone and time_zone not in zoneinfo.available_timezones():
        raise ValidationError(_("Unknown time zone."), code="time_zone")
    return time_zone


def email_confirmation_send(*, user: User) -> None:
    """Queue the mail with a confirmation link (made when it is sent: accounts.mail_kinds)."""
    outbox_add(kind="signup_confirmation", user=user)


@transaction.atomic
def user_signup(*, username: str, email: str, password: str, language: str = "") -> User:
    """Create an inactive account and mail it a confirmation link."""
    email = User.objects.normalize_email(email).strip()
    if username.lower().startswith(DELETED_USERNAME_PREFIX):
        raise ValidationError(_("Usernames starting with “deleted-” are reserved."), code="username_reserved")
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(_("A user with that username already exists."), code="username_taken")
    if User.objects.filter(email__iexact=email).exists():
        raise ValidationError(_("An account with that email address already exists."), code="email_taken")
    user = User(
        username=username, email=email, is_active=False, email_confirmed=False, language=_language_check(language)
    )
    validate_password(password, user)
    user.set_password(password)
    user.full_clean()
    user.save()
    email_confirmation_send(user=user)
    logger.info("user_signup user_id=%s", user.pk)
    return user


def user_confirm_email(*, token: str) -> User:
    """Follow a confirmation link: activate the account. The link works once (accounts.tokens):
    a second time it raises ValidationError with code ``already_confirmed`` and changes nothing."""
    claim = tokens.email_confirmation_token_read(token)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=claim.user_id).first()
        refusal = tokens.email_confirmation_refusal(claim=claim, user=user)
        if refusal is not None:
            raise refusal
        assert user is not None  # email_confirmation_refusal refuses a missing account
        spent = User.objects.filter(pk=user.pk, email_confirmed=False, one_time_links_used=claim.uses).update(
            email_confirmed=True, is_active=True, one_time_links_used=F("one_time_links_used") + 1
        )
        if not spent:  # another request used the link first (a database without row locks)
            raise (
                tokens.email_confirmation_refusal(claim=claim, user=User.objects.get(pk=user.pk))
                or tokens.link_invalid()
            )
        user.refresh_from_db()
    logger.info("user_confirm_email user_id=%s", user.pk)
    return user


def user_confirmation_resend(*, email: str) -> None:
    """Mail a fresh confirmation link to an unconfirmed account with this address, if there is one.

    Says nothing about whether the address is known. Spends the address's mail budget
    first (accounts/ratelimits.py; RateLimited when it is used up), known or not.
    """
    account_mail_spend(email=email)
    user = User.objects.filter(email__iexact=email.strip(), email_confirmed=False).first()
    if user is not None:
        email_confirmation_send(user=user)
        logger.info("user_confirmation_resend user_id=%s", user.pk)


def email_change_request(*, user: User, new_email: str, password: str) -> None:
    """Mail a link to ``new_email``; following it makes it the account's address.

    The current address may be asked for again while it is failing: confirming it is
    how a player whose mailbox works again fixes it. The link mail goes to the new
    address even when the account's own is failing.
    """
    if not user.check_password(password):
        raise ValidationError(_("Your password is not correct."), code="password")
    email = User.objects.normalize_email(new_email).strip()
    validate_email(email)
    if email.lower() == user.email.lower() and not user.email_is_failing:
        raise ValidationError(_("This is already your address."), code="same_email")
    if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise ValidationError(_("An account with that email address already exists."), code="email_taken")
    # The link is made when the mail is sent (accounts.mail_kinds), from the addresses kept here.
    outbox_add(kind="email_change", user=user, to=email, params={"old": user.email})
    logger.info("email_change_request user_id=%s", user.pk)


def email_change_confirm(*, token: str) -> User:
    """Follow an address-change link: the new address becomes the account's, and a failure
    of the address (bounce, complaint) is forgotten. The link works once (accounts.tokens):
    a second time it raises ValidationError with code ``used`` and changes nothing."""
    claim = tokens.email_change_token_read(token)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=claim.user_id).first()
        refusal = tokens.email_change_refusal(claim=claim, user=user)
        if refusal is not None:
            raise refusal
        assert user is not None  # email_change_refusal refuses a missing account
        try:
            with transaction.atomic():
                spent = User.objects.filter(
                    pk=user.pk, email__iexact=claim.old_email, one_time_links_used=claim.uses
                ).update(email=claim.email, one_time_links_used=F("one_time_links_used") + 1)
        except IntegrityError as exc:  # another account took the address meanwhile
            raise ValidationError(_("An account with that email address already exists."), code="email_taken") from exc
        user.refresh_from_db()
        if not spent:  # another request used the link first (a database without row locks)
            raise tokens.email_change_refusal(claim=claim, user=user) or tokens.link_invalid()
        address_failure_clear(user=user)
    logger.info("email_change_confirm user_id=%s", user.pk)
    return user


@transaction.atomic
def profile_update(
    *,
    user: User,
    display_name: str,
    language: str,
    time_zone: str,
    email_on_your_turn: bool,
    email_on_game_over: bool,
) -> User:
    display_name = display_name.strip()
    # A name saved before the rule stays until its owner changes it. Compared with the stored
    # name: a ModelForm has already put the new one on ``user``.
    saved_name = User.objects.filter(pk=user.pk).values_list("display_name", flat=True).get()
    if display_name != saved_name:
        validate_display_name(display_name)  # codes display_name_invisible, display_name_reserved
    user.display_name = display_name
    user.language = _language_check(language)
    user.time_zone = _time_zone_check(time_zone)
    user.email_on_your_turn = email_on_your_turn
    user.email_on_game_over = email_on_game_over
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "language", "time_zone", "email_on_your_turn", "email_on_game_over"])
    return user


def user_language_set(*, user: User, language: str) -> User:
    """Remember the language a signed-in user picked in the language switcher."""
    user.language = _language_check(language)
    user.save(update_fields=["language"])
    return user


@transaction.atomic
def user_demo_ensure(*, username: str, email: str, password: str, is_superuser: bool = False) -> tuple[User, bool]:
    """Create (or reset) a confirmed account with a known password. Returns (user, created)."""
    user, created = User.objects.get_or_create(username=username, defaults={"email": email})
    user.email = email
    user.email_confirmed = True
    user.is_active = True
    user.is_staff = is_superuser
    user.is_superuser = is_superuser
    user.set_password(password)
    user.save()
    return user, created


def unconfirmed_accounts_purge() -> int:
    """Delete never-confirmed accounts older than the confirmation link's lifetime; returns how many."""
    cutoff = timezone.now() - timedelta(seconds=settings.ACCOUNTS_CONFIRMATION_MAX_AGE)
    count = kept = 0
    for user in User.objects.filter(email_confirmed=False, last_login=None, date_joined__lt=cutoff):
        try:
            with transaction.atomic():
                user.delete()
        except (ProtectedError, RestrictedError):
            kept += 1  # a record that must stay names it (e.g. the staff audit log): keep the row
        else:
            count += 1
    if count or kept:
        logger.info("unconfirmed_accounts_purge deleted=%s kept=%s", count, kept)
    return count


DB_SESSION_ENGINES = ("django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db")


def user_sessions_end(*, user_id: int) -> int:
    """Delete a user's stored sessions (suspension, deletion); returns how many.

    Reads every live session, since sessions are not indexed by user (rare staff and
    account actions only). With any other session engine nothing is stored here, and
    an inactive user's sessions are refused by the authentication anyway."""
    if settings.SESSION_ENGINE not in DB_SESSION_ENGINES:
        return 0
    key = str(user_id)
    ended = [
        s.pk
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(s.get_decoded().get(SESSION_KEY)) == key
    ]
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for session_key in ended:
        store(session_key).delete(session_key)  # cached_db: from the cache too, or the session lives on
    return len(ended)


def block_create(*, blocker: User, blocked: User):
    """``blocker`` blocks ``blocked`` from challenging them. Blocking twice changes nothing."""
    if blocker.pk == blocked.pk:
        raise ValidationError(_("You cannot block yourself."), code="self_block")
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        return block


def block_delete(*, blocker: User, blocked: User) -> bool:
    """Lift a block; True when there was one (unblocking twice changes nothing)."""
    with transaction.atomic():
        deleted, _details = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
        return deleted > 0


# ---------------------------------------------------------------- the API's sign-in and password reset
# (they answer in the API's error shape: ApiError; the tokens themselves are api's)


def token_create_from_credentials(
    *, username: str, password: str, name: str, scopes: Iterable[str], client_address: str
) -> tuple[ApiToken, str]:
    """Sign in with username (or email) and password and make a token, as an app does.

    Failed attempts count against the account and ``client_address`` pair, as on the login
    page (accounts/ratelimits.py): over the budget the password is not checked (RateLimited)."""
    user_model = get_user_model()
    account = (
        user_model.objects.filter(username__iexact=username).first()
        or user_model.objects.filter(email__iexact=username).first()
    )
    account_name = account.username if account else username
    login_failures_check(account=account_name, address=client_address)
    if account is not None and not account.is_active and account.check_password(password):
        raise ApiError(
            "account_inactive", _("This account is not active: confirm your email address first."), status_code=403
        )
    user = authenticate(username=account_name, password=password)
    if user is None:
        login_failure_record(account=account_name, address=client_address)
        raise ApiError("bad_credentials", _("The username or password is wrong."), status_code=400)
    login_failures_clear(account=account_name, address=client_address)
    return api_services.token_create(user=user, name=name, scopes=scopes)


def password_reset_request(*, email: str) -> None:
    """Mail a reset link (with uid and token) to the active account with this address, if any.

    Says nothing about whether the address is known.
    """
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            domain_override=settings.SITE_URL.split("://")[-1],
            email_template_name="accounts/email/password_reset_body.txt",
            subject_template_name="accounts/email/password_reset_subject.txt",
        )


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
        raise ApiError(
            "invalid",
            _("Some fields are not valid."),
            details={
                "fields": {"new_password": form.errors.get("new_password2", []) or form.errors.get("new_password1", [])}
            },
        )
    form.save()
    api_services.tokens_revoke_all(user=user)
    return user
