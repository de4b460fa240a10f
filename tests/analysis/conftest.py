"""Fixtures of the analysis tests: finished games of alice and bob (carol only watches), a
weak fast bot for the analysis, and a generous budget unless a test sets its own."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.api_clients import anon  # noqa: F401  (the anonymous API client, for test_api)
from tests.factories import play, start_game, to_move

LEVEL = 2


@pytest.fixture(autouse=True)
def _quick_analysis(settings):
    settings.ANALYSIS_BOT_LEVEL = LEVEL
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "analysis": "1000/hour"}


def finished(alice, bob, *, kind: str = "onitama", seed: int = 12345, decisions: int = 8, rated: bool = True) -> Game:
    """A game of alice and bob, ``decisions`` first legal moves, then the player to move resigns."""
    options = {"cards": "base"} if kind == "onitama" else {"variant": "first", "opening": 2}
    game = play(start_game(alice, bob, kind, options, rated=rated, seed=seed), decisions)
    if game.is_active:
        services.game_resign(game_id=game.pk, user=to_move(game))
    game.refresh_from_db()
    assert game.is_over and game.ply > 0
    return game


@pytest.fixture
def finished_game(alice, bob) -> Game:
    return finished(alice, bob)
