"""The events feed: what changed for a user, derived from the games' own rows.

Why derived and not stored: the games app writes moves, challenges, draw offers and
finished games anyway; reading those rows costs no extra write. Each event's time is a
column of its source row (``Challenge.created_at``/``responded_at``,
``Game.created_at``/``finished_at``, ``Move.created_at``, ``DrawOffer.created_at``).

"Your turn" has one derivation: ``games.services.game_turn_update`` starts a turn when
the player to move changes and numbers it (``Game.turn``, stamped on every ``Move`` and
on the "your turn" ``Alarm`` it schedules). The feed reads those numbers back
(:func:`games.selectors.turn_passing_moves`): a turn started for the user after the last
decision of the turn before. It does not read the Alarm rows, which are the mail's
queue: an unsent one is deleted when the game ends, the player is erased or the mail
is not wanted, and it names no move.

The cursor: events are ordered by (time in microseconds, kind rank, row id), and a
cursor is that triple as text. Row times are set just before their transaction
commits, so a row could become visible slightly after a later-stamped one; the feed
therefore only serves events older than ``API_EVENTS_SETTLE_SECONDS`` (default 2 s,
far longer than any games transaction). Everything at or before the cursor has then
been committed, so a client that always passes the last cursor never misses an event
and never sees one twice. Without a cursor the feed starts 7 days back.

Apps above games add their own rows to the feed through :func:`event_source_register`
(from their ``AppConfig.ready``), so that the feed stays the one source of a user's events
without games importing them: chat's ``message`` (what the other player wrote, hidden as
the game page hides it after a block). Their ranks are fixed in ``KIND_RANK`` like the others.
Outbound webhooks (webhooks/) read this same feed, each endpoint with its own cursor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from api.errors import ApiError

from .models import Challenge, ChallengeStatus, DrawOffer, Game, Move, Seat
from .selectors import turn_passing_moves


class EventKind(models.TextChoices):
    """The kinds of event in the feed (the API's ``EventKindEnum``)."""

    YOUR_TURN = "your_turn"
    GAME_STARTED = "game_started"
    GAME_OVER = "game_over"
    CHALLENGE_RECEIVED = "challenge_received"
    CHALLENGE_ANSWERED = "challenge_answered"
    DRAW_OFFERED = "draw_offered"
    MESSAGE = "message"


# Ties at the same microsecond are ordered by kind (part of the cursor: never renumber).
KIND_RANK: dict[str, int] = {
    EventKind.CHALLENGE_RECEIVED: 1,
    EventKind.CHALLENGE_ANSWERED: 2,
    EventKind.GAME_STARTED: 3,
    EventKind.YOUR_TURN: 4,
    EventKind.DRAW_OFFERED: 5,
    EventKind.GAME_OVER: 6,
    EventKind.MESSAGE: 7,
}
FIRST_LOOK_BACK = timedelta(days=7)
# How much earlier than its move's row a turn's start may be stamped (the move's service
# takes its ``now`` before it writes the row, in the same transaction).
TURN_STAMP_MARGIN = timedelta(minutes=10)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, order=True)
class Cursor:
    micros: int
    rank: int = 0
    row: int = 0

    def text(self) -> str:
        return "%d-%d-%d" % (self.micros, self.rank, self.row)

    @property
    def at(self) -> datetime:
        return EPOCH + timedelta(microseconds=self.micros)

    @classmethod
    def parse(cls, text: str) -> Cursor:
        try:
            micros, rank, row = (int(part) for part in text.split("-"))
            if micros < 0 or rank < 0 or row < 0 or micros > 10**17:
                raise ValueError(text)
        except ValueError:
            raise ApiError(
                "bad_cursor",
                "This cursor is not valid: pass the cursor of an earlier answer.",
                details={"after": text[:100]},
            ) from None
        return cls(micros, rank, row)

    @classmethod
    def of(cls, at: datetime, rank: int = 0, row: int = 0) -> Cursor:
        delta = at - EPOCH
        return cls((delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds, rank, row)


@dataclass
class Event:
    kind: str
    at: datetime
    row: int
    game_id: int | None = None
    challenge_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def cursor(self) -> Cursor:
        return Cursor.of(self.at, KIND_RANK[self.kind], self.row)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cursor": self.cursor.text(),
            "kind": self.kind,
            "at": self.at,
            "game_id": self.game_id,
            "challenge_id": self.challenge_id,
            "data": self.data,
        }


@dataclass
class EventPage:
    events: list[Event]
    cursor: Cursor
    has_more: bool


#: A source of another app: ``(user, between) -> (rows, time column, maker)``, where
#: ``between(column)`` gives the filter of the window and rows are bounded by the caller's limit
#: (``rows[:limit]`` oldest first, by the time column then pk).
Source = Callable[[Any, Callable[[str], dict[str, Any]], int], tuple[list[Any], str, Callable[[Any], "Event"]]]
_EXTRA_SOURCES: dict[str, Source] = {}


def event_source_register(*, kind: str, source: Source) -> None:
    """Add the rows of another app to the feed as events of ``kind`` (once, from its ready())."""
    if kind not in KIND_RANK:
        raise ValueError("event kind %r has no rank in KIND_RANK" % kind)
    known = _EXTRA_SOURCES.get(kind)
    if known is not None and known is not source:
        raise ValueError("event source %r is registered twice" % kind)
    _EXTRA_SOURCES[kind] = source


def _sources(user: Any, lower: datetime, upper: datetime, limit: int) -> list[tuple[list[Any], str, str, Any]]:
    """(rows, event kind, time column, maker) per source; each query bounded by ``limit`` rows, oldest first."""
    window = {"gte": lower, "lte": upper}

    def between(column: str) -> dict[str, Any]:
        return {"%s__%s" % (column, op): value for op, value in window.items()}

    # The user's games by their seats, then their times by their keys (a join from the seats
    # lets the planner hash the whole games table, as bench/scale.py saw): each source then
    # reads only the games where its kind of event can be in the window.
    seats = list(Seat.objects.filter(user=user).order_by().values_list("game_id", flat=True))
    times = (
        Game.objects.filter(pk__any_of=seats)
        .order_by()
        .values_list("pk", "created_at", "turn_started_at", "finished_at")
    )
    created_in, turned_in, ended_in, open_in = [], [], [], []
    for pk, created_at, turn_started_at, finished_at in times:
        if lower <= created_at <= upper:
            created_in.append(pk)
        # a turn that started in the window left turn_started_at at least as late (margin:
        # its start is stamped a moment before its move's row)
        if turn_started_at is not None and turn_started_at >= lower - TURN_STAMP_MARGIN:
            turned_in.append(pk)
        if finished_at is not None and lower <= finished_at <= upper:
            ended_in.append(pk)
        if finished_at is None or finished_at >= lower:  # draw offers are made in running games
            open_in.append(pk)
    received = (
        Challenge.objects.filter(opponent=user, **between("created_at"))
        .select_related("challenger")
        .order_by("created_at", "pk")[:limit]
    )
    answered = (
        Challenge.objects.filter(
            challenger=user, status__in=[ChallengeStatus.ACCEPTED, ChallengeStatus.DECLINED], **between("responded_at")
        )
        .select_related("accepted_by", "opponent")
        .order_by("responded_at", "pk")[:limit]
    )
    first_mover = Move.objects.filter(game=OuterRef("pk"), turn=1).values("seat__user")[:1]
    started = (
        Game.objects.filter(pk__any_of=created_in, **between("created_at"))
        .annotate(first_user=Subquery(first_mover))
        .only("pk", "kind", "created_at", "ply", "to_move_user")
        .order_by("created_at", "pk")[:limit]
    )
    # the moves of the games whose turn started in the window, by (game, created_at)
    moves = (
        turn_passing_moves(user=user, game_ids=turned_in)
        .filter(**between("created_at"))
        .select_related("seat")
        .order_by("created_at", "pk")[:limit]
    )
    offers = (
        DrawOffer.objects.filter(game__pk__any_of=open_in, **between("created_at"))
        .exclude(seat__user=user)
        .select_related("seat")
        .order_by("created_at", "pk")[:limit]
    )
    ended = (
        Game.objects.filter(pk__any_of=ended_in, **between("finished_at"))
        .only("pk", "status", "winner_side", "result_reason", "finished_at", "kind")
        .order_by("finished_at", "pk")[:limit]
    )

    def made_turn(move: Move) -> Event:
        return Event(
            EventKind.YOUR_TURN,
            move.created_at,
            move.pk,
            game_id=move.game_id,
            data={"ply": move.ply, "move": move.text, "by_side": move.seat.side},
        )

    extra = []
    for kind, source in sorted(_EXTRA_SOURCES.items()):
        rows, column, maker = source(user, between, limit)
        extra.append((rows, kind, column, maker))
    return [
        *extra,
        (
            list(received),
            EventKind.CHALLENGE_RECEIVED,
            "created_at",
            lambda c: Event(
                EventKind.CHALLENGE_RECEIVED,
                c.created_at,
                c.pk,
                challenge_id=c.pk,
                data={"kind": c.kind, "challenger": c.challenger.username},
            ),
        ),
        (
            list(answered),
            EventKind.CHALLENGE_ANSWERED,
            "responded_at",
            lambda c: Event(
                EventKind.CHALLENGE_ANSWERED,
                c.responded_at,
                c.pk,
                challenge_id=c.pk,
                game_id=c.game_id,
                data={"status": c.status},
            ),
        ),
        (
            list(started),
            EventKind.GAME_STARTED,
            "created_at",
            lambda g: Event(
                EventKind.GAME_STARTED,
                g.created_at,
                g.pk,
                game_id=g.pk,
                data={
                    "kind": g.kind,
                    "your_turn": g.first_user == user.pk
                    or (g.first_user is None and g.ply == 0 and g.to_move_user_id == user.pk),
                },
            ),
        ),
        (list(moves), EventKind.YOUR_TURN, "created_at", made_turn),
        (
            list(offers),
            EventKind.DRAW_OFFERED,
            "created_at",
            lambda o: Event(
                EventKind.DRAW_OFFERED,
                o.created_at,
                o.pk,
                game_id=o.game_id,
                data={"by_side": o.seat.side, "ply": o.ply},
            ),
        ),
        (
            list(ended),
            EventKind.GAME_OVER,
            "finished_at",
            lambda g: Event(
                EventKind.GAME_OVER,
                g.finished_at,
                g.pk,
                game_id=g.pk,
                data={"status": g.status, "winner_side": g.winner_side or None, "reason": g.result_reason},
            ),
        ),
    ]


def events_for_user(*, user: Any, after: Cursor | None, limit: int = 50, now: datetime | None = None) -> EventPage:
    """The user's events after ``after`` (oldest first), at most ``limit``."""
    now = now or timezone.now()
    upper = now - timedelta(seconds=settings.API_EVENTS_SETTLE_SECONDS)
    lower = after.at if after is not None else now - FIRST_LOOK_BACK
    if after is not None and after.at > upper:
        return EventPage([], after, False)
    found: list[Event] = []
    horizon: Cursor | None = None  # beyond it a truncated source may hold unread rows
    for rows, kind, column, make in _sources(user, lower, upper, limit + 1):
        if len(rows) > limit:
            rows = rows[:limit]
            last = rows[-1]
            edge = Cursor.of(getattr(last, column), KIND_RANK[kind], last.pk)
            horizon = edge if horizon is None else min(horizon, edge)
        for row in rows:
            event = make(row)
            if event is not None and (after is None or event.cursor > after):
                found.append(event)
    found.sort(key=lambda e: e.cursor)
    if horizon is not None:
        found = [e for e in found if e.cursor <= horizon]
    has_more = horizon is not None or len(found) > limit
    found = found[:limit]
    if found:
        cursor = found[-1].cursor
    elif has_more:
        cursor = horizon if horizon is not None else (after or Cursor.of(lower))
    else:
        cursor = max(Cursor.of(upper, len(KIND_RANK) + 1), after) if after else Cursor.of(upper, len(KIND_RANK) + 1)
    return EventPage(found, cursor, has_more)
