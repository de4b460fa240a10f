"""Rated results update both players' Glicko-2 ratings once, per game, with a change row each."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import Conflict
from games.models import Game
from ratings import constants, selectors
from ratings.glicko2 import Glicko, Result, idle, rate
from ratings.models import Rating, RatingChange
from ratings.services import rating_record_result

from .conftest import make_user, start_game, win

pytestmark = pytest.mark.django_db


def test_a_rated_win_writes_a_change_row_for_each_player(alice, bob):
    game = win(alice, bob)
    up = RatingChange.objects.get(game=game, user=alice)
    down = RatingChange.objects.get(game=game, user=bob)
    assert (up.opponent, down.opponent) == (bob, alice)
    assert (up.score, down.score) == (1.0, 0.0)
    assert up.rating_before == down.rating_before == constants.INITIAL_RATING
    expected = rate(Glicko(1500, 350, 0.06), [Result(1500, 350, 1.0)], tau=constants.TAU)
    assert up.rating_after == pytest.approx(expected.rating)
    assert down.rating_after == pytest.approx(3000 - expected.rating)
    assert up.created_at == game.finished_at
    alice_rating = Rating.objects.get(user=alice, kind="onitama")
    assert alice_rating.rating == pytest.approx(up.rating_after)
    assert alice_rating.games_played == 1 and alice_rating.last_played_at == game.finished_at


def test_a_draw_between_new_players_keeps_both_at_the_start(alice, bob):
    game = start_game(alice, bob)
    services.draw_offer(game_id=game.pk, user=alice)
    services.draw_accept(game_id=game.pk, user=bob)
    changes = RatingChange.objects.filter(game=game)
    assert sorted(c.score for c in changes) == [0.5, 0.5]
    assert all(c.rating_after == pytest.approx(1500) and c.deviation_after < 350 for c in changes)


def test_casual_aborted_and_bot_games_are_not_rated(alice, bob):
    win(alice, bob, rated=False)
    aborted = start_game(alice, bob)
    services.game_abort(game_id=aborted.pk, user=alice)
    solo = services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    Game.objects.filter(pk=solo.pk).update(rated=True)  # even if flagged, a bot game is not rated
    services.game_resign(game_id=solo.pk, user=alice)
    assert RatingChange.objects.count() == 0
    assert Rating.objects.count() == 0


def test_the_games_are_rated_apart(alice, bob):
    win(alice, bob, "onitama")
    win(bob, alice, "maatatahay")
    assert selectors.rating_for_player(user=alice, kind="onitama").rating > 1500
    assert selectors.rating_for_player(user=alice, kind="maatatahay").rating < 1500
    assert RatingChange.objects.filter(user=alice).values_list("kind", flat=True).distinct().count() == 2


def test_a_repeated_finishing_request_rates_once(alice, bob):
    game = win(alice, bob)
    with pytest.raises(Conflict):
        services.game_resign(game_id=game.pk, user=bob)
    assert rating_record_result(game=Game.objects.get(pk=game.pk)) == []
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=alice, kind="onitama").games_played == 1


def test_inactivity_grows_the_deviation_one_period_per_thirty_days(alice, bob):
    win(alice, bob)
    row = Rating.objects.get(user=alice, kind="onitama")
    assert row.last_played_at is not None
    later = row.last_played_at + timedelta(days=constants.INACTIVITY_PERIOD_DAYS * 3 + 1)
    shown = selectors.rating_for_player(user=alice, kind="onitama", now=later)
    expected = idle(Glicko(row.rating, row.deviation, row.volatility), periods=3, max_deviation=constants.MAX_DEVIATION)
    assert shown.deviation == pytest.approx(expected.deviation) and shown.deviation > row.deviation
    just_before = row.last_played_at + timedelta(days=constants.INACTIVITY_PERIOD_DAYS - 1)
    assert selectors.rating_for_player(user=alice, kind="onitama", now=just_before).deviation == row.deviation


def test_the_next_game_starts_from_the_grown_deviation(alice, bob, carol):
    win(alice, bob)
    row = Rating.objects.get(user=alice, kind="onitama")
    assert row.last_played_at is not None
    long_ago = row.last_played_at - timedelta(days=95)
    Rating.objects.filter(pk=row.pk).update(last_played_at=long_ago)
    game = win(alice, carol)
    change = RatingChange.objects.get(game=game, user=alice)
    grown = idle(Glicko(row.rating, row.deviation, row.volatility), periods=3, max_deviation=constants.MAX_DEVIATION)
    assert change.rating_before == pytest.approx(row.rating)
    assert change.deviation_before == pytest.approx(grown.deviation)
    assert change.deviation_before > row.deviation


def _established(user, kind, rating, deviation=60.0, days_ago=1):
    return Rating.objects.create(
        user=user,
        kind=kind,
        rating=rating,
        deviation=deviation,
        games_played=30,
        last_played_at=timezone.now() - timedelta(days=days_ago),
    )


def test_provisional_ratings_show_a_question_mark(alice, bob):
    assert selectors.rating_for_player(user=alice, kind="onitama").display == "1500?"
    _established(bob, "onitama", 1712.4)
    assert selectors.rating_for_player(user=bob, kind="onitama").display == "1712"


def test_the_leaderboard_is_per_game_best_first_without_provisional_players(db):
    players = [make_user("player%d" % i) for i in range(5)]
    _established(players[0], "onitama", 1600)
    _established(players[1], "onitama", 1800)
    _established(players[2], "onitama", 1900, deviation=200)  # provisional
    _established(players[3], "onitama", 2000, days_ago=3000)  # provisional again after years away
    _established(players[4], "maatatahay", 2100)
    board = selectors.leaderboard(kind="onitama")
    assert [row.user for row in board] == [players[1], players[0]]
    assert all(not row.provisional for row in board)
    assert [row.user for row in selectors.leaderboard(kind="maatatahay")] == [players[4]]
    assert len(selectors.leaderboard(kind="onitama", limit=1)) == 1


def test_rating_history_is_oldest_first_per_game(alice, bob):
    first = win(alice, bob)
    second = win(bob, alice)
    win(alice, bob, "maatatahay")
    history = selectors.rating_history(user=alice, kind="onitama")
    assert [c.game_id for c in history] == [first.pk, second.pk]
    assert history[1].rating_before == pytest.approx(history[0].rating_after)
