"""What correspondence holds about a user, for the account export and erasure
(registered in maatasite.personal_data; privacy runs it): the replies by mail of the last
days; on deletion those go before any game is locked, and the digest, vacations and the
calendar feed go at the end."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from .models import CalendarFeed, DigestAlarm, InboundMail, MailPicture, Vacation, VacationAccount

if TYPE_CHECKING:
    from accounts.models import User


def _replies_by_mail(user: User) -> list[dict[str, Any]]:
    """The stored mail sent to the player's reply addresses (kept for a few days): what
    came, when, and what it did. The text only of mail judged to come from the player's
    own address: a stranger's mail to it (``wrong_sender``) is not theirs to read."""
    mails = InboundMail.objects.filter(user=user).order_by("received_at", "pk")
    return [
        {
            "received_at": timestamp(m.received_at),
            "processed_at": timestamp(m.processed_at),
            "outcome": m.outcome or None,
            "message": (bytes(m.raw).decode("utf-8", "replace") if m.outcome and m.outcome != "wrong_sender" else None),
        }
        for m in mails
    ]


def _replies_delete(user: User, now: datetime) -> None:
    """Their replies by mail, played or not; before the games are locked, in the order a
    reply's play takes its locks (its row, then the game)."""
    InboundMail.objects.filter(user=user).delete()


def _mail_settings_delete(user: User, now: datetime) -> None:
    DigestAlarm.objects.filter(user=user).delete()
    Vacation.objects.filter(user=user).delete()
    VacationAccount.objects.filter(user=user).delete()
    CalendarFeed.objects.filter(user=user).delete()
    MailPicture.objects.filter(user=user).delete()


def register() -> None:
    registry.register(
        PersonalData(
            app="correspondence",
            models={
                "correspondence.InboundMail": "exported (replies by mail); deleted",
                "correspondence.DigestAlarm": "deleted",
                "correspondence.Vacation": "deleted",
                "correspondence.VacationAccount": "deleted",
                "correspondence.CalendarFeed": "deleted",
                "correspondence.ReplyAddressUse": "kept: moves played by mail, hashed Message-IDs",
                "correspondence.MailPicture": "deleted (a picture of a game position, drawn for their mail)",
            },
            export=(ExportSection(key="replies_by_mail", position=90, build=_replies_by_mail),),
            erase=(
                EraseStep(name="correspondence.replies", phase=ErasePhase.BEFORE_GAMES, run=_replies_delete),
                EraseStep(name="correspondence.settings", phase=ErasePhase.REMAINDER, run=_mail_settings_delete),
            ),
        )
    )
