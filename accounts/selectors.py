"""Reads from accounts."""

from datetime import datetime
from typing import Any, Literal

from django.contrib.contenttypes.models import ContentType
from django.db import router
from django.db.models import Model, Q, QuerySet, Subquery
from django.utils import formats, timezone
from django.utils.translation import gettext

from maatasite.sql_once import Placeholders, rows_once

from . import tokens
from .models import Block, OutgoingMail, StaffAction, User
from .names import display_name_breaks_rules


def users_public() -> QuerySet[User]:
    """The players shown publicly: the one rule for every list and page of players
    (player pages and history, the API's players, leaderboards, finding an opponent by
    name, fair-play reference players). An account is public when it is active (its
    address confirmed) and neither suspended nor deleted."""
    return User.objects.filter(is_active=True, suspended_at__isnull=True, deleted_at__isnull=True)


def user_get_public(*, username: str) -> User | None:
    """The public player (:func:`users_public`) with this username (case-insensitive), or None."""
    return users_public().filter(username__iexact=username).first()


def email_confirmation_link_user(*, token: str) -> User:
    """The account a sign-up confirmation link would confirm, without using the link (its
    page's GET); raises ValidationError when following it would do nothing (accounts.tokens)."""
    claim = tokens.email_confirmation_token_read(token)
    user = User.objects.filter(pk=claim.user_id).first()
    refusal = tokens.email_confirmation_refusal(claim=claim, user=user)
    if refusal is not None:
        raise refusal
    assert user is not None  # email_confirmation_refusal refuses a missing account
    return user


def email_change_link_address(*, token: str) -> str:
    """The address an address-change link would make the account's, without using the link
    (its page's GET); raises ValidationError when following it would do nothing."""
    claim = tokens.email_change_token_read(token)
    refusal = tokens.email_change_refusal(claim=claim, user=User.objects.filter(pk=claim.user_id).first())
    if refusal is not None:
        raise refusal
    return claim.email


def email_deliverable(*, user: User) -> bool:
    """Whether mail may go to ``user``'s address: the one gate of every mail to an account.

    A failing address (a hard bounce or a spam complaint, see accounts.deliverability)
    gets nothing until its owner confirms an address again.
    """
    return bool(user.email) and user.email_failing_since is None


def user_wants_email(*, user: User, kind: Literal["your_turn", "game_over", "reminders"]) -> bool:
    """Whether ``user`` wants the given kind of notification mail (and may get it)."""
    if not (user.is_active and email_deliverable(user=user)):
        return False
    return {
        "your_turn": user.email_on_your_turn,
        "game_over": user.email_on_game_over,
        "reminders": user.email_reminders,
    }[kind]


def is_blocked(*, blocker: User, blocked: User) -> bool:
    """Whether ``blocker`` blocked ``blocked``: the one block check (challenges, ladder challenges)."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists()


def blocks_of_user(*, user: User) -> list:
    """The blocks ``user`` made, newest first, with the blocked players."""
    return list(Block.objects.filter(blocker=user).select_related("blocked"))


def block_since(*, blocker: User, blocked: User) -> datetime | None:
    """When ``blocker`` blocked ``blocked``, or None: game messages written after it stay hidden."""
    return (
        Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).values_list("created_at", flat=True).first()
    )


def blocks_hiding(*, blocker: User, blocked: Any, since_before: Any) -> QuerySet[Block]:
    """The block ``blocker`` made of ``blocked`` at or before ``since_before`` (expressions such as
    ``OuterRef("author_id")``, ``OuterRef("created_at")``): for ``Exists``, the bulk form of
    :func:`block_since` (a message written at or after the block stays hidden)."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked, created_at__lte=since_before)


def block_made_among(*, blocker: Any, blocked_among: Any) -> Subquery:
    """When ``blocker`` (an expression, such as ``OuterRef("user_id")``) blocked one of
    ``blocked_among`` (a query of user ids), or NULL: for an annotation, the bulk form of
    :func:`blocks_between` for the two players of a game, one per seat
    (games.selectors.SEATS_WITH_USERS: each seat says when its player blocked the other)."""
    made = Block.objects.filter(blocker_id=blocker, blocked_id__in=blocked_among).order_by("created_at")
    return Subquery(made.values("created_at")[:1])


def blocks_between(*, user: User, others: list[User]) -> dict[tuple[int, int], datetime]:
    """The blocks either way between ``user`` and each of ``others``, in one query:
    (blocker id, blocked id) -> when (what :func:`is_blocked` and :func:`block_since` say
    of each pair; a page that asks both of several players asks this once)."""
    ids = [other.pk for other in others]
    if not ids:
        return {}
    if len(ids) == 1:  # a two-player game's page: its SQL built once
        rows: Any = rows_once(
            BLOCKS_BETWEEN_TWO_SQL,
            queryset=_blocks_between_two,
            placeholder=_BLOCKS_PLACEHOLDERS,
            value=(user.pk, ids[0]),
            alias=router.db_for_read(Block),
        )
    else:
        rows = Block.objects.filter(
            Q(blocker_id=user.pk, blocked_id__in=ids) | Q(blocked_id=user.pk, blocker_id__in=ids)
        ).values_list("blocker_id", "blocked_id", "created_at")
    return {(blocker, blocked): created for blocker, blocked, created in rows}


BLOCKS_BETWEEN_TWO_SQL = "blocks_between_two"  # its name in maatasite.sql_once
_BLOCKS_PLACEHOLDERS = Placeholders((-7_001_013, -7_001_017))  # ids no account has


def _blocks_between_two(user_id: int, other_id: int) -> QuerySet[Any]:
    """The blocks either way between two players, as :func:`blocks_between` reads them."""
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id=other_id) | Q(blocked_id=user_id, blocker_id=other_id)
    ).values_list("blocker_id", "blocked_id", "created_at")


def users_with_bad_display_names() -> list[int]:
    """Ids of the accounts whose display name breaks the rule of accounts.names (saved before it
    existed, or by staff): listed for staff, never changed by the site."""
    named = User.objects.exclude(display_name="").values_list("pk", "display_name").iterator()
    return [pk for pk, name in named if display_name_breaks_rules(name)]


def staff_actions_on(*, target: Model) -> QuerySet[StaffAction]:
    """The staff audit log's rows about ``target`` (a game, report, tournament, ...), latest first."""
    return StaffAction.objects.filter(target_type=ContentType.objects.get_for_model(target), target_id=target.pk)


def outbox_rows_of(*, kind: str, object_ids: list[int]) -> dict[int, OutgoingMail]:
    """The outbox row of each object (e.g. an alarm) of ``kind``, by object id, in one query
    (the latest, should there be several)."""
    rows: dict[int, OutgoingMail] = {}
    for row in OutgoingMail.objects.filter(kind=kind, object_id__in=object_ids).order_by("pk"):
        if row.object_id is not None:
            rows[row.object_id] = row
    return rows


def outbox_mail_state(row: OutgoingMail, *, now: datetime) -> str:
    """Where an outbox row stands, for staff: its outcome once done (sent, or why not);
    before, "sending" (a sender holds it), "retry at ..." (after a failure), "deferred
    until ..." (its renderer said not now, e.g. the recipient's quiet hours), or "due"."""
    if row.done_at is not None:
        return row.outcome
    when = formats.localize(timezone.localtime(row.due_at))
    if row.due_at <= now:
        return gettext("due")
    if row.claimed_at is not None:
        return gettext("sending")
    if row.attempts:
        return gettext("retry at %(when)s (attempt %(attempt)s)") % {"when": when, "attempt": row.attempts + 1}
    return gettext("deferred until %(when)s") % {"when": when}
