"""Players and finished rated games for the ratings tests."""

from __future__ import annotations

from games import services
from games.models import Game
from tests.api_clients import anon, api_settings  # noqa: F401  (API clients, for the test_api_* modules here)
from tests.factories import make_user, start_game  # noqa: F401  (re-exported for the tests here)


def win(winner, loser, kind: str = "onitama", rated: bool = True) -> Game:
    """A game that ``winner`` wins by the loser's resignation."""
    game = start_game(winner, loser, kind, rated=rated)
    return services.game_resign(game_id=game.pk, user=loser)
