"""Players and finished rated games for the ratings tests."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game


def make_user(name: str):
    return get_user_model().objects.create_user(
        username=name, email="%s@example.org" % name, password="pw-" + name + "-123456")


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")


def rated_game(first, second, kind: str = "onitama", rated: bool = True) -> Game:
    """A running game between two users through the challenge services."""
    rules = services.rules_for(kind)
    challenge = services.challenge_create(challenger=first, opponent=second, kind=kind,
                                          rated=rated, seat_choice=rules.players[0])
    return services.challenge_accept(challenge_id=challenge.pk, user=second)


def win(winner, loser, kind: str = "onitama", rated: bool = True) -> Game:
    """A game that ``winner`` wins by the loser's resignation."""
    game = rated_game(winner, loser, kind, rated)
    return services.game_resign(game_id=game.pk, user=loser)
