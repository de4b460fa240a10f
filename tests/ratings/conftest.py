"""Players and finished rated games for the ratings tests."""
from __future__ import annotations

from games import services
from games.models import Game
from tests.factories import make_user  # noqa: F401  (re-exported for the tests here)


def rated_game(first, second, kind: str = "onitama", rated: bool = True, *, now=None) -> Game:
    """A running game between two users through the challenge services, started at
    ``now`` (by default the current time)."""
    rules = services.rules_for(kind)
    challenge = services.challenge_create(challenger=first, opponent=second, kind=kind,
                                          rated=rated, seat_choice=rules.players[0], now=now)
    return services.challenge_accept(challenge_id=challenge.pk, user=second, now=now)


def win(winner, loser, kind: str = "onitama", rated: bool = True) -> Game:
    """A game that ``winner`` wins by the loser's resignation."""
    game = rated_game(winner, loser, kind, rated)
    return services.game_resign(game_id=game.pk, user=loser)
