"""The mails of accounts, rendered when the outbox sends them (see accounts.outbox).

A row holds the user (and, for an address change, the addresses); the signed link is
made here, at send time, so that no link sits in the database:

- ``signup_confirmation``: the link confirming the account's address (sign-up, resend);
- ``email_change``: the link making ``row.to`` the account's address (``params["old"]``:
  the address when it was asked for);
- ``password_reset``: Django's reset link, to ``row.to`` (the address asked for).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from .mail import absolute_url, user_email_build
from .outbox import mail_kind_register
from .tokens import email_change_token_make, email_confirmation_token_make


def signup_confirmation_render(row, _loaded, _sending):
    token = email_confirmation_token_make(user=row.user)
    return user_email_build(
        user=row.user,
        to=row.to,
        subject_template="accounts/email/confirmation_subject.txt",
        body_template="accounts/email/confirmation_body.txt",
        context={
            "confirm_url": absolute_url(reverse("accounts:confirm", kwargs={"token": token})),
            "max_age_days": settings.ACCOUNTS_CONFIRMATION_MAX_AGE // 86400,
        },
    )


def email_change_render(row, _loaded, _sending):
    token = email_change_token_make(user=row.user, new_email=row.to, old_email=row.params.get("old", ""))
    return user_email_build(
        user=row.user,
        to=row.to,
        subject_template="accounts/email/email_change_subject.txt",
        body_template="accounts/email/email_change_body.txt",
        context={
            "confirm_url": absolute_url(reverse("accounts:email_change_confirm", kwargs={"token": token})),
            "max_age_days": settings.ACCOUNTS_CONFIRMATION_MAX_AGE // 86400,
            "new_email": row.to,
        },
    )


def password_reset_render(row, _loaded, _sending):
    user = row.user
    return user_email_build(
        user=user,
        to=row.to or user.email,
        subject_template="accounts/email/password_reset_subject.txt",
        body_template="accounts/email/password_reset_body.txt",
        context={
            "uid": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
            "email": row.to or user.email,
        },
    )


def register() -> None:
    mail_kind_register("signup_confirmation", render=signup_confirmation_render)
    mail_kind_register("email_change", render=email_change_render)
    mail_kind_register("password_reset", render=password_reset_render)
