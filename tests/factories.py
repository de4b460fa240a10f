"""Plain helpers that build test data, shared by every app's tests.

The common players are fixtures in tests/conftest.py (``alice``, ``bob``,
``carol``, ``staff_client``); apps' conftests import from here for more: users and
staff, games started through the challenge services, and moves played in them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from unittest import mock

from django.contrib.auth import get_user_model

import engine
from accounts.models import User
from engine import fair
from games import services
from games.models import Game, Seat


def make_user(name: str, *, email: bool = True) -> User:
    """An active user ``name`` with the password ``pw-<name>-123456`` (and no email if asked)."""
    return get_user_model().objects.create_user(
        username=name, email="%s@example.org" % name if email else "", password="pw-" + name + "-123456"
    )


def make_staff(name: str, *, superuser: bool = True) -> User:
    """A staff member ``name`` (``make_user``'s password and address), a superuser unless asked."""
    user = make_user(name)
    user.is_staff = True
    user.is_superuser = superuser
    user.save()
    return user


def start_game(
    challenger: User,
    opponent: User,
    kind: str = "onitama",
    options: Mapping[str, object] | None = None,
    seat_choice: str | None = None,
    days_per_move: int = 3,
    rated: bool = True,
    *,
    now: datetime | None = None,
    seed: int | None = None,
) -> Game:
    """A game between two users through the challenge services, started at ``now`` (by
    default the current time); the challenger takes the first side listed by the engine
    unless ``seat_choice`` says otherwise. ``seed`` fixes the deal (the game's secret seed),
    so that a test which plays random moves in it replays the same game on every run."""
    if seed is not None:
        with mock.patch.object(fair, "new_seed", return_value=seed):
            return start_game(
                challenger, opponent, kind, options, seat_choice, days_per_move, rated, now=now, seed=None
            )
    rules = engine.get_game(kind)
    challenge = services.challenge_create(
        challenger=challenger,
        opponent=opponent,
        kind=kind,
        options=options,
        days_per_move=days_per_move,
        rated=rated,
        seat_choice=seat_choice or rules.players[0],
        now=now,
    )
    return services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)


def first_legal(game: Game) -> str:
    """The text of the first legal decision of the side to move."""
    rules = engine.get_game(game.kind)
    state = services.game_state(game)
    return rules.move_text(rules.legal_moves(state)[0])


def to_move(game: Game) -> User:
    """The player whose turn it is in ``game``, which is running and not a bot's turn."""
    assert game.to_move_user is not None, "nobody is to move in game %s (%s)" % (game.pk, game.status)
    return game.to_move_user


def turn_start(game: Game) -> datetime:
    """When the current turn of ``game``, which is running, started."""
    assert game.turn_started_at is not None, "game %s has no turn running (%s)" % (game.pk, game.status)
    return game.turn_started_at


def running_deadline(game: Game) -> datetime:
    """The deadline of ``game``, whose clock runs (not held, nobody to move on vacation)."""
    assert game.deadline is not None, "the clock of game %s is stopped (%s)" % (game.pk, game.status)
    return game.deadline


def seated(seat: Seat | None) -> User:
    """The player in ``seat``, which exists and is a person's (a bot's seat has no user)."""
    assert seat is not None, "no such seat"
    assert seat.user is not None, "seat %s of game %s is a bot's" % (seat.position, seat.game_id)
    return seat.user


def play(game: Game, decisions: int, *, pick: Callable[[Game], str] = first_legal) -> Game:
    """Play ``decisions`` decisions (fewer if the game ends) as whoever is to move."""
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != "active":
            break
        services.move_submit(game_id=game.pk, user=to_move(game), move_text=pick(game), expected_ply=game.ply)
    game.refresh_from_db()
    return game
