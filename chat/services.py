"""Writes of the chat app: a player's message to the other player of their game."""

from __future__ import annotations

import math
import unicodedata
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from accounts.selectors import is_blocked
from games.errors import NotFound
from games.models import Game

from .errors import ChatInvalid, ChatNotAllowed, ChatRateLimited
from .models import MESSAGE_MAX_LENGTH, Message
from .selectors import partners_of

if TYPE_CHECKING:
    from accounts.models import User

# At most RATE_LIMIT messages by one player in one game within RATE_WINDOW.
RATE_LIMIT = 20
RATE_WINDOW = timedelta(hours=1)


def clean_text(text: str) -> str:
    """``text`` stripped, lines ending in "\\n", without other control characters (tabs stay)
    or lone surrogates, which no database stores."""
    text = str(text or "").replace("\r\n", "\n").replace("\r", "\n")
    kept = (ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs"))
    return "".join(kept).strip()


def message_create(*, game_id: int, author: User, text: str, now: datetime | None = None) -> Message:
    """``author`` writes ``text`` to the other player of their game (during or after it).

    Refused when the other player blocked the author; moves are never affected."""
    now = now or timezone.now()
    with transaction.atomic():
        # The game row serializes one game's writes, so the rate limit cannot be raced.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found", game=game_id)
        partners = partners_of(game=game, user=author)
        if not partners:
            raise ChatNotAllowed("message_no_reader")
        if any(is_blocked(blocker=partner, blocked=author) for partner in partners):
            raise ChatNotAllowed("message_blocked")
        text = clean_text(text)
        if not text:
            raise ChatInvalid("message_empty")
        if len(text) > MESSAGE_MAX_LENGTH:
            raise ChatInvalid("message_too_long", limit=MESSAGE_MAX_LENGTH)
        recent = Message.objects.filter(game=game, author=author, created_at__gt=now - RATE_WINDOW)
        if recent.count() >= RATE_LIMIT:
            # `or now`: the rows may have been purged since the count (then the whole window)
            oldest = recent.order_by("created_at").values_list("created_at", flat=True).first() or now
            raise ChatRateLimited(
                "message_rate_limited",
                limit=RATE_LIMIT,
                retry_after=math.ceil((oldest + RATE_WINDOW - now).total_seconds()),
            )
        return Message.objects.create(game=game, author=author, text=text, ply=game.ply, created_at=now)
