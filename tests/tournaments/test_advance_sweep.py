"""The tournaments sweep (services.tournaments_advance_requeue): a pairing task lost with a
killed worker (after the start, a round's last game or a drawn knockout game) is enqueued
again once overdue, and pairs the round once however often it runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Game
from tournaments import services, tasks
from tournaments.models import Pairing, Result, Round, Tournament, TournamentStatus

from .conftest import finish, make_user, running_games, seated, started

# Transactional: the pairing task and the mail run when each service commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lost(monkeypatch):
    """While on (from the start, or after ``start()``), every pairing task sent is lost, as
    with a worker killed holding it; ``sent`` lists them. ``stop()`` lets tasks run again."""
    real = tasks.tournament_advance.delay

    class Lost:
        sent: list[int] = []

        @classmethod
        def start(cls) -> None:
            monkeypatch.setattr(tasks.tournament_advance, "delay", cls.sent.append)

        @staticmethod
        def stop() -> None:
            monkeypatch.setattr(tasks.tournament_advance, "delay", real)

    Lost.sent = []
    Lost.start()
    return Lost


def players(n: int) -> list:
    return [make_user("sw%d" % i) for i in range(n)]


def _age(tournament: Tournament, seconds: float | None = None) -> None:
    """Make everything that happened in the tournament older than the overdue threshold."""
    then = timezone.now() - timedelta(seconds=seconds or settings.TOURNAMENTS_ADVANCE_OVERDUE_SECONDS + 5)
    Tournament.objects.filter(pk=tournament.pk).update(started_at=then)
    Round.objects.filter(tournament=tournament).update(created_at=then)
    Game.objects.filter(tournament_pairing__tournament=tournament, finished_at__isnull=False).update(finished_at=then)


def _rounds(tournament: Tournament) -> list[int]:
    return list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True))


def test_a_lost_start_is_paired_by_the_sweep(lost):
    t = started(players(4))
    assert lost.sent == [t.pk] and _rounds(t) == []
    lost.stop()
    assert services.tournaments_advance_requeue() == 0  # just started: its own task may be running
    _age(t)
    assert services.tournaments_advance_requeue() == 1
    assert _rounds(t) == [1] and len(running_games(t)) == 2
    assert services.tournaments_advance_requeue() == 0  # round 1 is being played


def test_a_completed_round_left_unpaired_is_paired_once(lost):
    lost.stop()
    t = started(players(4))
    assert _rounds(t) == [1]
    lost.start()
    for game in running_games(t):
        finish(game, winner=seated(game.seats.order_by("position").first()))
    assert lost.sent == [t.pk] and _rounds(t) == [1]
    lost.stop()
    assert services.tournaments_advance_requeue() == 0  # its last game just ended: fresh
    _age(t)
    assert services.tournaments_advance_requeue() == 1
    assert _rounds(t) == [1, 2] and len(running_games(t)) == 2
    # a second sweep, and the lost task redelivered late, pair nothing more
    assert services.tournaments_advance_requeue() == 0
    assert tasks.tournament_advance.delay(t.pk).get() == "waiting"
    assert Pairing.objects.filter(round__tournament=t, round__number=2).count() == 2


def test_a_drawn_knockout_game_is_replayed_while_the_other_board_plays(lost):
    lost.stop()
    t = started(players(4), format="knockout")
    drawn, other = running_games(t)
    lost.start()
    finish(drawn, draw=True)
    assert lost.sent == [t.pk] and running_games(t) == [other]
    lost.stop()
    _age(t)
    assert services.tournaments_advance_requeue() == 1
    replay = Pairing.objects.get(tournament=t, board=drawn.tournament_pairing.board, leg=1)
    assert replay.result == Result.PENDING and replay.game in running_games(t)
    assert services.tournaments_advance_requeue() == 0  # both boards are playing


def test_paused_and_finished_tournaments_are_left_alone(lost, staff):
    paused, ended = started(players(4)), started([make_user("e1"), make_user("e2")])
    lost.stop()
    services.tournament_pause(tournament_id=paused.pk, actor=staff)
    services.tournament_end(tournament_id=ended.pk, actor=staff)
    for t in (paused, ended):
        _age(t)
    assert services.tournaments_advance_requeue() == 0
    assert _rounds(paused) == [] and Tournament.objects.get(pk=ended.pk).status == TournamentStatus.FINISHED


def test_a_knockout_board_won_outright_waits_for_the_round(lost):
    lost.stop()
    t = started(players(4), format="knockout")
    won, other = running_games(t)
    finish(won, winner=seated(won.seats.order_by("position").first()))
    _age(t)
    assert services.tournaments_advance_requeue() == 0
    assert running_games(t) == [other] and _rounds(t) == [1]
