"""Rated games ending at the same moment on the real PostgreSQL: each player's rating
changes one game at a time (the change rows chain), and never deadlocks."""

import itertools

import pytest
from django.db import connection

from games import services
from ratings.models import Rating, RatingChange
from tests.helpers import run_together

from .conftest import make_user, start_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def assert_chained(user, count):
    chain = list(RatingChange.objects.filter(user=user).order_by("pk"))
    assert len(chain) == count
    for earlier, later in itertools.pairwise(chain):
        assert later.rating_before == pytest.approx(earlier.rating_after)
    final = Rating.objects.get(user=user, kind="onitama")
    assert final.games_played == count and final.rating == pytest.approx(chain[-1].rating_after)


def test_postgresql_is_in_use():
    assert connection.vendor == "postgresql"


def test_one_players_games_ending_together_chain_their_rating():
    hub = make_user("hub")
    games = [start_game(hub, make_user("rim%d" % i)) for i in range(5)]
    results = run_together([(lambda g=g: services.game_resign(game_id=g.pk, user=hub)) for g in games])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert_chained(hub, 5)


def test_a_cycle_of_games_ending_together_does_not_deadlock():
    a, b, c = make_user("aaa"), make_user("bbb"), make_user("ccc")
    games = [start_game(a, b), start_game(b, c), start_game(c, a), start_game(b, a)]
    results = run_together([(lambda g=g: services.game_resign(game_id=g.pk, user=g.to_move_user)) for g in games])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert RatingChange.objects.count() == 8
    assert_chained(a, 3)
    assert_chained(b, 3)
    assert_chained(c, 2)
