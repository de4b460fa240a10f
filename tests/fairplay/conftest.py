"""Finished rated games played through the real services, with pickers that copy the bot
(the same view, level and seed the check will use) or play at random."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.bots import choose_move
from fairplay.agreement import decision_seed
from games import services
from games.models import Game
from tests.api_clients import alice_api, anon, api_settings, bob_api  # noqa: F401  (API clients, for the test_api_* modules here)
from tests.factories import make_staff, make_user, start_game, to_move  # noqa: F401  (re-exported for the tests here)

LEVEL = 2

Picker = Callable[[Game], str]


@pytest.fixture(autouse=True)
def _quick_bot(settings):
    """Tests ask a weak, fast bot (the check's bot has no time cap: its budget decides)."""
    settings.FAIRPLAY_BOT_LEVEL = LEVEL
    settings.FAIRPLAY_SKIP_OPENING = 0


def bot_copier(level: int = LEVEL) -> Picker:
    """Play exactly the bot's first choice, asked as the fair-play check asks it."""

    def pick(game: Game) -> str:
        rules = services.rules_for(game.kind)
        view = rules.view(services.game_state(game), game.to_move_side)
        return choose_move(game.kind, view, level=level, seed=decision_seed(game.pk, game.ply + 1))

    return pick


def random_player(seed: int = 1) -> Picker:
    rng = random.Random(seed)

    def pick(game: Game) -> str:
        rules = services.rules_for(game.kind)
        return rules.move_text(rng.choice(rules.legal_moves(services.game_state(game))))

    return pick


def play(game: Game, pickers: dict, *, decisions: int, resign=None) -> Game:
    """Play up to ``decisions`` decisions, each by the picker of the user to move; then, if
    the game still runs and ``resign`` is given, that user resigns."""
    for _ in range(decisions):
        game.refresh_from_db()
        if not game.is_active:
            break
        mover = to_move(game)
        services.move_submit(game_id=game.pk, user=mover, move_text=pickers[mover.pk](game), expected_ply=game.ply)
    game.refresh_from_db()
    if game.is_active and resign is not None:
        services.game_resign(game_id=game.pk, user=resign)
        game.refresh_from_db()
    return game


def finished(first, second, kind: str = "onitama", *, rated: bool = True, decisions: int = 6) -> Game:
    """A finished game of a few random decisions, ended by ``second`` resigning."""
    game = start_game(first, second, kind, rated=rated)
    return play(game, {first.pk: random_player(1), second.pk: random_player(2)}, decisions=decisions, resign=second)


@pytest.fixture
def staff(db):
    return make_staff("staffer")
