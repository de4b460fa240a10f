"""The lobby costs the same number of queries whatever the number of a player's games.

A per-game query (a seat, a user, a rating looked up row by row) would make the
lobby of an active correspondence player slow; these tests count queries, never time.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services

from .conftest import make_user, start_game

pytestmark = pytest.mark.django_db


def give_games(player, count: int, prefix: str) -> None:
    """``count`` running games, ``count`` finished ones and ``count`` challenges, each against a new player."""
    for index in range(count):
        kind, options = ("onitama", {"cards": "base"}) if index % 2 else ("maatatahay", {"variant": "first"})
        running = make_user("%srun%d" % (prefix, index))
        start_game(player, running, kind, options)
        finished = make_user("%sfin%d" % (prefix, index))
        game = start_game(finished, player, kind, options)
        services.game_resign(game_id=game.pk, user=finished if index % 2 else player)
        challenger = make_user("%sch%d" % (prefix, index))
        services.challenge_create(challenger=challenger, opponent=player, kind=kind, options=options, days_per_move=3)
        services.challenge_create(challenger=player, opponent=challenger, kind=kind, options=options, days_per_move=3)


def lobby_queries(client, player, url: str = "/lobby/") -> tuple[int, str]:
    client.force_login(player)
    client.get(url)  # warm per-process caches (content types, translations) out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_lobby_page_queries_do_not_grow_with_the_number_of_games(client):
    few, many = make_user("few"), make_user("many")
    give_games(few, 3, "f")
    give_games(many, 30, "m")

    few_count, few_html = lobby_queries(client, few)
    many_count, many_html = lobby_queries(client, many)
    second_count, second_html = lobby_queries(client, many, "/lobby/?page=2")

    # The pages do show every game and challenge (else the counts would prove nothing): the
    # busy player's 30 running games on a full first page and the rest on the second.
    page_size = selectors.LOBBY_PAGE_SIZE
    assert page_size < 30
    assert few_html.count('class="game-row') == 3 and many_html.count('class="game-row') == page_size
    assert second_html.count('class="game-row') == 30 - page_size
    shown = {name for html in (many_html, second_html) for name in re.findall(r"against (mrun\d+)", html)}
    assert shown == {"mrun%d" % index for index in range(30)}
    assert "mch29" in many_html and "mfin" in many_html
    assert many_count == few_count, "the lobby made %d queries for 30 games, %d for 3" % (many_count, few_count)
    assert second_count == few_count, "the second page made %d queries, the lobby of 3 games %d" % (
        second_count,
        few_count,
    )


def test_lobby_selectors_queries_do_not_grow_with_the_number_of_games():
    few, many = make_user("few"), make_user("many")
    give_games(few, 3, "f")
    give_games(many, 30, "m")

    def count(player) -> int:
        with CaptureQueriesContext(connection) as queries:
            rows = selectors.games_for_lobby(user=player)
            challenges = selectors.challenges_for_lobby(user=player)
            history = selectors.games_history(user=player, limit=10)
            # Touch what the template reads, so that lazy per-row queries are counted too.
            names = [row.opponent for row in rows]
            names += [c.challenger.public_name for c in challenges.incoming]
            names += [c.opponent.public_name for c in challenges.outgoing if c.opponent]  # as the page
            names += [s.player_name for game in history for s in game.seats.all()]
        assert len(rows) == len(challenges.incoming) == len(challenges.outgoing)
        assert all(names)
        return len(queries)

    assert count(many) == count(few)


def test_the_lobby_reads_the_players_game_ids_once_for_its_two_lists(client):
    """The running games and the recent history both start from the player's seats."""
    player = make_user("both")
    give_games(player, 2, "b")
    client.force_login(player)
    client.get("/lobby/")
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/lobby/").content.decode()
    seats_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "games_seat"."game_id"')]
    assert len(seats_reads) == 1
    assert html.count('class="game-row') == 2 and "bfin1" in html  # both lists are there


def test_a_lobby_page_is_the_paginators_page_with_its_count_read_in_the_same_query():
    """games_for_lobby_page reads the count with the page (a window over the same rows) and
    gives what Paginator.get_page gives over the same games for any page asked: in range, past
    the end, not a number, zero or negative. A page in range makes no count query of its own."""
    from django.core.paginator import Paginator

    player = make_user("pager")
    for index in range(7):
        start_game(player, make_user("pg%d" % index), "onitama", {"cards": "base"})
    expected_all = selectors._lobby_games(player)
    for asked in (None, "1", "2", "3", "4", "99", "9" * 30, "abc", "0", "-3", "2.5", 2):
        expected = Paginator(expected_all, 3).get_page(asked)
        with CaptureQueriesContext(connection) as queries:
            got = selectors.games_for_lobby_page(user=player, page=asked, per_page=3)
        assert [row.game.pk for row in got.rows] == [game.pk for game in expected.object_list], asked
        assert (got.page.number, got.page.paginator.count, got.page.paginator.num_pages) == (
            expected.number,
            expected.paginator.count,
            expected.paginator.num_pages,
        ), asked
        assert (got.page.has_next(), got.page.has_previous()) == (expected.has_next(), expected.has_previous())
        sqls = [q["sql"] for q in queries.captured_queries]
        counts = [sql for sql in sqls if sql.startswith("SELECT COUNT(")]
        past_the_end = str(asked).lstrip("-").isdigit() and not 1 <= int(str(asked)) <= expected.paginator.num_pages
        assert len(counts) == (1 if past_the_end else 0), (asked, sqls)
    nobody = make_user("nogames")
    with CaptureQueriesContext(connection) as queries:
        empty = selectors.games_for_lobby_page(user=nobody)
    assert empty.rows == [] and empty.page.number == 1 and empty.page.paginator.count == 0
    assert not any(q["sql"].startswith("SELECT COUNT(") for q in queries.captured_queries)
