"""Read-only queries of the games app: lobby lists, history, a game as a viewer sees it.

Nothing returned here holds the engine's full state or the seed of a running
game: the board comes from the engine's ``view``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connections, router
from django.db.models import (
    BooleanField,
    Case,
    Count,
    DateTimeField,
    Exists,
    F,
    JSONField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import JSONObject, Now
from django.utils import timezone

from accounts.selectors import block_made_among
from engine.core import replay
from engine.errors import EngineError
from maatasite.sql_once import built_once, instances_once, rows_once, value_once
from maatasite.task_policy import on_commit_run

from .models import (
    BotAdjudication,
    Challenge,
    ChallengeStatus,
    ConditionalLines,
    DrawOffer,
    DrawOfferStatus,
    Game,
    GameStatus,
    Move,
    ResultReason,
    Seat,
)
from .rules import (
    LegalMove,
    game_can_abort,
    game_secret,
    game_state,
    legal_moves_at,
    legal_moves_of,
    move_of_text,
    rules_for,
)


def _with_seats(qs: QuerySet[Game]) -> QuerySet[Game]:
    return qs.defer("sealed_state", "sealed_seed").prefetch_related("seats__user")


# What a row of the lobby's lists shows (games.views._lobby_rows_html, _lobby_history_html):
# a row read whole costs Django more to make than PostgreSQL to send (the game's 35 columns,
# the player's 20), and the lobby of a busy player shows 30 of them. The seats and their
# players stay two reads by key: a join of the seats to the players let the planner walk the
# whole players table (tests/test_scale_queries.py saw it in CI).
_LOBBY_ROW_FIELDS = ("kind", "options", "status", "deadline", "created_at")
_HISTORY_ROW_FIELDS = ("kind", "options", "status", "winner_side", "result_reason", "finished_at")
_SEAT_FIELDS = ("game", "side", "position", "bot_level", "user")
_PLAYER_NAME_FIELDS = ("username", "display_name", "deleted_at")


def _with_seat_names(qs: QuerySet[Game], fields: tuple[str, ...]) -> QuerySet[Game]:
    """``qs`` with only ``fields`` of each game, and its seats with what ``Seat.player_name``
    reads of their players (a field read beyond these costs a query per row: the lobby's
    tests count them)."""
    players = get_user_model().objects.only(*_PLAYER_NAME_FIELDS)
    return qs.only(*fields).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.only(*_SEAT_FIELDS)), Prefetch("seats__user", queryset=players)
    )


@dataclass
class LobbyGame:
    game: Game
    my_side: str
    my_turn: bool
    opponent: str
    time_left: timedelta | None


# The lobby lists a player's running games a page at a time ("your turn" ones first), and
# the history page their finished games (games.archive.games_archive_page), so either page
# costs the same however many games a player has (tests/games/test_lobby_queries.py and
# tests/games/test_archive.py count the queries). A page of the lobby holds 20 games: a row
# costs about 0.25 ms of CPU to read and draw (bench/profile_game.py --lobby), so with 50 a
# busy player's lobby took 1.7 to 2.1 times the lobby of a player with a few games.
LOBBY_PAGE_SIZE = 20
HISTORY_PAGE_SIZE = 50


def player_game_ids(*, user: Any) -> frozenset[int]:
    """The ids of the games ``user`` has a seat in, read from the seats alone (the index on
    ``games_seat.user_id``). The player's lists then read those games by primary key: a
    join from the seats to the games lets the planner hash the whole games table once a
    player has many games (bench/scale.py saw it; games/events.py reads the same way), and
    tests/test_scale_queries.py checks that no list reads a growing table whole.

    A frozenset, not a list: Django's query builder walks a list or tuple given to a lookup
    element by element (for expressions in it), 10,000 calls for a player with 10,000 games at
    each query that reads by these ids (maatasite.db_lookups sends them as one array)."""
    if user is None or not getattr(user, "is_authenticated", True):
        return frozenset()
    return frozenset(Seat.objects.filter(user=user).order_by().values_list("game_id", flat=True))


def _lobby_games(user: Any, game_ids: Collection[int] | None = None) -> QuerySet[Game]:
    ids = player_game_ids(user=user) if game_ids is None else game_ids
    return (
        _with_seat_names(Game.objects.filter(status=GameStatus.ACTIVE, pk__any_of=ids), _LOBBY_ROW_FIELDS)
        .annotate(
            my_turn=Case(When(to_move_user=user, then=Value(True)), default=Value(False), output_field=BooleanField())
        )
        .order_by("-my_turn", F("deadline").asc(nulls_last=True), "-created_at", "-pk")
    )


def _lobby_rows(games: Any, user: Any, now: datetime) -> list[LobbyGame]:
    rows = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        others = [s.player_name for s in seats if s.pk != mine.pk]
        rows.append(
            LobbyGame(
                game=game,
                my_side=mine.side,
                my_turn=game.my_turn,
                opponent=", ".join(others),
                time_left=(game.deadline - now) if game.deadline else None,
            )
        )
    return rows


def games_for_lobby(*, user: Any, now: datetime | None = None) -> list[LobbyGame]:
    """The user's running games: those where it is their turn first, least time left first
    (all of them: the lobby page reads one page, :func:`games_for_lobby_page`)."""
    return _lobby_rows(_lobby_games(user), user, now or timezone.now())


@dataclass
class LobbyGames:
    rows: list[LobbyGame]
    page: Page[Any]


def games_for_lobby_page(
    *,
    user: Any,
    page: Any = 1,
    per_page: int = LOBBY_PAGE_SIZE,
    now: datetime | None = None,
    game_ids: Collection[int] | None = None,
) -> LobbyGames:
    """One page of :func:`games_for_lobby` (a bad or out-of-range page number: the nearest
    page, as ``Paginator.get_page`` does), in a constant number of queries: the page with the
    count of all (a window over the same rows: the count's own query read every game of the
    player once more) and its seats; a page past the end costs the count and the last page
    again. ``game_ids``: :func:`player_game_ids` of ``user``, when the caller read them for
    another list too."""
    games = _lobby_games(user, game_ids)
    paginator = Paginator(games, per_page)
    try:
        number = int(page)
    except (TypeError, ValueError):
        number = 1
    counted = []
    if 1 <= number <= 1_000_000:  # (beyond: past any player's games, and past SQL's OFFSET)
        counted = list(games.annotate(lobby_total=Window(Count("pk")))[(number - 1) * per_page : number * per_page])
    if counted:
        paginator.count = counted[0].lobby_total  # the window's
        shown = Page(counted, number, paginator)
    elif number == 1:
        paginator.count = 0
        shown = Page([], 1, paginator)
    else:  # past the end, zero or negative: the last page, as get_page gives it
        shown = paginator.get_page(number)
    return LobbyGames(rows=_lobby_rows(shown.object_list, user, now or timezone.now()), page=shown)


# The count in every page's header is kept in the cache: a game's save forgets its players'
# counts after the commit (games_waiting_forget), and this bounds what a write that bypasses
# save() (a queryset update) could leave behind.
WAITING_COUNT_SECONDS = 60


def games_waiting_key(user_id: int) -> str:
    """The cache key of :func:`games_waiting_count` (a page may read it with others at once)."""
    return "games:waiting:%d" % user_id


def games_waiting_count(*, user: Any, cache_read: bool = True) -> int:
    """How many running games wait for ``user``'s move (the lobby's "your turn" rows): one
    query, kept in the cache until one of the player's games changes. ``cache_read`` False:
    the caller has just found the cache without it (counted, then kept)."""
    key = games_waiting_key(user.pk)
    count = cache.get(key) if cache_read else None
    if count is None:
        count = value_once(
            WAITING_COUNT_SQL,
            queryset=_waiting_count_query,
            placeholder=_USER_ID_PLACEHOLDER,
            value=user.pk,
            alias=router.db_for_read(Game),
            default=0,
        )
        cache.set(key, count, WAITING_COUNT_SECONDS)
    return int(count)


WAITING_COUNT_SQL = "games_waiting_count"  # its name in maatasite.sql_once
_USER_ID_PLACEHOLDER = -7_001_009  # an id no account has: the compiled SQL's variable parameter


def _waiting_count_query(user_id: int) -> QuerySet[Any]:
    """The count of the running games where it is ``user_id``'s move: one row, or none for 0
    (a count grouped by the player, as a one-column query; the SQL is built once since every
    page's header asks for it after each of the player's games changes)."""
    return (
        Game.objects.filter(status=GameStatus.ACTIVE, to_move_user_id=user_id)
        .order_by()
        .values("to_move_user_id")
        .annotate(waiting=Count("pk"))
        .values_list("waiting", flat=True)
    )


def games_waiting_on_save(sender: Any, instance: Game, raw: bool = False, **kwargs: Any) -> None:
    """post_save of Game (connected in GamesConfig.ready): every save may change whose move it is."""
    if not raw and not kwargs.get("created"):  # a game being made has no seats yet
        games_waiting_forget(game=instance)


def games_waiting_forget(*, game: Game) -> None:
    """After ``game``'s row was saved (whose move it is, its status): its players' counts are
    read again. Forgotten now and once more after the commit: a page read in between may have
    counted the rows of before the commit again (a rolled-back save costs one count)."""
    keys = [games_waiting_key(user_id) for user_id in game_user_ids(game)]
    if keys:
        cache.delete_many(keys)
        on_commit_run(lambda: cache.delete_many(keys), what="games_waiting_forget")


@dataclass
class LobbyChallenges:
    incoming: list[Challenge]
    outgoing: list[Challenge]
    open_to_all: list[Challenge]


# The lobby shows at most this many challenges of each kind (the newest), however many
# there are: no page reads a list that grows without bound.
LOBBY_CHALLENGES_SHOWN = 50


def challenges_for_lobby(*, user: Any, now: datetime | None = None) -> LobbyChallenges:
    """Open, unexpired challenges: to the user, by the user, and open to anyone (the newest
    ``LOBBY_CHALLENGES_SHOWN`` of each)."""
    if now is None and user is not None and user.is_authenticated:
        return _challenges_for_lobby_now(user)
    now = now or timezone.now()
    shown = LOBBY_CHALLENGES_SHOWN
    live = (
        Challenge.objects.filter(status=ChallengeStatus.OPEN, expires_at__gt=now)
        .select_related("challenger", "opponent")
        .order_by("-created_at", "-pk")
    )
    if user is None or not user.is_authenticated:
        return LobbyChallenges([], [], list(live.filter(opponent__isnull=True)[:shown]))
    return LobbyChallenges(
        incoming=list(live.filter(opponent=user)[:shown]),
        outgoing=list(live.filter(challenger=user)[:shown]),
        open_to_all=list(live.filter(opponent__isnull=True).exclude(challenger=user)[:shown]),
    )


def _live_challenges_now() -> QuerySet[Challenge]:
    """challenges_for_lobby's ``live`` at the database's own time (Now())."""
    return (
        Challenge.objects.filter(status=ChallengeStatus.OPEN, expires_at__gt=Now())
        .select_related("challenger", "opponent")
        .order_by("-created_at", "-pk")
    )


# The lobby's three lists of challenges for a signed-in player, each read through its SQL built
# once (maatasite.sql_once): building the three queries cost the lobby about 3 ms of CPU when
# there was no challenge to read. The time they compare with is the database's (Now()).
_LOBBY_CHALLENGE_LISTS: dict[str, Callable[[int], QuerySet[Challenge]]] = {
    "incoming": lambda user_id: _live_challenges_now().filter(opponent_id=user_id)[:LOBBY_CHALLENGES_SHOWN],
    "outgoing": lambda user_id: _live_challenges_now().filter(challenger_id=user_id)[:LOBBY_CHALLENGES_SHOWN],
    "open_to_all": lambda user_id: (
        _live_challenges_now().filter(opponent__isnull=True).exclude(challenger_id=user_id)[:LOBBY_CHALLENGES_SHOWN]
    ),
}


def _challenges_for_lobby_now(user: Any) -> LobbyChallenges:
    alias = router.db_for_read(Challenge)
    lists = {
        name: instances_once(
            "lobby_challenges:%s:%d" % (name, LOBBY_CHALLENGES_SHOWN),  # the limit is in the SQL
            queryset=query,
            placeholder=_USER_ID_PLACEHOLDER,
            value=user.pk,
            alias=alias,
        )
        for name, query in _LOBBY_CHALLENGE_LISTS.items()
    }
    return LobbyChallenges(**lists)


def _history(user: Any, game_ids: Collection[int] | None = None) -> QuerySet[Game]:
    ids = player_game_ids(user=user) if game_ids is None else game_ids
    games = Game.objects.filter(pk__any_of=ids).exclude(status=GameStatus.ACTIVE)
    return _with_seat_names(games, _HISTORY_ROW_FIELDS).order_by(F("finished_at").desc(nulls_last=True), "-pk")


def games_history(*, user: Any, limit: int = 100, game_ids: Collection[int] | None = None) -> list[Game]:
    """The user's finished and aborted games, latest first (``game_ids``: as for
    :func:`games_for_lobby_page`)."""
    return list(_history(user, game_ids)[:limit])


@dataclass
class GamePage:
    """A game as one viewer sees it, at the shown ply.

    ``legal_moves``: only for the player to move, at the current ply; each with its
    ``preview`` (``games.rules.LegalMove``), so that the board can show what a move
    would do before it is confirmed.
    """

    game: Game
    seats: list[Seat]
    moves_once: Callable[[], list[Move]]
    """The game's moves by ply, read at the first ask (``moves``): a page whose parts all come
    from the cache never reads them."""
    viewer_seat: Seat | None
    shown_ply: int
    view: dict[str, Any]
    is_current: bool
    legal_moves: list[LegalMove] = field(default_factory=list)
    last_move: LegalMove | None = None
    """The decision that led to the shown position, with its parts (None at the start)."""
    my_turn: bool = False
    can_abort: bool = False
    can_offer_draw: bool = False
    draw_offer: DrawOffer | None = None
    draw_offer_to_me: bool = False
    time_left: timedelta | None = None
    kept_asked: frozenset[str] = frozenset()
    """The names of the cache values the caller asked to read with the position
    (:func:`game_for_viewer`'s ``kept_keys``), in its one round trip."""
    kept: dict[str, Any] = field(default_factory=dict)
    """Those of them the cache held, by name (one asked for and missing is not here)."""
    kept_drawn: dict[str, Any] = field(default_factory=dict)
    """What the caller drew of those missing, by cache key, to keep in one round trip once
    the page is drawn (games.views.game_detail)."""

    @property
    def moves(self) -> list[Move]:
        return self.moves_once()

    @property
    def seats_by_side(self) -> dict[str, Seat]:
        return {s.side: s for s in self.seats}

    @property
    def bot_to_move(self) -> bool:
        """A bot's turn in a running game: a worker is choosing its move, and the page
        says so while it polls for the move (static/games/game.js)."""
        if self.game.status != GameStatus.ACTIVE:
            return False
        seat = self.seats_by_side.get(self.game.to_move_side)
        return seat is not None and seat.is_bot


# A position never changes once reached, so what is read from it is kept in the cache
# (CACHE_URL) rather than read again on every request: the viewer's ``view``, the move
# that led to it and the legal moves of the player to move. The key names the game by its
# seed commitment (unique per game, so a reused id in a test database cannot collide) and
# the position by its ply and, at the current ply, a digest of the sealed state itself (a
# resignation or time-out that the engine records changes the state at the same ply).
POSITION_CACHE_SECONDS = 6 * 3600
_MISSING = object()


# ``has_conditional_lines``: whether the seat's player has queued conditional lines (Onitama),
# read with the seats; a move reads them only then (games.services._conditional_answer).
SEATS_WITH_USERS = Prefetch(
    "seats",
    queryset=Seat.objects.select_related("user")
    .annotate(
        has_conditional_lines=Exists(ConditionalLines.objects.filter(seat=OuterRef("pk"))),
        # when this seat's player blocked another player seated in the game (NULL: never): the
        # chat panel of a two-player game reads its blocks here rather than in a query of its own
        co_player_blocked_at=block_made_among(
            blocker=OuterRef("user_id"),
            blocked_among=Seat.objects.filter(game_id=OuterRef(OuterRef("game_id"))).order_by().values("user_id"),
        ),
    )
    .order_by("position"),
)
# The game's pending draw offer (at most one: games_one_pending_draw_offer), read in the game's
# own query as {"id", "seat_id", "ply"} or None: a round trip less for every page and detail.
PENDING_DRAW_OFFER = Subquery(
    DrawOffer.objects.filter(game=OuterRef("pk"), status=DrawOfferStatus.PENDING)
    .order_by()
    .annotate(offer=JSONObject(id="id", seat_id="seat_id", ply="ply"))
    .values("offer")[:1],
    output_field=JSONField(),
)

# A game's row and its seats are the first reads of every game page, move and API detail: their
# SQL is built once per process and database (maatasite.sql_once), since building these ORM
# queries (a subquery, a join and an EXISTS) cost Django about three times what running them
# costs. A test compares what they read with the ORM's.
_GAME_ID_PLACEHOLDER = -7_001_005  # an id no game has: the compiled SQL's variable parameter


# What apps built on games read with a game's row, as every game page reads it (not the row
# locked for a write): by name, a function making an expression over the outer game (such as
# ``Exists(...filter(game=OuterRef("pk")))``), registered in the app's AppConfig.ready, since
# games imports none of them. The chat registers whether the game has messages, so that a
# page of a game without any (most games) makes no query of them (chat.selectors.game_messages).
GAME_ROW_EXTRAS: dict[str, Callable[[], Any]] = {}


def game_row_extra_register(name: str, expression: Callable[[], Any]) -> None:
    """Read ``expression()`` as ``name`` on the game's row that pages read (game_row, unlocked).
    Call from AppConfig.ready: the row's SQL is built once, at its first read."""
    GAME_ROW_EXTRAS[name] = expression


def _game_query(game_id: int, *, lock: bool, with_draw_offer: bool) -> QuerySet[Game]:
    rows = Game.objects.filter(pk=game_id)
    if lock:
        rows = rows.select_for_update()
    if with_draw_offer:
        rows = rows.annotate(pending_draw_offer=PENDING_DRAW_OFFER)
    if not lock and GAME_ROW_EXTRAS:
        rows = rows.annotate(**{name: expression() for name, expression in GAME_ROW_EXTRAS.items()})
    return rows


def _game_sql_name(*, lock: bool, with_draw_offer: bool) -> str:
    return "game_row%s%s" % (":locked" if lock else "", ":draw_offer" if with_draw_offer else "")


def game_row(*, game_id: int, lock: bool = False, with_draw_offer: bool = False) -> Game:
    """The game's row: the ORM's ``Game.objects.get(pk=game_id)``, ``select_for_update()`` when
    ``lock`` (inside a transaction), with ``pending_draw_offer`` (PENDING_DRAW_OFFER) when
    ``with_draw_offer``, through its SQL built once. Raises Game.DoesNotExist."""
    found = instances_once(
        _game_sql_name(lock=lock, with_draw_offer=with_draw_offer),
        queryset=lambda game_id: _game_query(game_id, lock=lock, with_draw_offer=with_draw_offer),
        placeholder=_GAME_ID_PLACEHOLDER,
        value=game_id,
        alias=router.db_for_write(Game) if lock else router.db_for_read(Game),
    )
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return found[0]


def rows_of_game(name: str, *, queryset: Callable[[int], QuerySet[Any]], game: Game) -> list[Any]:
    """The rows ``queryset(game.pk)`` gives (a model with a ``game`` key: seats, moves, chat
    messages), through its SQL built once (maatasite.sql_once) under ``name``, each with its
    game set to ``game``, as reading them through the game's related manager sets it."""
    rows = instances_once(
        name, queryset=queryset, placeholder=_GAME_ID_PLACEHOLDER, value=game.pk, alias=router.db_for_read(Game)
    )
    for row in rows:
        row._meta.get_field("game").set_cached_value(row, game)
    return rows


GAME_STATUS_SQL = "game_status"  # its name in maatasite.sql_once


def _status_query(game_id: int) -> QuerySet[Any]:
    return Game.objects.filter(pk=game_id).values_list("pk", "ply", "turn", "status", "to_move_side")


def game_status_of(*, game_id: int) -> dict[str, Any] | None:
    """What an open game page polls to know whether to reload (games.views.game_status): its
    ply, turn, status and side to move, or None for an unknown game; through its SQL built once,
    since every open page asks it again and again."""
    rows = rows_once(
        GAME_STATUS_SQL,
        queryset=_status_query,
        placeholder=_GAME_ID_PLACEHOLDER,
        value=game_id,
        alias=router.db_for_read(Game),
    )
    if not rows:
        return None
    pk, ply, turn, status, to_move_side = rows[0]
    return {"id": pk, "ply": ply, "turn": turn, "status": status, "to_move": to_move_side or None}


GAME_SEATS_SQL = "game_seats"  # its name in maatasite.sql_once


def _seats_query(game_id: int) -> QuerySet[Seat]:
    """SEATS_WITH_USERS's rows for one game."""
    assert SEATS_WITH_USERS.queryset is not None
    return SEATS_WITH_USERS.queryset.filter(game_id=game_id)


def game_seats(game: Game) -> list[Seat]:
    """The game's seats in seat order, with their users: read once per game object (kept in
    its prefetch cache, as ``prefetch_related(SEATS_WITH_USERS)`` keeps them), so a move's
    checks, its turn change, its signals' receivers and the page answered after it share one
    query, whose SQL is built once."""
    prefetched = getattr(game, "_prefetched_objects_cache", None)
    if prefetched is None or "seats" not in prefetched:
        seats = rows_of_game(GAME_SEATS_SQL, queryset=_seats_query, game=game)
        kept = game.seats.get_queryset()
        kept._result_cache = seats
        kept._prefetch_done = True  # type: ignore[attr-defined]
        game._prefetched_objects_cache = {**(prefetched or {}), "seats": kept}  # type: ignore[attr-defined]
    return list(game.seats.all())


def game_users(game: Game) -> list[Any]:
    """The game's human players (bots have no user), in seat order: no query when its seats were
    read (game_seats), else one that keeps nothing."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return [seat.user for seat in game.seats.all() if seat.user is not None]
    seats = Seat.objects.filter(game=game, user__isnull=False).select_related("user").order_by("position")
    return [seat.user for seat in seats]


def game_user_ids(game: Game | int) -> list[int]:
    """The ids of the game's human players, in seat order, for a game or its id: no query when
    its seats were read (game_seats), else one that keeps nothing (a game being made has no
    seats yet)."""
    if isinstance(game, Game) and "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return [seat.user_id for seat in game.seats.all() if seat.user_id]
    game_id = game.pk if isinstance(game, Game) else game
    seats = Seat.objects.filter(game_id=game_id, user__isnull=False).order_by("position")
    return [user_id for user_id in seats.values_list("user_id", flat=True) if user_id]


def position_key(game: Game, shown: int) -> str:
    """The cache key prefix of the position after ply ``shown`` of ``game`` (also the
    board's, games/views.py)."""
    if shown == game.ply:
        version = hashlib.blake2b(game.sealed_state.encode(), digest_size=12).hexdigest()
    else:
        version = "replay"
    return "games:pos:%s:%s:%d:%s" % (game.seed_commitment, game.data_version or "-", shown, version)


GAME_MOVES_SQL = "game_moves"  # its name in maatasite.sql_once


def _moves_query(game_id: int) -> QuerySet[Move]:
    return Move.objects.filter(game_id=game_id).select_related("seat").order_by("ply")


def game_moves(game: Game) -> list[Move]:
    """``game.moves.select_related("seat").order_by("ply")``'s moves, each with its game set to
    ``game`` as the related manager sets it, through its SQL built once (a page that follows a
    move reads them for its move list)."""
    return rows_of_game(GAME_MOVES_SQL, queryset=_moves_query, game=game)


class _MovesOnce:
    """A game's moves by ply (with their seats), read at the first call only."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rows: list[Move] | None = None

    def __call__(self) -> list[Move]:
        if self.rows is None:
            self.rows = game_moves(self.game)
        return self.rows


def _position_reads(
    game: Game,
    moves: Callable[[], list[Move]],
    shown: int,
    side: str | None,
    *,
    legal: bool,
    previews: bool,
    moved: bool = False,
    also: dict[str, str] | None = None,
) -> tuple[dict[str, Any], LegalMove | None, list[LegalMove], set[str] | None, dict[str, Any]]:
    """(the view of ``side``, the move before, the legal moves when ``legal``, the sides that
    have moved when ``moved``: see :func:`_sides_moved`, the values of ``also``'s keys found, by
    name) of the position after ply ``shown``, from the cache in one round trip, or else from
    the engine state, read (and parsed) at most once. ``also``: other keys the caller reads in
    that round trip (by name; what is missing there is the caller's to fill)."""
    prefix = position_key(game, shown)
    names = {
        "view": "%s:view:%s" % (prefix, side or "-"),
        "last": "%s:last" % prefix,
        "legal": "%s:legal%s" % (prefix, ":previews" if previews else ""),
        "moved": _sides_moved_key(game),
    }
    if not legal:
        del names["legal"]
    if not moved:
        del names["moved"]
    also = also or {}
    found = cache.get_many([*names.values(), *(key for key in also.values() if key not in names.values())])
    kept = {name: found[key] for name, key in also.items() if key in found}
    values = {name: found.get(key, _MISSING) for name, key in names.items()}
    if any(value is _MISSING for value in values.values()):
        rules = rules_for(game.kind)
        states: list[Any] = []

        def state() -> Any:
            if not states:
                if shown == game.ply:
                    states.append(game_state(game))
                else:
                    _salt, seed = game_secret(game)
                    states.append(
                        replay(
                            rules,
                            seed,
                            game.options,
                            [m.text for m in moves()[:shown]],
                            data_version=game.data_version or None,
                        )
                    )
            return states[0]

        missing: dict[str, Any] = {}
        if values["view"] is _MISSING:
            missing[names["view"]] = values["view"] = rules.view(state(), side)
        if values["last"] is _MISSING:
            missing[names["last"]] = values["last"] = _move_before(game, moves(), shown)
        if legal and values["legal"] is _MISSING:
            try:
                values["legal"] = legal_moves_of(kind=game.kind, state=state(), previews=previews)
            except EngineError:
                values["legal"] = []
            missing[names["legal"]] = values["legal"]
        if "moved" in names and values["moved"] is _MISSING:
            missing[names["moved"]] = values["moved"] = sorted({m.seat.side for m in moves()})
        cache.set_many(missing, POSITION_CACHE_SECONDS)
    moved_sides = set(values["moved"]) if "moved" in values else None
    return values["view"], values["last"], list(values.get("legal") or []), moved_sides, kept


def game_for_viewer(
    *,
    game_id: int,
    user: Any,
    ply: int | None = None,
    now: datetime | None = None,
    previews: bool = False,
    game: Game | None = None,
    kept_keys: Callable[[Game, int, Seat | None], dict[str, str]] | None = None,
) -> GamePage:
    """The game page data for ``user`` (anonymous: a spectator); ``ply`` shows an earlier position.
    ``previews``: the player to move's legal moves carry the engine's preview of their result
    (up to a few ms for a crowded Maatatahay decision; what sends no preview does not ask for one).
    The seats (with their users) come prefetched on ``page.game.seats.all()``.

    ``game``: the game's row as the caller has just written it (the answer to a move, in the
    move's transaction), not read again.

    ``kept_keys(game, shown ply, viewer's seat)``: the cache keys, by name, of what the caller
    will draw for this page (the board, the move list: games.views.game_detail), read in the
    position's round trip; found in ``page.kept``.

    Raises Game.DoesNotExist for an unknown game.
    """
    now = now or timezone.now()
    if game is None or game.pk != game_id:
        game = game_row(game_id=game_id, with_draw_offer=True)
    seats = game_seats(game)
    moves = _MovesOnce(game)
    viewer_seat = None
    if user is not None and getattr(user, "is_authenticated", False):
        viewer_seat = next((s for s in seats if s.user_id == user.pk), None)
    shown = game.ply if ply is None else max(0, min(int(ply), game.ply))
    side = viewer_seat.side if viewer_seat else None
    active_seat = game.status == GameStatus.ACTIVE and viewer_seat is not None
    my_turn = active_seat and game.to_move_side == side
    also = kept_keys(game, shown, viewer_seat) if kept_keys is not None else {}
    view, last_move, legal_moves, moved, kept = _position_reads(
        game,
        moves,
        shown,
        side,
        legal=my_turn and shown == game.ply,
        previews=previews,
        moved=active_seat,
        also=also,
    )
    page = GamePage(
        game=game,
        seats=seats,
        moves_once=moves,
        viewer_seat=viewer_seat,
        shown_ply=shown,
        view=view,
        is_current=shown == game.ply,
        last_move=last_move,
        legal_moves=legal_moves,
        my_turn=my_turn,
        kept_asked=frozenset(also),
        kept=kept,
    )
    if game.deadline:
        page.time_left = game.deadline - now
    if active_seat and viewer_seat is not None:
        page.can_abort = game_can_abort(game, moved=_sides_moved(game, moves) if moved is None else moved)
        if game.allows_draws:
            offer = pending_draw_offer(game)
            page.draw_offer = offer
            page.draw_offer_to_me = offer is not None and offer.seat_id != viewer_seat.pk
            page.can_offer_draw = offer is None or page.draw_offer_to_me
    return page


def pending_draw_offer(game: Game) -> DrawOffer | None:
    """The game's pending draw offer: from its row's ``pending_draw_offer`` when it was read
    with PENDING_DRAW_OFFER, else read now (a game row the caller has just written)."""
    if not hasattr(game, "pending_draw_offer"):
        return game.draw_offers.filter(status=DrawOfferStatus.PENDING).first()
    read = game.pending_draw_offer
    if read is None:
        return None
    return DrawOffer(pk=read["id"], game=game, seat_id=read["seat_id"], ply=read["ply"], status=DrawOfferStatus.PENDING)


def _sides_moved_key(game: Game) -> str:
    return "%s:moved" % position_key(game, game.ply)


def _sides_moved(game: Game, moves: Callable[[], list[Move]]) -> set[str]:
    """The sides that have made a decision in the game so far, kept in the cache with its
    current position (whether the game may still be aborted)."""
    key = _sides_moved_key(game)
    moved = cache.get(key)
    if moved is None:
        moved = sorted({m.seat.side for m in moves()})
        cache.set(key, moved, POSITION_CACHE_SECONDS)
    return set(moved)


def last_move_of(*, game: Game, moves: list[Move] | None = None) -> LegalMove | None:
    """The decision that led to the game's current position, with its parts (``squares``
    marks it on a board); None before the first. ``moves``: the game's moves by ply, when
    the caller loaded them (for many games in one query)."""
    if game.ply < 1:
        return None
    if moves is None:
        moves = list(game.moves.order_by("ply"))
    return _move_before(game, moves, game.ply)


@dataclass(frozen=True)
class SquarePreviews:
    """The legal moves on one square with their previews, at ply ``ply``."""

    ply: int
    moves: list[LegalMove]


def previews_for_viewer(*, game_id: int, user: Any, square: str | None) -> SquarePreviews | None:
    """The moves on ``square`` (None: those on no square) with the engine's previews, for
    the player to move only (None for anyone else, or once the game is over). Only these
    previews are computed: no other square's, no page, no replay.

    Raises Game.DoesNotExist for an unknown game."""
    game = Game.objects.get(pk=game_id)
    if game.status != GameStatus.ACTIVE or user is None or not getattr(user, "is_authenticated", False):
        return None
    if not game.seats.filter(user_id=user.pk, side=game.to_move_side).exists():
        return None
    try:
        moves = legal_moves_at(kind=game.kind, state=game_state(game), square=square)
    except EngineError:
        moves = []
    return SquarePreviews(ply=game.ply, moves=moves)


def _move_before(game: Game, moves: list[Move], shown: int) -> LegalMove | None:
    """The move of ply ``shown`` with its parts: those kept with it when it was played
    (Move.parts); for a move recorded before they were kept, read in the position before
    it (a replay of the moves before: a few milliseconds for a whole game of Maatatahay)."""
    if shown < 1 or len(moves) < shown:
        return None
    record = moves[shown - 1]
    if record.parts:
        return LegalMove(text=record.text, parts=record.parts)
    _salt, seed = game_secret(game)
    try:
        before = replay(
            rules_for(game.kind),
            seed,
            game.options,
            [m.text for m in moves[: shown - 1]],
            data_version=game.data_version or None,
        )
        return move_of_text(kind=game.kind, state=before, text=moves[shown - 1].text)
    except EngineError:
        return None


def game_list_for_player(*, user: Any, finished: bool = True, limit: int = 50) -> list[Game]:
    """A player's games for their public page: finished and aborted ones (``finished``), else running ones."""
    if finished:
        return games_history(user=user, limit=limit)
    return list(
        _with_seats(Game.objects.filter(pk__any_of=player_game_ids(user=user), status=GameStatus.ACTIVE)).order_by(
            "-created_at"
        )[:limit]
    )


def bot_turns_overdue(*, before: datetime, limit: int) -> list[tuple[int, int]]:
    """(game id, ply) of the running games, oldest turn first, whose bot has been to move
    since before ``before`` and made no decision since: the bot task was lost (its worker
    was killed mid-move) or waits in a crowded queue. ``Game.to_move_user`` is empty only
    while the bot is to move; the partial index ``games_bot_to_move`` holds just those
    games, so this stays cheap however many games there are. A game whose bot failed on
    every try (``bot_failed_at``) waits for staff, never for the sweep.
    """
    bot_to_move = Seat.objects.filter(game=OuterRef("pk"), side=OuterRef("to_move_side"), bot_level__isnull=False)
    recent_decision = Move.objects.filter(game=OuterRef("pk"), ply=OuterRef("ply"), created_at__gte=before)
    return list(
        Game.objects.filter(
            status=GameStatus.ACTIVE,
            bot_level__isnull=False,
            to_move_user__isnull=True,
            turn_started_at__lt=before,
            bot_failed_at__isnull=True,
        )
        .filter(Exists(bot_to_move))
        .exclude(Exists(recent_decision))
        .order_by("turn_started_at", "pk")
        .values_list("pk", "ply")[:limit]
    )


def turn_passing_moves(*, user: Any, game_ids: Collection[int] | None = None) -> QuerySet[Move]:
    """The decisions after which ``user``'s turn started, in the games they sit in (or in
    ``game_ids``, some of them, when the caller has read them): the last decision of each
    turn the opponent played that was followed by another turn.

    Turns are numbered where they start (``games.services.game_turn_update``, when the
    player to move changes); every Move carries its turn's number and ``Game.turn`` is
    the latest, so turn ``n`` ended, and the user's turn ``n + 1`` started, at the last
    Move of turn ``n`` once ``Game.turn`` is past ``n``. A game ended by its final move
    starts no turn. The same number keys the "your turn" Alarm of that turn.

    A turn's numbers grow with the plies, so a decision is the last of its turn when the
    next ply's is not of the same turn: one probe of the (game, ply) index per decision.
    """
    next_in_turn = Move.objects.filter(game=OuterRef("game"), ply=OuterRef("ply") + 1, turn=OuterRef("turn"))
    mine = Q(game__pk__any_of=game_ids) if game_ids is not None else Q(game__seats__user=user)
    return Move.objects.filter(mine, turn__lt=F("game__turn")).exclude(seat__user=user).exclude(Exists(next_in_turn))


# ---------------------------------------------------------------- the API's reads (lists, versions, counts)


def games_list(
    *,
    user: Any,
    mine: bool = False,
    my_turn: bool = False,
    status: str | None = None,
    kind: str | None = None,
    player: Any = None,
) -> QuerySet[Any]:
    """Games filtered as the list endpoints offer, newest first (without state or seed).

    ``mine`` and ``my_turn`` need a signed-in ``user``; ``status`` is active, finished
    (finished or aborted) or aborted; ``player`` restricts to one player's games.
    """
    qs = Game.objects.defer("sealed_state", "sealed_seed")
    if mine or my_turn:
        qs = qs.filter(seats__user=user)
    if my_turn:
        qs = qs.filter(status=GameStatus.ACTIVE, to_move_user=user)
    if player is not None:
        qs = qs.filter(seats__user=player)
    if status == GameStatus.ACTIVE:
        qs = qs.filter(status=GameStatus.ACTIVE)
    elif status == GameStatus.FINISHED:
        qs = qs.filter(status__in=[GameStatus.FINISHED, GameStatus.ABORTED])
    elif status == GameStatus.ABORTED:
        qs = qs.filter(status=GameStatus.ABORTED)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.distinct().prefetch_related("seats__user")


_CHANGED_COLUMNS = (
    "ply",
    "status",
    "created_at",
    "finished_at",
    "deadline",
    "to_move_side",
    "last_move",
    "offer_created",
    "offer_responded",
)
_CHANGED_MOMENTS = ("created_at", "finished_at", "deadline", "last_move", "offer_created", "offer_responded")


def _changed_query(game_id: int) -> QuerySet[Any]:
    """The one row :func:`game_changed_at` reads: the game's columns that a change moves, with
    the time of its last move and of its latest draw offer and answer."""
    last_move = Move.objects.filter(game=OuterRef("pk"), ply=OuterRef("ply")).order_by().values("created_at")[:1]
    offers = DrawOffer.objects.filter(game=OuterRef("pk")).order_by().values("game")
    return (
        Game.objects.filter(pk=game_id)
        .order_by()
        .annotate(
            last_move=Subquery(last_move),
            offer_created=Subquery(offers.annotate(m=Max("created_at")).values("m")[:1]),
            offer_responded=Subquery(offers.annotate(m=Max("responded_at")).values("m")[:1]),
        )
        .values(*_CHANGED_COLUMNS)[:1]
    )


# _changed_query's SQL is built once per process and database (maatasite.sql_once): building a
# query with three subqueries costs Django about 1.6 ms, running it about 0.3 ms, and this is
# the query of every API revalidation (a client's poll with If-None-Match).
_CHANGED_SQL_GAME_ID = -7_001_003  # a placeholder id the compiled SQL must carry as its one parameter


_MOMENT_FIELD = DateTimeField()  # reads a time given as text (SQLite), made once


def _moment(value: Any) -> datetime | None:
    """A time column read by a bare cursor as the ORM reads it: aware, in UTC when the database
    gives no zone (SQLite: a subquery's column comes back as text)."""
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else _MOMENT_FIELD.to_python(value)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment


def _changed_row(game_id: int) -> dict[str, Any] | None:
    """_changed_query's row through its SQL built once (the same row as the ORM gives; a test
    compares them)."""
    alias = router.db_for_read(Game)
    connection = connections[alias]
    built = built_once(
        "game_changed_at",
        queryset=_changed_query,
        placeholder=_CHANGED_SQL_GAME_ID,
        alias=alias,
        connection=connection,
        describe=lambda _compiler, sql: sql,
    )
    with connection.cursor() as cursor:
        cursor.execute(built.sql, built.params_with(game_id))
        row = cursor.fetchone()
    if row is None:
        return None
    values = dict(zip(_CHANGED_COLUMNS, row, strict=True))
    for key in _CHANGED_MOMENTS:
        values[key] = _moment(values[key])
    return values


def game_changed_at(*, game_id: int) -> tuple[Any, str] | None:
    """(last change time, version tag) of a game in one query; None if unknown.

    The tag changes with every move, draw offer or answer, ending or clock change, so
    a client's cached copy can be validated without building the view.
    """
    row = _changed_row(game_id)
    if row is None:
        return None
    moments = (row[key] for key in ("created_at", "finished_at", "last_move", "offer_created", "offer_responded"))
    times: list[datetime] = [moment for moment in moments if moment is not None]
    changed = max(times)
    tag = "%s:%s:%s:%s:%s:%s" % (
        row["ply"],
        row["status"],
        changed.timestamp(),
        row["deadline"].timestamp() if row["deadline"] else "",
        row["to_move_side"],
        row["offer_responded"].timestamp() if row["offer_responded"] else "",
    )
    return changed, tag


def player_game_counts(*, player: Any) -> dict[str, int]:
    games = Game.objects.filter(seats__user=player)
    return {
        "games_active": games.filter(status=GameStatus.ACTIVE).count(),
        "games_played": games.filter(status=GameStatus.FINISHED).count(),
    }


def challenge_visible_to(*, challenge_id: int, user: Any) -> Any:
    """The challenge if ``user`` made it or received it, or it is open to anyone; else None."""
    challenge = Challenge.objects.select_related("challenger", "opponent").filter(pk=challenge_id).first()
    if challenge is None:
        return None
    mine = user is not None and user.is_authenticated and user.pk in (challenge.challenger_id, challenge.opponent_id)
    open_to_all = challenge.opponent_id is None and challenge.status == ChallengeStatus.OPEN
    return challenge if mine or open_to_all else None


# ---------------------------------------------------------------- rematches


@dataclass(frozen=True)
class RematchShown:
    """Where the rematch of an ended game stands, for one seated player.

    ``state``: ``available`` (none offered yet), ``offered`` (by the viewer, waiting),
    ``to_me`` (the opponent offers it), ``started`` (``game`` is the rematch) or
    ``closed`` (declined, withdrawn or expired: one offer per game)."""

    state: str
    against_bot: bool
    challenge: Challenge | None = None
    game: Game | None = None


def rematch_for_viewer(*, game: Game, viewer_seat: Seat | None, now: datetime | None = None) -> RematchShown | None:
    """The rematch block of the game page: None unless the viewer is seated in a finished
    game that allows a rematch (``Game.allows_rematch``)."""
    if viewer_seat is None or game.status != GameStatus.FINISHED or not game.allows_rematch:
        return None
    against_bot = game.bot_level is not None
    started = Game.objects.filter(rematch_of=game).only("pk", "kind").first()
    if started is not None:
        return RematchShown("started", against_bot, game=started)
    offer = Challenge.objects.filter(rematch_of=game).first()
    if offer is None:
        return RematchShown("available", against_bot)
    now = now or timezone.now()
    if offer.status != ChallengeStatus.OPEN or offer.expires_at <= now:
        return RematchShown("closed", against_bot, challenge=offer)
    return RematchShown(
        "offered" if offer.challenger_id == viewer_seat.user_id else "to_me", against_bot, challenge=offer
    )


def end_adjudication_of(game: Game) -> BotAdjudication | None:
    """The bot's verdict on a game adjudicated at its tournament's end date, shown on the
    game page (a query only for a game that ended by adjudication)."""
    if game.result_reason not in (ResultReason.ADJUDICATED, ResultReason.VOID):
        return None
    return BotAdjudication.objects.filter(game_id=game.pk).first()
