"""Fixtures of the games tests: players, started games and a helper that plays moves."""
from __future__ import annotations

import pytest

import engine
from games import services
from games.models import Game
from tests.factories import make_user  # noqa: F401  (re-exported for the tests here)


def start_game(challenger, opponent, kind: str = "onitama", options=None, seat_choice: str | None = None,
               days_per_move: int = 3, rated: bool = True) -> Game:
    """A game between two users; the challenger takes the first side listed by the engine."""
    rules = engine.get_game(kind)
    challenge = services.challenge_create(
        challenger=challenger, opponent=opponent, kind=kind, options=options,
        days_per_move=days_per_move, rated=rated, seat_choice=seat_choice or rules.players[0])
    return services.challenge_accept(challenge_id=challenge.pk, user=opponent)


def first_legal(game: Game) -> str:
    rules = engine.get_game(game.kind)
    state = services.game_state(game)
    return rules.move_text(rules.legal_moves(state)[0])


def play(game: Game, decisions: int, *, pick=first_legal) -> Game:
    """Play ``decisions`` decisions (fewer if the game ends) as whoever is to move."""
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != "active":
            break
        services.move_submit(game_id=game.pk, user=game.to_move_user, move_text=pick(game),
                             expected_ply=game.ply)
    game.refresh_from_db()
    return game


@pytest.fixture
def onitama_game(alice, bob):
    return start_game(alice, bob, "onitama", {"cards": "base"})
