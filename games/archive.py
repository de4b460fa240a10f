"""A player's archive: their games that are over, searched and filtered, a page at a time.

The history page (/history/<username>/) and the API (``GET /api/v1/players/<username>/archive/``)
read it, with the same filters (games.forms.ArchiveFilterForm checks them): game, variant,
result from the player's view (games.models.player_result_condition), opponent (username
prefix, any case), finished between two dates, rated or not, and tournament.

Games never imports tournaments: the tournament filter is on the reverse relation of a
tournament pairing's game (``tournament_pairing``), and the apps above register the choices
the form offers (:func:`archive_tournaments_register`, called from their ``AppConfig.ready``).

A page costs the same number of queries however many games the player has: the player's
seats, the count, the page's ids, those games, their seats, their users, and two more with an
opponent (tests/games/test_archive.py counts them from 10 to 10,000 games; bench/archive.py
times them). No query joins the seats to the games or reads a growing table whole
(tests/test_scale_queries.py). The opponent filter matches usernames only:
not bots, and not deleted players (their names are gone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from .models import Game, GameKind, GameStatus, Seat, player_result_condition
from .selectors import HISTORY_PAGE_SIZE, player_game_ids

# The variants a game is played with, as stored in its options: Onitama's cards and
# Maatatahay's variant; the option missing reads as the form's default (games_tags.variant_name).
VARIANT_OPTIONS: dict[str, tuple[str, str, str]] = {
    # value: (kind, option key, default of the option)
    "base": (GameKind.ONITAMA, "cards", "base"),
    "senseis_path": (GameKind.ONITAMA, "cards", "base"),
    "mixed": (GameKind.ONITAMA, "cards", "base"),
    "first": (GameKind.MAATATAHAY, "variant", "first"),
    "standard": (GameKind.MAATATAHAY, "variant", "first"),
}


@dataclass(frozen=True)
class ArchiveFilters:
    kind: str = ""
    variant: str = ""
    result: str = ""
    opponent: str = ""
    finished_from: date | None = None
    finished_to: date | None = None
    rated: bool | None = None
    tournament: int | None = None

    @property
    def any(self) -> bool:
        return self != ArchiveFilters()


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def games_archive(*, player: Any, filters: ArchiveFilters | None = None) -> QuerySet[Game]:
    """The player's games that are over, latest finished first, filtered; each game is
    annotated with ``my_side``, the player's side (:func:`games_archive_shown` adds what a
    list shows)."""
    f = filters or ArchiveFilters()
    # The player's games by their seats first, then by primary key (no join from the seats:
    # it lets the planner hash the whole games table, games.selectors.player_game_ids); the
    # player's side from their seat in each game (the seats' (game, side) index).
    ids = player_game_ids(user=player)
    if f.opponent:
        # The opponents' seats among the player's games only (the seats' game index), then
        # those opponents by key: a name prefix has no index (an EXISTS on the seats let
        # the planner hash every seat, a join every account, of a matching name).
        seats = list(
            Seat.objects.filter(game__pk__any_of=ids, user__isnull=False)
            .exclude(user=player)
            .order_by()
            .values_list("game_id", "user_id")
        )
        named = set(
            get_user_model()
            .objects.filter(
                pk__any_of={user_id for _game, user_id in seats},
                username__istartswith=f.opponent,
                deleted_at__isnull=True,
            )
            .values_list("pk", flat=True)
        )
        ids = frozenset(game_id for game_id, user_id in seats if user_id in named)
    my_side = Seat.objects.filter(game=OuterRef("pk"), user=player).order_by().values("side")[:1]
    qs = Game.objects.filter(pk__any_of=ids).exclude(status=GameStatus.ACTIVE).annotate(my_side=Subquery(my_side))
    if f.kind:
        qs = qs.filter(kind=f.kind)
    if f.variant:
        kind, key, default = VARIANT_OPTIONS[f.variant]
        played = Q(**{"options__%s" % key: f.variant})
        if f.variant == default:  # a game without the option plays the default (games_tags.variant_name)
            played |= ~Q(options__has_key=key)
        qs = qs.filter(played, kind=kind)
    if f.result:
        qs = qs.filter(player_result_condition(f.result, side=F("my_side")))
    if f.finished_from:
        qs = qs.filter(finished_at__gte=_day_start(f.finished_from))
    if f.finished_to:
        qs = qs.filter(finished_at__lt=_day_start(f.finished_to + timedelta(days=1)))
    if f.rated is not None:
        qs = qs.filter(rated=f.rated)
    if f.tournament is not None:
        # no import of tournaments: the reverse relation of its pairing's game (one pairing a game)
        qs = qs.filter(tournament_pairing__tournament_id=f.tournament)
    return qs.order_by(F("finished_at").desc(nulls_last=True), "-pk")


def _shown(qs: QuerySet[Game]) -> QuerySet[Game]:
    """The games as the lists show them: without state or seed, their seats, then those seats'
    users by key (a join of the seats to the users let the planner hash every account)."""
    seats = Seat.objects.order_by("position")  # not Seat's default order (a join)
    return qs.defer("sealed_state", "sealed_seed").prefetch_related(Prefetch("seats", queryset=seats), "seats__user")


def games_archive_page(
    *, player: Any, filters: ArchiveFilters | None = None, page: Any = 1, per_page: int | None = None
) -> Page[Any]:
    """One page of :func:`games_archive` (a bad or out-of-range page number: the nearest
    page; ``per_page`` by default the history's), in a constant number of queries: the count,
    the page's ids (sorting ids and dates only, not whole games), those games, their seats."""
    ids: QuerySet[Any] = games_archive(player=player, filters=filters).values_list("pk", flat=True)
    shown: Page[Any] = Paginator(ids, per_page or HISTORY_PAGE_SIZE).get_page(page)
    wanted = list(shown.object_list)
    games = {game.pk: game for game in _shown(Game.objects.filter(pk__in=wanted))}
    shown.object_list = [games[pk] for pk in wanted if pk in games]
    return shown


def games_archive_shown(*, player: Any, filters: ArchiveFilters | None = None) -> QuerySet[Game]:
    """:func:`games_archive` with what a list shows of each game (the API pages it by cursor)."""
    return _shown(games_archive(player=player, filters=filters))


# ---------------------------------------------------------------- the tournaments a player's games belong to

ArchiveTournaments = Callable[[Any], list[tuple[int, str]]]
_TOURNAMENT_PROVIDERS: list[ArchiveTournaments] = []


def archive_tournaments_register(provider: ArchiveTournaments) -> None:
    """Let ``provider(player)`` name the tournaments (id, name) the player's games were played in."""
    if provider not in _TOURNAMENT_PROVIDERS:
        _TOURNAMENT_PROVIDERS.append(provider)


def archive_tournaments(*, player: Any) -> list[tuple[int, str]]:
    """The tournaments to offer in the archive's filter (one query per registered app)."""
    return [choice for provider in _TOURNAMENT_PROVIDERS for choice in provider(player)]
