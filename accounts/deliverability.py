"""Marking an address as failing: a hard bounce or a spam complaint.

Two sources report failures: the mail provider's webhook (correspondence.bounces)
and our own SMTP server refusing a recipient for good (accounts.mail.email_deliver).
Both land here, in accounts, because the mail path and the address change live
in accounts and the apps built on it may call down but not the reverse.

A failing address gets no mail (accounts.selectors.email_deliverable) until its
owner confirms an address again (accounts.services.email_change_confirm), which
clears the failure. A complaint also turns every kind of game mail off, so mail
starts again only when the player opts in again.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Literal

from django.db import transaction
from django.utils import timezone

from .models import User

logger = logging.getLogger(__name__)

Failure = Literal["bounce", "complaint"]
FAILURES = ("bounce", "complaint")
# The preferences a complaint turns off (turn_mail, each or digest, is a form, not a consent).
COMPLAINT_TURNS_OFF = ("email_on_your_turn", "email_on_game_over", "email_reminders")
DETAIL_MAX = User._meta.get_field("email_failure_detail").max_length


def address_failure_record(
    *, email: str, failure: Failure, detail: str = "", now: datetime | None = None
) -> User | None:
    """Mark the account using ``email`` as failing; None when no account uses it.

    Idempotent: the first failure's time stays; a complaint outranks a bounce (and
    a later bounce does not downgrade it); repeating a report changes nothing.
    """
    if failure not in FAILURES:
        raise ValueError("unknown failure %r" % failure)
    email = email.strip()
    if not email:
        return None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(email__iexact=email).first()
        if user is None:
            return None
        changed = []
        if user.email_failing_since is None:
            user.email_failing_since = now or timezone.now()
            changed.append("email_failing_since")
        if user.email_failure != failure and user.email_failure != "complaint":
            user.email_failure = failure
            user.email_failure_detail = detail.strip()[:DETAIL_MAX]
            changed += ["email_failure", "email_failure_detail"]
        if failure == "complaint":
            for name in COMPLAINT_TURNS_OFF:
                if getattr(user, name):
                    setattr(user, name, False)
                    changed.append(name)
        if changed:
            user.save(update_fields=changed)
            logger.info("address_failure_record user_id=%s failure=%s", user.pk, user.email_failure)
    return user


def address_failure_clear(*, user: User) -> bool:
    """Forget the failure of ``user``'s address (its owner confirmed an address); True when there was one."""
    if user.email_failing_since is None and not user.email_failure:
        return False
    user.email_failing_since = None
    user.email_failure = ""
    user.email_failure_detail = ""
    user.save(update_fields=["email_failing_since", "email_failure", "email_failure_detail"])
    logger.info("address_failure_clear user_id=%s", user.pk)
    return True
