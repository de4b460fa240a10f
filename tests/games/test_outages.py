"""Outage protection of the game clocks (games.outages): a sweep frozen past several
deadlines extends them by the gap before anything times out, and a sweep never times
out more than its share of the running games without staff confirming it."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import outages, services, tasks
from games.errors import Conflict, InvalidInput, NotAllowed
from games.models import Alarm, ClockOutage, ClockSweep, Game, GameStatus, TimeoutBatch, TimeoutBatchStatus

from .conftest import first_legal, play, start_game

pytestmark = pytest.mark.django_db

GAP = timedelta(minutes=15)


@pytest.fixture(autouse=True)
def _outage_settings(settings):
    settings.GAMES_OUTAGE_GAP_SECONDS = int(GAP.total_seconds())
    settings.GAMES_TIMEOUT_MAX_SHARE = 0.10
    settings.GAMES_TIMEOUT_MIN_UNCONFIRMED = 2


def due_at(deadline, red, blue, days=3) -> Game:
    """A game (nobody has moved) whose clock runs out at ``deadline``."""
    game = services.game_create(
        kind="onitama",
        seats={"red": red, "blue": blue},
        options={"cards": "base"},
        days_per_move=days,
        now=deadline - timedelta(days=days),
    )
    assert game.deadline == deadline
    return game


def fresh(row):
    """The row as the database has it now (the given object keeps its old values)."""
    return type(row).objects.get(pk=row.pk)


def sweep(now):
    return outages.games_sweep(now=now)


def test_a_frozen_sweep_extends_the_deadlines_inside_the_gap_by_its_length(alice, bob, caplog):
    t0 = timezone.now()
    inside = [due_at(t0 + timedelta(minutes=m), alice, bob) for m in (10, 30, 50)]
    after = due_at(t0 + timedelta(hours=5), alice, bob)
    assert sweep(t0).timed_out == 0  # the first sweep ever: no outage
    assert not ClockOutage.objects.exists()

    t1 = t0 + timedelta(hours=1)  # the sweep was frozen past three deadlines
    with caplog.at_level(logging.WARNING, logger="games.outages"):
        result = sweep(t1)
    assert (result.timed_out, result.extended, result.held) == (0, 3, 0)
    for game in inside:
        moved = fresh(game)
        assert moved.status == GameStatus.ACTIVE and game.deadline is not None
        assert moved.deadline == game.deadline + timedelta(hours=1)  # exactly the gap
        assert moved.turn_paused == timedelta(hours=1)
        assert moved.deadline == services.game_deadline(moved)
        last_call = Alarm.objects.get(game=moved, kind="last_call")
        assert last_call.due_at == moved.deadline - timedelta(hours=6)  # the alarms follow
    assert fresh(after).deadline == after.deadline and fresh(after).turn_paused == timedelta(0)
    outage = ClockOutage.objects.get()
    assert (outage.started_at, outage.ended_at, outage.length) == (t0, t1, timedelta(hours=1))
    assert set(outage.games.all()) == set(inside)
    assert "clock outage" in caplog.text and "3 deadline(s) extended" in caplog.text
    sweep_row = ClockSweep.objects.get()
    assert (sweep_row.swept_at, sweep_row.games_extended, sweep_row.games_timed_out) == (t1, 3, 0)

    # Normal sweeps again: each game runs out only at its extended deadline.
    first = fresh(inside[0])
    assert sweep(first.deadline - timedelta(seconds=1)).timed_out == 0
    assert sweep(first.deadline + timedelta(seconds=1)).timed_out == 1
    assert fresh(first).status == GameStatus.ABORTED and fresh(first).result_reason == "aborted_timeout"
    assert [fresh(g).status for g in inside[1:]] == [GameStatus.ACTIVE] * 2
    assert ClockOutage.objects.count() == 1


@pytest.mark.parametrize("gap", [timedelta(minutes=14), GAP])
def test_a_gap_no_longer_than_the_setting_is_no_outage(alice, bob, gap):
    t0 = timezone.now()
    late = due_at(t0 + timedelta(minutes=5), alice, bob)
    sweep(t0)
    result = sweep(t0 + gap)
    assert (result.timed_out, result.extended) == (1, 0)
    assert fresh(late).status == GameStatus.ABORTED
    assert not ClockOutage.objects.exists()


def test_two_sweeps_with_the_same_time_extend_once(alice, bob):
    t0 = timezone.now()
    game = due_at(t0 + timedelta(minutes=20), alice, bob)
    sweep(t0)
    t1 = t0 + timedelta(minutes=40)
    assert sweep(t1).extended == 1
    assert sweep(t1).extended == 0  # waited for the first one's lock, then found no gap
    assert game.deadline is not None
    assert fresh(game).deadline == game.deadline + timedelta(minutes=40)
    assert ClockOutage.objects.count() == 1


def test_the_sweep_task_reports_extensions_and_held_games(alice, bob):
    first = tasks.games_timeout_sweep.delay().get()
    assert first == {
        "games_timed_out": 0,
        "games_extended_for_outage": 0,
        "games_held_for_staff": 0,
        "challenges_expired": 0,
    }
    now = timezone.now()
    ClockSweep.objects.update(swept_at=now - timedelta(hours=1))
    game = due_at(now - timedelta(minutes=30), alice, bob)
    result = tasks.games_timeout_sweep.delay().get()
    assert result["games_extended_for_outage"] == 1 and result["games_timed_out"] == 0
    assert fresh(game).status == GameStatus.ACTIVE and fresh(game).deadline > now


def held_batch(alice, bob, t0):
    """Twelve running games, four of them due between two sweeps at once (two allowed):
    (the four, the batch). The fourth has moved before, so it would lose on time."""
    running = [due_at(t0 + timedelta(days=2), alice, bob) for _ in range(8)]
    due = [due_at(t0 + timedelta(minutes=m), alice, bob) for m in (1, 2, 3)]
    loser = play(start_game(alice, bob), 2)
    Game.objects.filter(pk=loser.pk).update(deadline=t0 + timedelta(minutes=4))
    due.append(fresh(loser))
    assert Game.objects.filter(status=GameStatus.ACTIVE).count() == len(running) + 4
    assert sweep(t0).timed_out == 0
    return due, running


def test_too_many_timeouts_at_once_are_held_for_staff(alice, bob, caplog):
    t0 = timezone.now()
    due, _running = held_batch(alice, bob, t0)
    with caplog.at_level(logging.WARNING, logger="games.outages"):
        result = sweep(t0 + timedelta(minutes=5))
    assert (result.timed_out, result.held) == (0, 4)
    assert "4 game(s) due at once, at most 2 allowed of 12 running" in caplog.text
    batch = TimeoutBatch.objects.get()
    assert batch.status == TimeoutBatchStatus.PENDING and batch.since == t0 and batch.active_games == 12
    assert sorted(batch.holds.values_list("game_id", flat=True)) == sorted(g.pk for g in due)
    assert all(fresh(g).status == GameStatus.ACTIVE for g in due)

    # Later sweeps leave the held games alone and make no second batch...
    assert sweep(t0 + timedelta(minutes=10)).held == 0
    assert TimeoutBatch.objects.count() == 1 and batch.holds.count() == 4
    assert all(fresh(g).status == GameStatus.ACTIVE for g in due)
    # ...but still end a game that runs out on its own.
    alone = due_at(t0 + timedelta(minutes=12), alice, bob)
    assert sweep(t0 + timedelta(minutes=13)).timed_out == 1
    assert fresh(alone).status == GameStatus.ABORTED
    assert TimeoutBatch.objects.count() == 1


def test_staff_confirm_a_held_batch_and_the_games_time_out(alice, bob, carol):
    t0 = timezone.now()
    due, running = held_batch(alice, bob, t0)
    sweep(t0 + timedelta(minutes=5))
    batch = TimeoutBatch.objects.get()
    moved_on = due[2]  # its player moves after all: a new turn, nothing to decide
    services.move_submit(
        game_id=moved_on.pk, user=moved_on.to_move_user, move_text=first_legal(fresh(moved_on)), expected_ply=0
    )
    staff = type(alice).objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    with pytest.raises(NotAllowed):
        outages.timeout_batch_games_time_out(batch_id=batch.pk, staff=carol, reason="Real timeouts.")
    with pytest.raises(InvalidInput):
        outages.timeout_batch_games_time_out(batch_id=batch.pk, staff=staff, reason="  ")

    decided_at = t0 + timedelta(minutes=7)
    outages.timeout_batch_games_time_out(batch_id=batch.pk, staff=staff, reason="A tournament round.", now=decided_at)
    batch.refresh_from_db()
    assert (batch.status, batch.decided_by, batch.decided_at, batch.reason, batch.games_changed) == (
        TimeoutBatchStatus.CONFIRMED,
        staff,
        decided_at,
        "A tournament round.",
        3,
    )
    for game in due[:2]:  # the side to move never moved: aborted, as the sweep does
        assert (fresh(game).status, fresh(game).result_reason) == (GameStatus.ABORTED, "aborted_timeout")
    loser = fresh(due[3])
    assert (loser.status, loser.result_reason) == (GameStatus.FINISHED, "timeout")
    assert loser.winner_side == ("blue" if due[3].to_move_side == "red" else "red")
    assert fresh(moved_on).status == GameStatus.ACTIVE and fresh(moved_on).turn == 2
    assert all(fresh(g).status == GameStatus.ACTIVE for g in running)
    with pytest.raises(Conflict):
        outages.timeout_batch_clocks_extend(batch_id=batch.pk, staff=staff, reason="Changed my mind.")


def test_staff_extend_a_held_batch_as_an_outage(alice, bob):
    t0 = timezone.now()
    due, _running = held_batch(alice, bob, t0)
    sweep(t0 + timedelta(minutes=5))
    sweep(t0 + timedelta(minutes=10))
    batch = TimeoutBatch.objects.get()
    staff = type(alice).objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    decided_at = t0 + timedelta(minutes=12)
    outages.timeout_batch_clocks_extend(batch_id=batch.pk, staff=staff, reason="Mail was down.", now=decided_at)
    batch.refresh_from_db()
    assert (batch.status, batch.decided_by, batch.reason, batch.games_changed) == (
        TimeoutBatchStatus.EXTENDED,
        staff,
        "Mail was down.",
        4,
    )
    first = fresh(due[0])
    # The time since the sweep before the batch (t0) comes back: 1 minute left again.
    assert first.deadline == due[0].deadline + (decided_at - t0) == decided_at + timedelta(minutes=1)
    assert first.deadline == services.game_deadline(first)
    assert sweep(decided_at + timedelta(seconds=30)).timed_out == 0
    assert sweep(first.deadline + timedelta(seconds=1)).timed_out == 1
    assert fresh(first).status == GameStatus.ABORTED
    assert fresh(due[1]).status == GameStatus.ACTIVE
    assert not TimeoutBatch.objects.filter(status=TimeoutBatchStatus.PENDING).exists()


def test_the_outage_and_sweep_records_are_read_only_in_the_admin(client, alice, bob):
    t0 = timezone.now() - timedelta(hours=2)
    due_at(t0 + timedelta(minutes=30), alice, bob)
    sweep(t0)
    sweep(t0 + timedelta(hours=1))
    outage = ClockOutage.objects.get()
    admin = type(alice).objects.create_superuser("boss", "boss@example.org", "pw-boss-123456")
    client.force_login(admin)
    page = client.get(reverse("admin:games_clockoutage_change", args=[outage.pk]))
    assert page.status_code == 200 and 'name="started_at"' not in page.content.decode()
    assert client.get(reverse("admin:games_clockoutage_changelist")).status_code == 200
    assert client.get(reverse("admin:games_clocksweep_changelist")).status_code == 200
    assert client.post(reverse("admin:games_clockoutage_delete", args=[outage.pk])).status_code == 403
    assert client.get(reverse("admin:games_clockoutage_add")).status_code == 403


def test_a_held_game_that_moved_on_is_swept_again_on_its_new_turn(alice, bob):
    t0 = timezone.now()
    due, _running = held_batch(alice, bob, t0)
    sweep(t0 + timedelta(minutes=5))
    moved_on = due[0]
    services.move_submit(
        game_id=moved_on.pk, user=moved_on.to_move_user, move_text=first_legal(fresh(moved_on)), expected_ply=0
    )
    Game.objects.filter(pk=moved_on.pk).update(deadline=t0 + timedelta(minutes=8))
    assert sweep(t0 + timedelta(minutes=9)).timed_out == 1  # turn 2 was never held
    assert fresh(moved_on).status == GameStatus.ABORTED  # the second side never moved
    assert [fresh(g).status for g in due[1:]] == [GameStatus.ACTIVE] * 3
