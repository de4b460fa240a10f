"""The one-time links mailed to a user: confirming the sign-up address, changing the address.

Each works once. A token is ``django.core.signing``'s signed, timestamped JSON (one salt
per kind, good for ``ACCOUNTS_CONFIRMATION_MAX_AGE`` seconds) naming the user, the
address(es) concerned and ``n``, the user's ``one_time_links_used`` count when the token
was made. Following the link adds 1 to that count in the same compare-and-set UPDATE
that makes the change (``WHERE one_time_links_used = n``), so the token, and every other
one-time token the user was sent before, is spent. This keeps tokens stateless (no table
of used tokens, nothing to purge) yet single-use even when the account comes back to an
earlier state (address A, then B, then A again: B's old link stays spent). Two requests
racing with one token: the UPDATE lets one through. A token is a plain function of the
user (and, for a change, the new address), so it can be made at any time, e.g. when an
outbox renders the mail. Tokens made before the count existed read as ``n = 0``.

Only the POST of a link's page uses it; a GET shows the page with a button. A mail
scanner opening the link neither spends it nor gets a session.

The other links and secrets of the site, and why they stay as they are:

- Password reset (``django.contrib.auth``'s ``default_token_generator``, page and API):
  already one-time, its hash covers the password and last login, which the reset
  changes. Its GET only shows the form.
- One-click unsubscribe (``correspondence.tokens.unsubscribe_token``): reusable on
  purpose, as RFC 8058 needs and old mail must keep working; it only turns mail off.
- The game link of a mail (``correspondence.tokens.open_token``): reusable, it signs
  nobody in and changes nothing (it redirects to the game, through the login page).
- Reply addresses (``correspondence.tokens.ReplyAddress``): each names one pending
  decision and works until that decision is played; only the player's own, authenticated
  mail plays from it (``correspondence.services.mail_reply_receive``).
- The calendar feed's secret address: reusable on purpose (calendar apps poll it);
  read-only, revocable and renewable by its owner.
- API tokens: credentials, reusable until revoked.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .models import User

CONFIRMATION_SALT = "accounts.email-confirmation"
EMAIL_CHANGE_SALT = "accounts.email-change"


def link_invalid() -> ValidationError:
    """The refusal of a link that is not ours, not of this kind, or no longer matches its account."""
    return ValidationError(_("This confirmation link is not valid."), code="invalid")


@dataclass(frozen=True)
class LinkClaim:
    """What a valid signature says: whose link, the addresses, the count when it was made."""

    user_id: int
    email: str
    old_email: str
    uses: int


def email_confirmation_token_make(*, user: User) -> str:
    """The token of the sign-up confirmation link of ``user``'s current address."""
    return signing.dumps({"user": user.pk, "email": user.email, "n": user.one_time_links_used}, salt=CONFIRMATION_SALT)


def email_change_token_make(*, user: User, new_email: str, old_email: str | None = None) -> str:
    """The token of the link that makes ``new_email`` the address of ``user``, whose address was
    ``old_email`` when the change was asked for (default: the current one)."""
    return signing.dumps(
        {
            "user": user.pk,
            "email": new_email,
            "old": user.email if old_email is None else old_email,
            "n": user.one_time_links_used,
        },
        salt=EMAIL_CHANGE_SALT,
    )


def _read(token: str, salt: str) -> LinkClaim:
    try:
        data = signing.loads(token, salt=salt, max_age=settings.ACCOUNTS_CONFIRMATION_MAX_AGE)
    except signing.SignatureExpired as exc:
        raise ValidationError(_("This confirmation link has expired. Ask for a new one."), code="expired") from exc
    except signing.BadSignature as exc:
        raise link_invalid() from exc
    try:
        return LinkClaim(
            user_id=int(data["user"]),
            email=str(data.get("email", "")),
            old_email=str(data.get("old", "")),
            uses=int(data.get("n", 0)),
        )
    except (KeyError, TypeError, ValueError) as exc:  # signed by us, but not a link of this kind
        raise link_invalid() from exc


def email_confirmation_token_read(token: str) -> LinkClaim:
    """The claim of a confirmation token; ValidationError (code expired or invalid) otherwise."""
    return _read(token, CONFIRMATION_SALT)


def email_change_token_read(token: str) -> LinkClaim:
    """The claim of an address-change token; ValidationError (code expired or invalid) otherwise."""
    return _read(token, EMAIL_CHANGE_SALT)


def email_confirmation_refusal(*, claim: LinkClaim, user: User | None) -> ValidationError | None:
    """Why following this confirmation link must do nothing, or None when it may confirm.

    A confirmed address says so (code ``already_confirmed``): the link was used, or another
    one was. An account suspended or deleted before confirming stays off (``disabled``).
    """
    if user is None:
        return link_invalid()
    if user.email_confirmed:
        return ValidationError(_("Your email address is already confirmed. Log in to play."), code="already_confirmed")
    if user.suspended_at is not None or user.deleted_at is not None:
        return ValidationError(_("This account is disabled."), code="disabled")
    if user.email.lower() != claim.email.lower() or user.one_time_links_used != claim.uses:
        return link_invalid()
    return None


def email_change_refusal(*, claim: LinkClaim, user: User | None) -> ValidationError | None:
    """Why following this address-change link must do nothing, or None when it may change it.

    A spent link whose address is the account's says the change is done (code ``used``);
    any other spent link, or one for an address that changed meanwhile, is ``invalid``.
    """
    if user is None or not user.is_active:
        return link_invalid()
    if user.one_time_links_used != claim.uses:
        if user.email.lower() == claim.email.lower():
            return ValidationError(
                _("This link has already been used: %(email)s is your address.") % {"email": claim.email}, code="used"
            )
        return link_invalid()
    if user.email.lower() != claim.old_email.lower():  # the address changed since the link was sent
        return link_invalid()
    if User.objects.filter(email__iexact=claim.email).exclude(pk=user.pk).exists():
        return ValidationError(_("An account with that email address already exists."), code="email_taken")
    return None
