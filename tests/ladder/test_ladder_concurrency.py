"""Games ending at the same moment on the real PostgreSQL: ladder positions and ratings
are changed one game at a time, in order of game end, and never corrupted."""

import pytest
from django.db import connection

from games import services as games_services
from games.errors import GameActionError
from ladder import selectors, services
from ladder.models import EventKind, Ladder, LadderChallenge, LadderEvent, Outcome
from ratings.models import RatingChange
from tests.helpers import run_together

from .conftest import make_user, order

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ladder_of_twelve():
    ladder = Ladder.objects.create(kind="onitama", name="Concurrent ladder")
    users = [make_user("c%d" % i) for i in range(1, 13)]
    for user in users:
        services.ladder_join(ladder_id=ladder.pk, user=user)
    return ladder, users


def replay_climbs(ladder, start: list[str]) -> list[str]:
    """Apply the climb events in the order they were written, checking each against the replay."""
    names = list(start)
    for event in LadderEvent.objects.filter(ladder=ladder, kind=EventKind.CLIMBED).order_by("pk"):
        assert event.user is not None and event.other is not None  # a climb names both players
        climber, defender = event.user.username, event.other.username
        assert names.index(climber) + 1 == event.position_before
        assert names.index(defender) + 1 == event.position_after
        names.remove(climber)
        names.insert(event.position_after - 1, climber)
    return names


def test_postgresql_is_in_use():
    assert connection.vendor == "postgresql"


def test_many_ladder_games_ending_together_keep_the_order(ladder_of_twelve):
    ladder, u = ladder_of_twelve
    pairs = [(2, 0), (4, 1), (5, 3), (7, 2), (8, 4), (9, 5), (11, 7), (10, 6), (3, 0), (6, 1)]
    made = [services.ladder_challenge_create(ladder_id=ladder.pk, challenger=u[c], defender=u[d]) for c, d in pairs]
    start = order(ladder)
    # Every defender resigns at the same moment: every challenger wins.
    results = run_together([(lambda m=m: games_services.game_resign(game_id=m.game_id, user=m.defender)) for m in made])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert selectors.positions_are_a_permutation(ladder_id=ladder.pk)
    assert sorted(order(ladder)) == sorted(start)
    assert order(ladder) == replay_climbs(ladder, start)
    outcomes = list(LadderChallenge.objects.filter(ladder=ladder).values_list("outcome", flat=True))
    assert set(outcomes) <= {Outcome.CLIMBED, Outcome.UNCHANGED} and Outcome.CLIMBED in outcomes
    assert LadderEvent.objects.filter(kind=EventKind.CLIMBED).count() == outcomes.count(Outcome.CLIMBED)
    assert RatingChange.objects.count() == 2 * len(made)


def test_the_same_game_finished_twice_at_once_counts_once(ladder_of_twelve):
    ladder, u = ladder_of_twelve
    made = services.ladder_challenge_create(ladder_id=ladder.pk, challenger=u[5], defender=u[2])
    results = run_together(
        [
            lambda: games_services.game_resign(game_id=made.game_id, user=u[2]),
            lambda: games_services.game_resign(game_id=made.game_id, user=u[5]),
            lambda: games_services.game_resign(game_id=made.game_id, user=u[2]),
        ]
    )
    errors = [r for r in results if isinstance(r, GameActionError)]
    assert len(errors) == 2 and all(e.status == 409 for e in errors), results
    assert RatingChange.objects.filter(game_id=made.game_id).count() == 2
    made.refresh_from_db()
    assert made.outcome in (Outcome.CLIMBED, Outcome.DEFENDED)
    assert LadderEvent.objects.filter(kind=EventKind.CLIMBED).count() == (1 if made.outcome == Outcome.CLIMBED else 0)
    assert selectors.positions_are_a_permutation(ladder_id=ladder.pk)


def test_leaving_while_games_end_and_players_join(ladder_of_twelve):
    ladder, u = ladder_of_twelve
    made = [
        services.ladder_challenge_create(ladder_id=ladder.pk, challenger=u[c], defender=u[d])
        for c, d in [(6, 4), (5, 4), (9, 7), (10, 8)]
    ]
    newcomers = [make_user("late%d" % i) for i in range(3)]
    results = run_together(
        [lambda: services.ladder_leave(ladder_id=ladder.pk, user=u[4])]
        + [(lambda m=m: games_services.game_resign(game_id=m.game_id, user=m.defender)) for m in made[2:]]
        + [(lambda n=n: services.ladder_join(ladder_id=ladder.pk, user=n)) for n in newcomers]
    )
    assert not [
        r for r in results if isinstance(r, Exception) and not (isinstance(r, GameActionError) and r.status == 409)
    ], results
    assert selectors.positions_are_a_permutation(ladder_id=ladder.pk)
    assert "c5" not in order(ladder) and len(order(ladder)) == 14
    for m in made:
        m.refresh_from_db()
        assert m.outcome != ""  # every game ended and was applied
    assert {m.outcome for m in made[:2]} <= {Outcome.UNCHANGED, Outcome.DEFENDED}
