"""What accounts holds about a user, for the account export and erasure (registered in
maatasite.personal_data; privacy runs it): the profile and the blocks they made; on
deletion the row is anonymised first, and blocks, mail and sessions go last.

The row stays, for the games' foreign keys: finished games stay replayable and show the
player as "deleted player" (``User.public_name``).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import Field, Q

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from .models import DELETED_USERNAME_PREFIX, Block
from .outbox import outbox_user_forget
from .services import user_sessions_end

if TYPE_CHECKING:
    from .models import User

# Preferences set back to their defaults on deletion (the account can never use them again).
RESET_FIELDS = (
    "first_name",
    "last_name",
    "display_name",
    "language",
    "time_zone",
    "email_on_your_turn",
    "email_on_game_over",
    "turn_mail",
    "digest_hour",
    "email_reminders",
    "quiet_hours_start",
    "quiet_hours_end",
    "vacation_since",
    "email_failing_since",
    "email_failure",
    "email_failure_detail",
)


def _profile(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "email_confirmed": user.email_confirmed,
        "language": user.language,
        "time_zone": user.time_zone,
        "date_joined": timestamp(user.date_joined),
        "last_login": timestamp(user.last_login),
        "vacation_since": timestamp(user.vacation_since),
        "mail": {
            "email_on_your_turn": user.email_on_your_turn,
            "email_on_game_over": user.email_on_game_over,
            "turn_mail": user.turn_mail,
            "digest_hour": user.digest_hour,
            "email_reminders": user.email_reminders,
            "quiet_hours_start": user.quiet_hours_start,
            "quiet_hours_end": user.quiet_hours_end,
        },
    }


def _blocks(user: User) -> list[dict[str, Any]]:
    blocks = Block.objects.filter(blocker=user).select_related("blocked").order_by("created_at", "pk")
    return [{"player": b.blocked.public_name, "blocked_at": timestamp(b.created_at)} for b in blocks]


def _anonymise(user: User, now: datetime) -> None:
    """Strip the row of everything personal; it stays for the games' foreign keys."""
    user_model = get_user_model()
    name = "%s%d" % (DELETED_USERNAME_PREFIX, user.pk)
    if user_model.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
        # an account from before sign-up refused the prefix
        name = "%s%d-%s" % (DELETED_USERNAME_PREFIX, user.pk, secrets.token_hex(4))
    user.username = name
    user.email = ""
    for field in RESET_FIELDS:
        model_field = user_model._meta.get_field(field)
        assert isinstance(model_field, Field), field  # RESET_FIELDS are the user's own columns
        setattr(user, field, model_field.get_default())
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.last_login = None
    user.deleted_at = now
    user.full_clean(exclude=["password", "email"])  # an empty address is the point
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _blocks_delete(user: User, now: datetime) -> None:
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()


def _mail_forget(user: User, now: datetime) -> None:
    outbox_user_forget(user_id=user.pk)  # pending mail, and the record of mail sent


def _sessions_end(user: User, now: datetime) -> None:
    user_sessions_end(user_id=user.pk)


def register() -> None:
    registry.register(
        PersonalData(
            app="accounts",
            models={
                "accounts.User": "exported (profile); anonymised, kept for the games' foreign keys",
                "accounts.Block": "exported (the blocks made); deleted, both ways",
                "accounts.OutgoingMail": "deleted: pending mail and the record of mail sent",
                "accounts.StaffAction": "kept: the staff audit log (as staff member or as player)",
            },
            export=(
                ExportSection(key="profile", position=10, build=_profile),
                ExportSection(key="blocks", position=40, build=_blocks),
            ),
            erase=(
                EraseStep(name="accounts.user", phase=ErasePhase.IDENTITY, run=_anonymise),
                EraseStep(name="accounts.blocks", phase=ErasePhase.REMAINDER, run=_blocks_delete),
                EraseStep(name="accounts.mail", phase=ErasePhase.REMAINDER, run=_mail_forget),
                EraseStep(name="accounts.sessions", phase=ErasePhase.REMAINDER, run=_sessions_end),
            ),
        )
    )
