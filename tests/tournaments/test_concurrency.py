"""Two workers pairing the same round at the same time, on PostgreSQL: one round."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import Game
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
    barrier = threading.Barrier(2)
    results: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            outcome = tournament_advance.apply(args=[t.pk])  # the task as a worker runs it
            if outcome.failed():
                raise outcome.result
            results.append(outcome.result)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert sorted(results) == ["paired round 1", "waiting"]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Pairing.objects.filter(tournament=t).count() == 3
    assert Game.objects.filter(tournament_pairing__tournament=t).count() == 3


def test_last_two_games_ending_together_pair_the_next_round_once():
    from games import services as game_services

    players = [make_user("q%d" % i) for i in range(4)]
    from .conftest import started
    t = started(players, format="round_robin")
    games = list(Game.objects.filter(tournament_pairing__tournament=t))
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def resign(game) -> None:
        try:
            barrier.wait()
            game_services.game_resign(game_id=game.pk, user=game.seats.get(position=0).user)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert Round.objects.filter(tournament=t).count() == 2
    assert Pairing.objects.filter(tournament=t, round__number=2).count() == 2
