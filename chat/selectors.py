"""Reads of the chat app: a game's messages as one of its players sees them.

Only the users seated in a game take part (not bots, not spectators). A player does not
see what a player they blocked wrote after the block (earlier messages stay).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.selectors import block_since, blocks_between, blocks_hiding
from games.errors import NotAllowed, NotFound
from games.models import Game
from games.selectors import game_row_extra_register, game_users, rows_of_game

from .models import Message

if TYPE_CHECKING:
    from accounts.models import User


@dataclass
class Conversation:
    """What ``viewer`` sees of ``game``'s messages, and whether they may write."""

    game: Game
    viewer: User
    partners: list[User]
    messages: list[Message] = field(default_factory=list)
    blocked_by_partner: bool = False

    @property
    def can_write(self) -> bool:
        return bool(self.partners) and not self.blocked_by_partner


def partners_of(*, game: Game, user: Any) -> list[User]:
    """The other seated users of ``game``; refuses anyone not seated in it."""
    users = game_users(game)
    if not getattr(user, "is_authenticated", False) or user.pk not in {u.pk for u in users}:
        raise NotAllowed("not_a_player")
    return [u for u in users if u.pk != user.pk]


def conversation_for(*, game_id: int, user: Any, game: Game | None = None) -> Conversation:
    """The messages of the game ``game_id`` as ``user`` sees them (404 unknown game, 403 not seated).
    ``game``: that game, when the caller has already read it."""
    if game is None or game.pk != game_id:
        game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("game_not_found", game=game_id)
    partners = partners_of(game=game, user=user)
    blocks = _blocks_read_with_seats(game, user, partners)
    if blocks is None:
        blocks = blocks_between(user=user, others=partners)  # both ways, one query
    hidden = Q()
    for partner in partners:
        since = blocks.get((user.pk, partner.pk))
        if since is not None:
            hidden |= Q(author=partner, created_at__gte=since)
    if hidden:
        shown = list(Message.objects.filter(game=game).exclude(hidden))
    else:  # no block hides anything: the game page's usual read
        shown = game_messages(game=game)
    return Conversation(
        game=game,
        viewer=user,
        partners=partners,
        messages=_with_authors(shown, [user, *partners]),
        blocked_by_partner=any((partner.pk, user.pk) in blocks for partner in partners),
    )


def _blocks_read_with_seats(game: Game, user: Any, partners: list[User]) -> dict[tuple[int, int], Any] | None:
    """What :func:`blocks_between` says of ``user`` and their one partner, from the game's
    seats when they were read with when each player blocked the other
    (games.selectors.SEATS_WITH_USERS: every game page reads them); None otherwise."""
    if len(partners) != 1 or "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        return None
    seats = [seat for seat in game.seats.all() if seat.user_id is not None]
    if len(seats) != 2 or not all(hasattr(seat, "co_player_blocked_at") for seat in seats):
        return None
    partner = partners[0].pk
    found: dict[tuple[int, int], Any] = {}
    for seat in seats:
        blocked_at = getattr(seat, "co_player_blocked_at", None)
        if seat.user_id is not None and blocked_at is not None:
            found[(seat.user_id, partner if seat.user_id == user.pk else user.pk)] = blocked_at
    return found


GAME_MESSAGES_SQL = "game_messages"  # its name in maatasite.sql_once


def _messages_query(game_id: int) -> QuerySet[Message]:
    return Message.objects.filter(game_id=game_id)


# Whether a game has messages, read with its row on every page (games.selectors.GAME_ROW_EXTRAS,
# registered by ChatConfig.ready).
HAS_MESSAGES = "chat_has_messages"


def has_messages_expression() -> Exists:
    return Exists(Message.objects.filter(game=OuterRef("pk")))


def register() -> None:
    """Read HAS_MESSAGES with a game's row on its pages (ChatConfig.ready)."""
    game_row_extra_register(HAS_MESSAGES, has_messages_expression)


def game_messages(*, game: Game) -> list[Message]:
    """All of ``game``'s messages in their order (``Message.objects.filter(game=game)``), each
    with its game set, through their SQL built once: every game page of a player reads them,
    unless its row, read with it, says it has none (HAS_MESSAGES)."""
    if getattr(game, HAS_MESSAGES, None) is False:
        return []
    return rows_of_game(GAME_MESSAGES_SQL, queryset=_messages_query, game=game)


def _with_authors(messages: list[Message], users: list[Any]) -> list[Message]:
    """``messages`` with their authors set from the game's seated users, read already (only
    they write: chat.services), rather than joined again to every message row."""
    by_id = {author.pk: author for author in users}
    for message in messages:
        author = by_id.get(message.author_id)
        if author is not None:
            message.author = author
    return messages


def conversation_or_none(*, game: Game, user: Any) -> Conversation | None:
    """For the game page: the conversation, or None for spectators and games against a bot."""
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        conversation = conversation_for(game_id=game.pk, user=user, game=game)
    except NotAllowed:
        return None
    return conversation if conversation.partners else None


def message_for_viewer(*, message_id: int, user: Any) -> Message | None:
    """One message as ``user`` sees it in their conversation (the live push of a new message):
    None unless ``user`` is seated in its game, and None for what a player ``user`` blocked
    wrote after the block, as :func:`conversation_for` hides it."""
    message = Message.objects.filter(pk=message_id).select_related("author", "game").first()
    if message is None:
        return None
    try:
        partners = partners_of(game=message.game, user=user)
    except NotAllowed:
        return None
    if message.author_id == user.pk:
        return message
    author = next((partner for partner in partners if partner.pk == message.author_id), None)
    if author is None:
        return None
    since = block_since(blocker=user, blocked=author)
    return None if since is not None and message.created_at >= since else message


def messages_to_user(*, user: Any) -> QuerySet[Message]:
    """The messages the other players wrote to ``user`` in their games, without what a player
    ``user`` blocked wrote after the block (the rule of :func:`conversation_for`, as one query):
    the events feed's ``message`` (chat/events.py) and so the outbound webhooks."""
    hidden_by_block = blocks_hiding(blocker=user, blocked=OuterRef("author_id"), since_before=OuterRef("created_at"))
    return (
        Message.objects.filter(game__seats__user=user)
        .exclude(author_id=user.pk)
        .exclude(Exists(hidden_by_block))
        .distinct()
    )
