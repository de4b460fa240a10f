"""``__any_of`` (maatasite.db_lookups): the rows ``__in`` finds, with the list sent as one
array parameter on PostgreSQL, so that a long list does not make a long query text."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from tests.factories import make_user, start_game

pytestmark = pytest.mark.django_db


def test_any_of_finds_what_in_finds_with_one_parameter_on_postgresql(alice, bob):
    games = [start_game(alice, bob) for _ in range(3)]
    ids = [game.pk for game in games]
    cases: list[Any] = [
        ids,
        ids[:1],
        [ids[0], None, ids[2]],
        set(ids),
        frozenset(ids),
        tuple(ids),
        [],
        [10**9],
        [2**62, -1, 0],  # beyond int4, and ints no key has
        [ids[0], ids[0]],
        [str(ids[0]), ids[1]],  # a text id: prepared by the field, as __in does
        [True],
    ]
    for values in cases:
        expected = sorted(Game.objects.filter(pk__in=values).values_list("pk", flat=True))
        with CaptureQueriesContext(connection) as queries:
            found = sorted(Game.objects.filter(pk__any_of=values).values_list("pk", flat=True))
        assert found == expected, values
        if values and any(v is not None for v in values) and connection.vendor == "postgresql":
            (query,) = queries.captured_queries
            assert "= ANY(" in query["sql"] and " IN (" not in query["sql"], query["sql"]
    many = list(range(1, 2001)) + ids  # a long list
    assert sorted(Game.objects.filter(pk__any_of=many).values_list("pk", flat=True)) == sorted(ids)
    sql, params = Game.objects.filter(pk__any_of=many).values_list("pk").query.sql_with_params()
    if connection.vendor == "postgresql":  # one placeholder, whatever the list's length
        # the ids go as the array's text, cast to the column's type (see the next test)
        assert sql.count("%s") == 1 and list(params) == ["{%s}" % ",".join(map(str, many))], sql
    else:
        assert sql.count("%s") == len(set(many))  # one a distinct id


def test_any_of_takes_a_subquery_as_in_does(alice, bob):
    carol = make_user("carol")
    mine = [start_game(alice, bob).pk, start_game(carol, alice).pk]
    start_game(bob, carol)
    seats = Seat.objects.filter(user=alice).values("game_id")
    assert sorted(Game.objects.filter(pk__any_of=seats).values_list("pk", flat=True)) == sorted(mine)


def test_any_of_casts_the_array_to_the_column_type_on_postgresql(alice, bob):
    """psycopg sends small ints as ``smallint[]``; PostgreSQL hashes a long ``= ANY(array)`` only
    when the array's type is the column's (else it compares every row with every id: 37 ms
    instead of 5 for a lobby of 1,000 games). So the array is cast to the column's type."""
    game = start_game(alice, bob)
    queries = [
        ("bigint", Game.objects.filter(pk__any_of=[game.pk, 3])),
        ("bigint", Seat.objects.filter(game__pk__any_of=[game.pk])),  # through a join: the key's type
        ("bigint", Seat.objects.filter(user__pk__any_of=[alice.pk, bob.pk])),
        ("varchar(10)", Game.objects.filter(status__any_of=["active", "finished"])),
    ]
    for column_type, query in queries:
        sql, _params = query.query.sql_with_params()
        if connection.vendor == "postgresql":
            assert "= ANY(%%s::%s[])" % column_type in sql, sql
    assert list(Game.objects.filter(status__any_of=["active", "finished"]).values_list("pk", flat=True)) == [game.pk]
    assert sorted(Seat.objects.filter(user__pk__any_of=[alice.pk, bob.pk]).values_list("game_id", flat=True)) == [
        game.pk,
        game.pk,
    ]
    with connection.cursor() as cursor:  # the type psycopg gives a list of small ints, which the cast corrects
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_typeof(%s)::text", [[1, 2, 3]])
            assert cursor.fetchone()[0] == "smallint[]"
