"""Two workers pairing the same round at the same time, on PostgreSQL: one round."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.helpers import run_together, succeeded
from tournaments import services
from tournaments.models import Pairing, Round
from tournaments.tasks import tournament_advance

from .conftest import make_user

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_workers_pair_round_one_once(monkeypatch):
    players = [make_user("p%d" % i) for i in range(6)]
    t = services.tournament_create(actor=None, name="Race", kind="onitama", format="swiss")
    services.tournament_open_registration(tournament_id=t.pk, actor=None)
    for user in players:
        services.tournament_register(tournament_id=t.pk, user=user)
    # Start without letting the start's own task run: the two "workers" below race for round 1.
    queued = []
    monkeypatch.setattr(tournament_advance, "delay", lambda *args: queued.append(args))
    services.tournament_start(tournament_id=t.pk, actor=None)
    monkeypatch.undo()
    assert queued == [(t.pk,)]  # handed to the broker, and not run
    # The task as a worker runs it, by two workers at once.
    outcomes = run_together([lambda: tournament_advance.apply(args=[t.pk]) for _ in range(2)])
    assert [o for o in outcomes if isinstance(o, BaseException) or o.failed()] == []
    assert sorted(o.result for o in succeeded(outcomes)) == ["paired round 1", "waiting"]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Pairing.objects.filter(tournament=t).count() == 3
    assert Game.objects.filter(tournament_pairing__tournament=t).count() == 3


def test_last_two_games_ending_together_pair_the_next_round_once():
    from games import services as game_services

    players = [make_user("q%d" % i) for i in range(4)]
    from .conftest import started

    t = started(players, format="round_robin")
    games = list(Game.objects.filter(tournament_pairing__tournament=t))
    results = run_together(
        [lambda g=g: game_services.game_resign(game_id=g.pk, user=g.seats.get(position=0).user) for g in games]
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert Round.objects.filter(tournament=t).count() == 2
    assert Pairing.objects.filter(tournament=t, round__number=2).count() == 2
