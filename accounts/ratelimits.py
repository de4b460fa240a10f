"""The budgets of the account forms: one rule each, for the pages and the API alike.

* ``page_attempt_spend``: every POST of a credential page (log in, ``/admin/login/``, sign
  up, password reset, confirmation resend) spends one request of the client address's
  budget (``RATE_LIMITS["page_auth"]``, env ``PAGE_RATE_AUTH``). The API's credential
  endpoints have their own per-address throttle (``API_RATE_AUTH``, api/throttling.py).
* ``login_failures_check`` / ``login_failure_record``: failed sign-ins are counted per
  **account and address pair** (``ACCOUNT_RATE_LOGIN_FAILURES``), on the login pages and
  the API's token endpoint together. A stranger guessing a player's password from their
  own addresses spends only their own pairs' budgets, so the real owner still signs in
  from theirs; a distributed guesser is held by the per-address budgets of each address.
  A success clears the pair's count.
* ``account_mail_spend``: password reset and confirmation resend mails are counted per
  **target address** (``ACCOUNT_RATE_MAIL``), whichever path asked (page or API), and
  whether or not an account uses the address (so the refusal tells nothing about it).

The client address is api/client_address.py's; counting is api/ratelimits.py's.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from api.client_address import client_address_bucket
from api.ratelimits import (
    RateLimited,
    budget_clear,
    budget_spend,
    budget_spent,
    hashed,
    too_many_attempts,
    wait_text,
)

PAGE_SCOPE = "page_auth"
LOGIN_FAILURES_SCOPE = "login_failures"
MAIL_SCOPE = "account_mail"


def _rate(scope: str) -> str | None:
    return settings.RATE_LIMITS.get(scope)


def page_attempt_spend(*, request: Any) -> None:
    """One POST of a credential page from the request's client address; raises RateLimited."""
    wait = budget_spend(scope=PAGE_SCOPE, ident=client_address_bucket(request), rate=_rate(PAGE_SCOPE))
    if wait is not None:
        raise too_many_attempts(wait=wait, scope=PAGE_SCOPE)


def _pair(account: str, address: str) -> str:
    return "%s_%s" % (hashed((account or "").strip().lower()), address)


def login_failures_check(*, account: str, address: str) -> None:
    """Refuse (RateLimited) before the password is even checked when this account has failed
    too often from this address. ``account`` is the username (the API resolves an e-mail to
    its account's username first, so both spellings share one count)."""
    wait = budget_spent(scope=LOGIN_FAILURES_SCOPE, ident=_pair(account, address), rate=_rate(LOGIN_FAILURES_SCOPE))
    if wait is not None:
        raise RateLimited(
            _("Too many failed sign-ins to this account from your address. Please try again in %(wait)s.")
            % {"wait": wait_text(wait)},
            wait=wait,
            scope=LOGIN_FAILURES_SCOPE,
        )


def login_failure_record(*, account: str, address: str) -> None:
    budget_spend(scope=LOGIN_FAILURES_SCOPE, ident=_pair(account, address), rate=_rate(LOGIN_FAILURES_SCOPE))


def login_failures_clear(*, account: str, address: str) -> None:
    budget_clear(scope=LOGIN_FAILURES_SCOPE, ident=_pair(account, address), rate=_rate(LOGIN_FAILURES_SCOPE))


def account_mail_spend(*, email: str) -> None:
    """One reset or confirmation mail to ``email``; raises RateLimited when that address has
    had its share. Called before the account is even looked up."""
    wait = budget_spend(scope=MAIL_SCOPE, ident=hashed((email or "").strip().lower()), rate=_rate(MAIL_SCOPE))
    if wait is not None:
        raise RateLimited(
            _(
                "We have already mailed this address several times. "
                "Please check its inbox (and spam folder), or try again in %(wait)s."
            )
            % {"wait": wait_text(wait)},
            wait=wait,
            scope=MAIL_SCOPE,
        )
