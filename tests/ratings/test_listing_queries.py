"""The leaderboards (page and API) and a player's page list a bounded number of rows in a
number of queries that does not grow with the players or the games. Queries are counted,
never timed (tests/games/test_listing_pages.py does the same for the lobby and the history)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings import constants
from ratings.models import Rating
from tests.api_clients import api_settings  # noqa: F401  (the API tests' settings, applied below)

from .conftest import make_user, win

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def counted(client, path: str) -> int:
    client.get(path)  # warm per-process caches out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(queries)


def rated(prefix: str, count: int) -> None:
    for index in range(count):
        Rating.objects.create(
            user=make_user("%s%d" % (prefix, index)),
            kind="onitama",
            rating=1500 + index,
            deviation=60,
            games_played=10,
            last_played_at=timezone.now(),
        )


def test_the_leaderboards_cost_the_same_queries_for_few_and_many_players(client, anon):
    paths = ("/ratings/onitama/", "/api/v1/ratings/leaderboard/?kind=onitama")
    rated("few", 3)
    few = [counted(client, paths[0]), counted(anon, paths[1])]
    rated("many", 40)
    many = [counted(client, paths[0]), counted(anon, paths[1])]
    assert len(anon.get(paths[1]).json()) == constants.LEADERBOARD_SIZE < 43  # the best ones only
    assert few == many, (few, many)


def test_a_players_page_costs_the_same_queries_for_few_and_many_games(client, anon):
    few, many, other = make_user("fewgames"), make_user("manygames"), make_user("other")
    win(few, other)
    for _ in range(12):
        win(many, other)
    counts = [
        (counted(client, "/players/%s/" % name), counted(anon, "/api/v1/players/%s/" % name))
        for name in (few.username, many.username)
    ]
    assert counts[0] == counts[1], counts


def test_a_leaderboard_reads_pages_with_a_limit_and_skips_players_turned_provisional():
    """The leaderboard reads the best ratings a page at a time (LIMIT, so the (kind, -rating)
    index is walked and the rest never read), and a page whose players went provisional
    since their last game (deviation grown with time) is followed by the next one."""
    from datetime import timedelta

    from ratings import selectors

    long_ago = timezone.now() - timedelta(days=365)
    for index in range(30):  # the 30 best: established once, provisional by now
        Rating.objects.create(
            user=make_user("stale%d" % index),
            kind="onitama",
            rating=2500 - index,
            deviation=109,  # provisional above 110
            games_played=10,
            last_played_at=long_ago,
        )
    rated("active", 8)  # 1500 to 1507
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.leaderboard(kind="onitama", limit=5)
    assert [row.user.username for row in rows] == ["active7", "active6", "active5", "active4", "active3"]
    assert not any(row.provisional for row in rows)
    reads = [q["sql"] for q in queries.captured_queries if "ratings_rating" in q["sql"]]
    assert len(reads) == 2 and all("LIMIT 25" in sql for sql in reads), reads  # pages of 5 + 20


def test_the_leaderboards_first_page_read_through_sql_built_once_is_the_orms():
    """ratings.selectors.leaderboard's first page runs the SQL of its ORM query built once
    (maatasite.sql_once): the same ratings and users field by field, per game, and an account
    that stops being public (suspended, deleted) leaves it at once."""
    from accounts.models import User
    from maatasite import sql_once
    from ratings import selectors
    from tests.helpers import fields_of

    rated("board", 6)
    Rating.objects.create(
        user=make_user("mata"),
        kind="maatatahay",
        rating=1600,
        deviation=60,
        games_played=5,
        last_played_at=timezone.now(),
    )
    sql_once.forget("leaderboard_first_page:30")

    for kind in ("onitama", "maatatahay"):
        rows = selectors.leaderboard(kind=kind, limit=10)
        expected = list(selectors._leaderboard_candidates(kind)[:30])
        assert [fields_of(row.user) for row in rows] == [fields_of(rating.user) for rating in expected]
        assert [(row.games_played, row.last_played_at) for row in rows] == [
            (rating.games_played, rating.last_played_at) for rating in expected
        ]
        assert len(rows) == len(expected) > 0
    assert sql_once.kept("leaderboard_first_page:30") == [("default", connection.vendor)]
    best = selectors.leaderboard(kind="onitama", limit=10)[0].user
    User.objects.filter(pk=best.pk).update(suspended_at=timezone.now())
    assert best.pk not in [row.user.pk for row in selectors.leaderboard(kind="onitama", limit=10)]
