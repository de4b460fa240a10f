"""Reads from accounts."""
from datetime import datetime
from typing import Literal

from .models import Block, User


def user_get_public(*, username: str) -> User | None:
    """The active account with this username (case-insensitive), or None."""
    return User.objects.filter(username__iexact=username, is_active=True).first()


def user_wants_email(*, user: User, kind: Literal["your_turn", "game_over"]) -> bool:
    """Whether ``user`` wants the given kind of notification mail."""
    if not (user.is_active and user.email):
        return False
    return {"your_turn": user.email_on_your_turn, "game_over": user.email_on_game_over}[kind]


def is_blocked(*, blocker: User, blocked: User) -> bool:
    """Whether ``blocker`` blocked ``blocked``: the one block check (challenges, ladder challenges)."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists()


def blocks_of_user(*, user: User) -> list:
    """The blocks ``user`` made, newest first, with the blocked players."""
    return list(Block.objects.filter(blocker=user).select_related("blocked"))


def block_since(*, blocker: User, blocked: User) -> datetime | None:
    """When ``blocker`` blocked ``blocked``, or None: game messages written after it stay hidden."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).values_list(
        "created_at", flat=True).first()
