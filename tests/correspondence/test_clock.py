"""The one deadline function: quiet hours in the player's time zone (with daylight
saving changes) and vacations that stop the clock."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail

from correspondence import services
from correspondence.errors import CorrespondenceError
from games import services as games_services
from games.clock import in_quiet_hours, local_hour_next, quiet_hours_shift
from games.models import Alarm, Game, GameStatus
from tests.factories import running_deadline, to_move, turn_start

from .conftest import play, start_game

UTC = UTC


def test_quiet_hours_move_a_night_deadline_to_the_morning_in_the_players_zone():
    # 23:30 in Jakarta (UTC+7) is 16:30 UTC; the night 22-7 ends at 07:00 Jakarta = 00:00 UTC
    moment = datetime(2026, 6, 1, 16, 30, tzinfo=UTC)
    shifted = quiet_hours_shift(moment, time_zone="Asia/Jakarta", start=22, end=7)
    assert shifted == datetime(2026, 6, 2, 0, 0, tzinfo=UTC)
    # after midnight, still in the night: the same morning
    early = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)  # 03:00 Jakarta
    assert quiet_hours_shift(early, time_zone="Asia/Jakarta", start=22, end=7) == shifted
    # outside the night, or no night set: unchanged
    day = datetime(2026, 6, 1, 5, 0, tzinfo=UTC)  # 12:00 Jakarta
    assert quiet_hours_shift(day, time_zone="Asia/Jakarta", start=22, end=7) == day
    assert quiet_hours_shift(moment, time_zone="Asia/Jakarta", start=None, end=None) == moment
    # a night that does not cross midnight
    assert in_quiet_hours(datetime(2026, 6, 1, 2, tzinfo=UTC), time_zone="UTC", start=1, end=5)
    assert not in_quiet_hours(datetime(2026, 6, 1, 6, tzinfo=UTC), time_zone="UTC", start=1, end=5)


def test_quiet_hours_across_daylight_saving_changes():
    # Europe/Berlin springs forward on 2026-03-29 (02:00 -> 03:00): the night 23-7 that
    # begins on the 28th ends at 07:00 CEST = 05:00 UTC (not 06:00 as in winter)
    late = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)  # 00:00 CET
    assert quiet_hours_shift(late, time_zone="Europe/Berlin", start=23, end=7) == datetime(
        2026, 3, 29, 5, 0, tzinfo=UTC
    )
    # and falls back on 2026-10-25: that morning's 07:00 CET is 06:00 UTC
    autumn = datetime(2026, 10, 24, 23, 30, tzinfo=UTC)  # 00:30 CET... after fall back
    assert quiet_hours_shift(autumn, time_zone="Europe/Berlin", start=23, end=7) == datetime(
        2026, 10, 25, 6, 0, tzinfo=UTC
    )
    # America/New_York: the digest hour 8:00 is 13:00 UTC in winter, 12:00 UTC in summer
    assert local_hour_next(datetime(2026, 3, 7, 14, tzinfo=UTC), time_zone="America/New_York", hour=8) == datetime(
        2026, 3, 8, 12, 0, tzinfo=UTC
    )
    assert local_hour_next(datetime(2026, 1, 10, 14, tzinfo=UTC), time_zone="America/New_York", hour=8) == datetime(
        2026, 1, 11, 13, 0, tzinfo=UTC
    )


@pytest.mark.django_db
def test_a_game_deadline_in_the_night_moves_and_follows_a_change_of_quiet_hours(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    nominal = turn_start(game) + timedelta(days=3)
    assert game.deadline == nominal
    local_hour = nominal.astimezone(UTC).hour
    services.mail_preferences_update(user=mover, quiet_hours_start=local_hour, quiet_hours_end=(local_hour + 2) % 24)
    game.refresh_from_db()
    expected = nominal.replace(minute=0, second=0, microsecond=0) + timedelta(hours=2)
    assert game.deadline == expected == games_services.game_deadline(game)
    # the reminders follow the new deadline
    last_call = Alarm.objects.get(game=game, kind="last_call")
    assert last_call.due_at == expected - timedelta(hours=6)
    services.mail_preferences_update(user=mover, quiet_hours_start=None, quiet_hours_end=None)
    game.refresh_from_db()
    assert game.deadline == nominal


@pytest.mark.django_db
def test_vacation_stops_the_clock_and_gives_the_time_back(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    mover = to_move(game)
    other = bob if mover == alice else alice
    start = turn_start(game) + timedelta(days=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.vacation_start(user=mover, days=2, now=start)
    game.refresh_from_db()
    assert game.deadline is None and game.clock_paused_at == start
    assert not Alarm.objects.filter(game=game, kind__in=["reminder", "last_call"]).exists()
    # the opponents are told
    assert [m.to for m in mail.outbox] == [[other.email]]
    assert "is on vacation" in mail.outbox[0].subject
    # a stopped clock never times out
    assert games_services.games_time_out(now=start + timedelta(days=30)) == 0
    end = start + timedelta(days=1, hours=5)
    services.vacation_end(user=mover, now=end)
    game.refresh_from_db()
    assert game.clock_paused_at is None and game.turn_paused == timedelta(days=1, hours=5)
    assert game.deadline == game.turn_started_at + timedelta(days=3) + timedelta(days=1, hours=5)
    assert Alarm.objects.filter(game=game, kind="reminder").exists()
    # the next turn starts with a fresh clock
    play(game, 1)
    game.refresh_from_db()
    assert game.turn_paused == timedelta(0)


@pytest.mark.django_db
def test_a_turn_that_starts_during_a_vacation_starts_stopped(alice, bob):
    game = start_game(alice, bob)
    waiting = bob if game.to_move_user == alice else alice
    services.vacation_start(user=waiting, days=2)
    game = play(game, 1)
    assert game.to_move_user == waiting and game.deadline is None and game.clock_paused_at is not None


@pytest.mark.django_db
def test_a_game_that_forbids_vacations_keeps_its_clock(alice, bob):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(vacation_allowed=False)
    deadline = running_deadline(game)
    services.vacation_start(user=game.to_move_user, days=1)
    game.refresh_from_db()
    assert game.deadline == deadline and game.clock_paused_at is None
    assert games_services.games_time_out(now=deadline + timedelta(seconds=1)) == 1
    assert Game.objects.get(pk=game.pk).status != GameStatus.ACTIVE


@pytest.mark.django_db
def test_the_vacation_allowance_accrues_monthly_is_capped_and_is_spent(alice, settings):
    settings.CORRESPONDENCE_VACATION_DAYS_PER_YEAR = 24  # 2 days a month
    settings.CORRESPONDENCE_VACATION_CAP_DAYS = 5
    january = datetime(2026, 1, 15, 12, tzinfo=UTC)
    with pytest.raises(CorrespondenceError) as refused:
        services.vacation_start(user=alice, days=3, now=january)  # only 2 days so far
    assert refused.value.code == "vacation_too_long" and refused.value.status == 409
    services.vacation_start(user=alice, days=2, now=january)
    with pytest.raises(CorrespondenceError):
        services.vacation_start(user=alice, days=1, now=january)  # already on vacation
    services.vacation_end(user=alice, now=january + timedelta(hours=10))  # ended early: 10 h used
    from correspondence.models import VacationAccount

    assert VacationAccount.objects.get(user=alice).balance_hours == 48 - 10
    # five months later the balance is capped at 5 days
    services.vacation_start(user=alice, days=5, now=datetime(2026, 6, 2, tzinfo=UTC))
    assert services.vacations_expire(now=datetime(2026, 6, 8, tzinfo=UTC)) == 1
    assert VacationAccount.objects.get(user=alice).balance_hours == 0
    alice.refresh_from_db()
    assert alice.vacation_since is None
    with pytest.raises(CorrespondenceError) as refused:
        services.vacation_end(user=alice)
    assert refused.value.code == "not_on_vacation"
