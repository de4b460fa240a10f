"""Fixtures of the tournament tests: players, and a tournament taken to its start."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Game, GameStatus
from tests.api_clients import alice_api, anon, api_settings, bob_api, carol_api  # noqa: F401  (API clients, for the test_api_* modules here)
from tests.factories import make_staff, make_user, seated  # noqa: F401  (make_user: re-exported for the tests here)
from tournaments import services
from tournaments.models import Tournament


@pytest.fixture
def staff(db):
    return make_staff("staff")


def started(players, *, format: str = "round_robin", actor=None, **settings) -> Tournament:
    """A tournament of ``players`` (users), registered and started (round 1 paired)."""
    tournament = services.tournament_create(
        actor=actor, name="Test cup", kind=settings.pop("kind", "onitama"), format=format, **settings
    )
    services.tournament_open_registration(tournament_id=tournament.pk, actor=actor)
    for user in players:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, actor=actor)
    tournament.refresh_from_db()
    return tournament


def running_games(tournament) -> list[Game]:
    return list(Game.objects.filter(tournament_pairing__tournament=tournament, status=GameStatus.ACTIVE).order_by("pk"))


def finish(game: Game, *, winner=None, draw: bool = False) -> None:
    """End a game through the games services: a draw by agreement, or the loser resigns."""
    seats = list(game.seats.select_related("user").order_by("position"))
    if draw:
        game_services.draw_offer(game_id=game.pk, user=seated(seats[0]))
        game_services.draw_accept(game_id=game.pk, user=seated(seats[1]))
        return
    loser = next(seated(s) for s in seats if s.user != winner)
    game_services.game_resign(game_id=game.pk, user=loser)


def play_out(tournament, pick=lambda game: ("first", False)) -> None:
    """Finish every game until the tournament stops running; ``pick`` decides each result."""
    for _ in range(500):
        tournament.refresh_from_db()
        games = running_games(tournament)
        if not games:
            return
        for game in games:
            who, draw = pick(game)
            seats = list(game.seats.select_related("user").order_by("position"))
            finish(game, winner=seats[0 if who == "first" else 1].user, draw=draw)
    raise AssertionError("the tournament did not end")
