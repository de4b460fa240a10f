"""A ladder with players in known positions, and helpers that finish ladder games."""

from __future__ import annotations

import pytest

from games import services as games_services
from games.models import Game
from ladder import services
from ladder.models import Ladder, LadderMember
from tests.api_clients import alice_api, anon, api_settings, bob_api  # noqa: F401  (API clients, for the test_api_* modules here)
from tests.factories import make_user


@pytest.fixture
def ladder(db):
    # The data migration creates it; a transactional test elsewhere may have flushed it.
    return Ladder.objects.get_or_create(kind="onitama", defaults={"name": "Onitama ladder"})[0]


@pytest.fixture
def players(ladder):
    """Ten players p1..p10 in positions 1..10."""
    users = [make_user("p%d" % i) for i in range(1, 11)]
    for user in users:
        services.ladder_join(ladder_id=ladder.pk, user=user)
    return users


def order(ladder) -> list[str]:
    """Usernames, top first."""
    return [
        m.user.username
        for m in LadderMember.objects.select_related("user")
        .filter(ladder=ladder, position__isnull=False)
        .order_by("position")
    ]


def position(ladder, user) -> int | None:
    return LadderMember.objects.get(ladder=ladder, user=user).position


def resign(game: Game, loser) -> Game:
    return games_services.game_resign(game_id=game.pk, user=loser)
