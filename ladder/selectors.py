"""Reading ladders: standings, whom a player may challenge, games in progress, recent changes.

``challenge_refusal`` is the one statement of the challenge rules: the
service refuses with it and the page lists the players it does not refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.selectors import is_blocked
from ratings.selectors import ratings_by_user

from . import constants
from .errors import LadderConflict, LadderInvalid, LadderNotAllowed
from .models import ChallengeState, Ladder, LadderChallenge, LadderEvent, LadderMember


def player_is_on_vacation(*, user: Any, now: datetime | None = None) -> bool:
    """Whether ``user`` is on vacation, so may not be challenged.

    The correspondence app keeps ``User.vacation_since`` set while a vacation
    runs (``correspondence.services.vacation_start``/``vacation_end``); this is
    the ladder's only vacation check.
    """
    return user.vacation_since is not None


def ladders_list() -> list[Ladder]:
    """Every ladder, open ones first."""
    return list(Ladder.objects.order_by("-is_open", "kind", "pk"))


def member_of(*, ladder_id: int, user: Any) -> LadderMember | None:
    """The user's current membership (with a position), or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return LadderMember.objects.filter(ladder_id=ladder_id, user=user, position__isnull=False).first()


def _standings(ladder_id: int) -> QuerySet[LadderMember]:
    return (
        LadderMember.objects.select_related("user")
        .filter(ladder_id=ladder_id, position__isnull=False)
        .order_by("position")
    )


def ladder_standings(*, ladder_id: int) -> list[LadderMember]:
    """The current members, top first."""
    return list(_standings(ladder_id))


# The ladder page shows its positions a page at a time, as the lobby its games, so that it
# costs the same however many members the ladder has (tests/ladder/test_ladder_pages.py).
STANDINGS_PAGE_SIZE = 50


# The ladder page and the API's ladder show the newest running games up to this many; the
# API's games endpoint lists them all, a page at a time.
RUNNING_SHOWN = 50


def standings_list(*, ladder_id: int) -> QuerySet[LadderMember]:
    """The current members, top first, for the API to page through (by position)."""
    return _standings(ladder_id)


def running_list(*, ladder_id: int) -> QuerySet[LadderChallenge]:
    """Ladder games in progress, newest first, for the API to page through."""
    return LadderChallenge.objects.select_related("challenger", "defender").filter(
        ladder_id=ladder_id, state=ChallengeState.PLAYING
    )


def running_challenges(*, ladder_id: int, limit: int = RUNNING_SHOWN) -> list[LadderChallenge]:
    """The newest ``limit`` ladder games in progress, newest first."""
    return list(running_list(ladder_id=ladder_id).order_by("-created_at", "-pk")[:limit])


def recent_changes(*, ladder_id: int, limit: int = constants.RECENT_CHANGES) -> list[LadderEvent]:
    """The latest joins, departures and climbs, newest first."""
    return list(LadderEvent.objects.select_related("user", "other").filter(ladder_id=ladder_id).order_by("-pk")[:limit])


def timeouts_count(*, ladder_id: int, user: Any, now: datetime) -> int:
    """How many ladder games the user ran out of time in, within the timeout window."""
    return LadderChallenge.objects.filter(
        ladder_id=ladder_id, timed_out=user, finished_at__gt=now - timedelta(days=constants.TIMEOUT_WINDOW_DAYS)
    ).count()


def challenge_refusal(
    *, ladder: Ladder, challenger: LadderMember | None, defender: LadderMember | None, now: datetime
) -> Exception | None:
    """Why ``challenger`` may not challenge ``defender`` now (the error to raise), or None."""
    if not ladder.is_open:
        return LadderConflict("ladder_closed")
    # A member who left has no position (LadderMember.is_member).
    if challenger is None or challenger.position is None:
        return LadderNotAllowed("not_a_member")
    if defender is None or defender.position is None:
        return LadderInvalid("defender_not_member")
    if challenger.user_id == defender.user_id:
        return LadderInvalid("self_challenge")
    if defender.position >= challenger.position:
        return LadderInvalid("not_above")
    if challenger.position - defender.position > ladder.max_places_up:
        return LadderInvalid("too_far", places=ladder.max_places_up)
    if not defender.user.is_active:
        return LadderInvalid("inactive_user")
    if is_blocked(blocker=defender.user, blocked=challenger.user):
        return LadderNotAllowed("blocked")
    if player_is_on_vacation(user=defender.user, now=now):
        return LadderConflict("on_vacation")
    playing = LadderChallenge.objects.filter(ladder=ladder, state=ChallengeState.PLAYING)
    pair = Q(challenger_id=challenger.user_id, defender_id=defender.user_id) | Q(
        challenger_id=defender.user_id, defender_id=challenger.user_id
    )
    if playing.filter(pair).exists():
        return LadderConflict("pair_busy")
    if playing.filter(challenger_id=challenger.user_id).count() >= constants.MAX_OUTGOING:
        return LadderConflict("too_many_outgoing", limit=constants.MAX_OUTGOING)
    if playing.filter(defender_id=defender.user_id).count() >= constants.MAX_INCOMING:
        return LadderConflict("too_many_incoming", limit=constants.MAX_INCOMING)
    if LadderChallenge.objects.filter(
        ladder=ladder,
        challenger_id=challenger.user_id,
        defender_id=defender.user_id,
        created_at__gt=now - timedelta(days=constants.REMATCH_DAYS),
    ).exists():
        return LadderConflict("too_soon", days=constants.REMATCH_DAYS)
    return None


def challengeable_members(*, ladder: Ladder, user: Any, now: datetime | None = None) -> list[LadderMember]:
    """The members ``user`` may challenge right now, top first."""
    now = now or timezone.now()
    me = member_of(ladder_id=ladder.pk, user=user)
    if me is None or me.position is None:  # not on the ladder (or left it)
        return []
    above = (
        LadderMember.objects.select_related("user")
        .filter(ladder=ladder, position__lt=me.position, position__gte=me.position - ladder.max_places_up)
        .order_by("position")
    )
    return [m for m in above if challenge_refusal(ladder=ladder, challenger=me, defender=m, now=now) is None]


@dataclass
class LadderPage:
    """The ladder page; each member shown carries ``rating`` (ratings.selectors.RatingShown)."""

    ladder: Ladder
    standings: list[LadderMember]
    me: LadderMember | None
    challengeable: list[LadderMember]
    running: list[LadderChallenge]
    changes: list[LadderEvent]
    standings_page: Page[Any] | None = field(default=None)
    """The page of positions shown, when ``standings`` is one page of them."""


def ladder_page(
    *, ladder_id: int, user: Any, now: datetime | None = None, page: Any = None, per_page: int = STANDINGS_PAGE_SIZE
) -> LadderPage:
    """Everything the ladder page shows; with ``page``, one page of the positions (a bad or
    out-of-range number: the nearest page), else all of them. Raises Ladder.DoesNotExist."""
    ladder = Ladder.objects.get(pk=ladder_id)
    standings_page = None
    if page is None:
        standings = ladder_standings(ladder_id=ladder_id)
    else:
        standings_page = Paginator(_standings(ladder_id), per_page).get_page(page)
        standings = list(standings_page.object_list)
    ratings = ratings_by_user(users=[m.user for m in standings], kind=ladder.kind, now=now)
    for member in standings:
        member.rating = ratings[member.user_id]  # type: ignore[attr-defined]
    challengeable = challengeable_members(ladder=ladder, user=user, now=now)
    for member in challengeable:
        member.rating = ratings[member.user_id]  # type: ignore[attr-defined]
    return LadderPage(
        ladder=ladder,
        standings=standings,
        me=member_of(ladder_id=ladder_id, user=user),
        challengeable=challengeable,
        running=running_challenges(ladder_id=ladder_id),
        changes=recent_changes(ladder_id=ladder_id),
        standings_page=standings_page,
    )


def positions_are_a_permutation(*, ladder_id: int) -> bool:
    """True when the members' positions are exactly 1..n, no gaps, no repeats."""
    positions = sorted(
        position
        for position in LadderMember.objects.filter(ladder_id=ladder_id).values_list("position", flat=True)
        if position is not None
    )
    return positions == list(range(1, len(positions) + 1))


def departed_players_playing(*, before: datetime) -> list[tuple[int, int]]:
    """(ladder id, user id) of the players who left a ladder before ``before`` and still have a
    running game of it: the task resigning those games was lost (its worker was killed)."""

    def departed(player: str) -> Exists:
        return Exists(
            LadderMember.objects.filter(
                ladder_id=OuterRef("ladder_id"), user_id=OuterRef(player), position__isnull=True, left_at__lt=before
            )
        )

    playing = LadderChallenge.objects.filter(state=ChallengeState.PLAYING)
    found = set(playing.filter(departed("challenger_id")).values_list("ladder_id", "challenger_id"))
    found |= set(playing.filter(departed("defender_id")).values_list("ladder_id", "defender_id"))
    return sorted(found)
