"""What chat holds about a user, for the account export (registered in
maatasite.personal_data; privacy runs it): the messages they wrote in games. Nothing is
erased: the messages stay for the other player, shown as written by a deleted player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ExportSection, PersonalData, registry, timestamp

from .models import Message

if TYPE_CHECKING:
    from accounts.models import User


def _messages(user: User) -> list[dict[str, Any]]:
    messages = Message.objects.filter(author=user).order_by("created_at", "pk")
    return [{"game": m.game_id, "ply": m.ply, "text": m.text, "written_at": timestamp(m.created_at)} for m in messages]


def register() -> None:
    registry.register(
        PersonalData(
            app="chat",
            models={"chat.Message": "exported (the messages written); kept for the other player"},
            export=(ExportSection(key="messages", position=80, build=_messages),),
        )
    )
