"""Staff changing an ended game's result replays the rating history of its kind exactly:
every later change row and every rating equal a history that never had the old result."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from games import adjudication, services
from games.models import Game
from ratings import constants
from ratings.glicko2 import Glicko, Result, idle, rate
from ratings.models import Rating, RatingChange
from ratings.services import rating_record_result
from tests.factories import make_staff, make_user, start_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def staff(db):
    return make_staff("referee", superuser=False)


@pytest.fixture
def players(db):
    return [make_user(name) for name in ("ann", "ben", "cid", "dee")]


def play(days, first, second, *, winner=None, kind="onitama") -> Game:
    """A rated game of ``first`` (first side) and ``second`` played on day ``days`` after T0:
    ``winner`` wins by the other's resignation, or a draw by agreement when None."""
    now = T0 + timedelta(days=days)
    game = start_game(first, second, kind, now=now)
    if winner is None:
        services.draw_offer(game_id=game.pk, user=first, now=now)
        services.draw_accept(game_id=game.pk, user=second, now=now)
    else:
        loser = second if winner == first else first
        services.game_resign(game_id=game.pk, user=loser, now=now)
    return Game.objects.get(pk=game.pk)


def expected_history(games: list[Game]):
    """The ratings straight from glicko2, game after game in end order: (changes by
    (game, user), final state by user), as ratings.constants defines a rated result."""
    state: dict[int, tuple[Glicko, int, datetime | None]] = {}
    changes = {}
    for game in sorted(games, key=lambda g: (g.finished_at, g.pk)):
        seats = list(game.seats.order_by("position"))
        now = game.finished_at
        assert now is not None  # the games are over
        before = {}
        for seat in seats:
            assert seat.user_id is not None  # rated games are between people
            glicko, _n, last = state.get(
                seat.user_id,
                (Glicko(constants.INITIAL_RATING, constants.INITIAL_DEVIATION, constants.INITIAL_VOLATILITY), 0, None),
            )
            periods = (
                0
                if last is None or now <= last
                else math.floor((now - last).total_seconds() / (constants.INACTIVITY_PERIOD_DAYS * 86400))
            )
            before[seat.user_id] = idle(glicko, periods=periods, max_deviation=constants.MAX_DEVIATION)
        for seat, other in (seats, seats[::-1]):
            assert seat.user_id is not None and other.user_id is not None
            score = 0.5 if not game.winner_side else float(game.winner_side == seat.side)
            mine, theirs = before[seat.user_id], before[other.user_id]
            after = rate(mine, [Result(theirs.rating, theirs.deviation, score)], tau=constants.TAU)
            changes[(game.pk, seat.user_id)] = {
                "opponent_id": other.user_id,
                "score": score,
                "rating_before": mine.rating,
                "rating_after": after.rating,
                "deviation_before": mine.deviation,
                "deviation_after": after.deviation,
                "volatility_after": after.volatility,
                "opponent_rating": theirs.rating,
                "created_at": now,
            }
            played = state[seat.user_id][1] if seat.user_id in state else 0
            state[seat.user_id] = (after, played + 1, now)
    return changes, state


def assert_ratings_are(games: list[Game]) -> None:
    """Every change row and every rating of Onitama equal the history of ``games`` exactly."""
    changes, state = expected_history(games)
    stored = {(c.game_id, c.user_id): c for c in RatingChange.objects.filter(kind="onitama")}
    assert set(stored) == set(changes)
    for key, values in changes.items():
        row = stored[key]
        assert {name: getattr(row, name) for name in values} == values, key
    for rating in Rating.objects.filter(kind="onitama"):
        if rating.user_id not in state:
            assert (rating.rating, rating.deviation, rating.volatility, rating.games_played, rating.last_played_at) == (
                constants.INITIAL_RATING,
                constants.INITIAL_DEVIATION,
                constants.INITIAL_VOLATILITY,
                0,
                None,
            )
            continue
        glicko, played, last = state[rating.user_id]
        assert (rating.rating, rating.deviation, rating.volatility) == (
            glicko.rating,
            glicko.deviation,
            glicko.volatility,
        ), rating.user_id
        assert (rating.games_played, rating.last_played_at) == (played, last)


def season(players) -> list[Game]:
    """Six rated games among four players, with gaps long enough for idle periods."""
    ann, ben, cid, dee = players
    return [
        play(0, ann, ben, winner=ann),
        play(1, cid, ann, winner=cid),  # the game staff will change
        play(40, ben, cid, winner=ben),
        play(41, ann, dee, winner=None),
        play(100, dee, ann, winner=dee),
        play(101, cid, ben, winner=cid),
        play(170, ann, cid, winner=ann),
    ]


def test_live_ratings_follow_the_same_history(players):
    games = season(players)
    assert_ratings_are(games)


def test_voiding_an_early_game_recomputes_every_later_rating_exactly(players, staff):
    games = season(players)
    before = {(c.game_id, c.user_id): c.rating_after for c in RatingChange.objects.all()}
    adjudication.game_result_void(game_id=games[1].pk, staff=staff, reason="Played by a second account")
    kept = [g for g in games if g.pk != games[1].pk]
    assert not RatingChange.objects.filter(game=games[1]).exists()
    assert_ratings_are(kept)
    # The first game is before the voided one: untouched; later ones moved.
    assert RatingChange.objects.get(game=games[0], user=players[0]).rating_after == before[(games[0].pk, players[0].pk)]
    assert RatingChange.objects.get(game=games[2], user=players[1]).rating_after != before[(games[2].pk, players[1].pk)]


def test_the_replayed_state_equals_a_database_built_without_the_game(players, staff):
    games = season(players)
    adjudication.game_result_void(game_id=games[1].pk, staff=staff, reason="void")
    replayed = {
        (c.game_id, c.user_id): (
            c.rating_before,
            c.rating_after,
            c.deviation_before,
            c.deviation_after,
            c.volatility_after,
        )
        for c in RatingChange.objects.all()
    }
    ratings = {
        r.user_id: (r.rating, r.deviation, r.volatility, r.games_played, r.last_played_at) for r in Rating.objects.all()
    }
    # Rebuild from nothing, live, with only the games that still count.
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    for game in sorted(games, key=lambda g: (g.finished_at, g.pk)):
        rating_record_result(game=Game.objects.get(pk=game.pk))
    assert replayed == {
        (c.game_id, c.user_id): (
            c.rating_before,
            c.rating_after,
            c.deviation_before,
            c.deviation_after,
            c.volatility_after,
        )
        for c in RatingChange.objects.all()
    }
    assert ratings == {
        r.user_id: (r.rating, r.deviation, r.volatility, r.games_played, r.last_played_at) for r in Rating.objects.all()
    }


def test_a_void_game_is_never_rated_again(players, staff):
    game = play(0, players[0], players[1], winner=players[0])
    adjudication.game_result_void(game_id=game.pk, staff=staff, reason="void")
    assert rating_record_result(game=Game.objects.get(pk=game.pk)) == []
    assert not RatingChange.objects.exists()
    assert_ratings_are([])  # both players back to a new player's rating


def test_awarding_a_finished_game_rates_it_again_and_everything_after(players, staff):
    games = season(players)
    ann, ben = players[0], players[1]
    adjudication.game_result_award(
        game_id=games[0].pk,
        staff=staff,
        reason="Ann used an engine",
        winner_side=Game.objects.get(pk=games[0].pk).seats.get(user=ben).side,
    )
    awarded = Game.objects.get(pk=games[0].pk)
    assert RatingChange.objects.get(game=awarded, user=ben).score == 1.0
    assert RatingChange.objects.get(game=awarded, user=ann).score == 0.0
    assert_ratings_are([awarded] + games[1:])


def test_awarding_a_draw_rates_it_as_a_draw(players, staff):
    games = season(players)
    adjudication.game_result_award(game_id=games[2].pk, staff=staff, reason="draw", winner_side="")
    games[2] = Game.objects.get(pk=games[2].pk)
    assert set(RatingChange.objects.filter(game=games[2]).values_list("score", flat=True)) == {0.5}
    assert_ratings_are(games)


def test_a_casual_game_changes_no_rating(players, staff):
    rated = play(0, players[0], players[1], winner=players[0])
    casual = start_game(players[0], players[1], rated=False, now=T0)
    services.game_resign(game_id=casual.pk, user=players[0], now=T0)
    adjudication.game_result_void(game_id=casual.pk, staff=staff, reason="void")
    assert_ratings_are([rated])
