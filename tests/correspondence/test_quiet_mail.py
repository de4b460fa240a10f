"""Quiet hours move game mail too: no turn mail, reminder, game-over mail or digest in the
recipient's night (it waits for the night's end), the last reminder of a deadline just
after a night goes before that night, and answers and account mail go at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail

from accounts.models import OutgoingMail
from accounts.outbox import outbox_add, outbox_send_due
from correspondence import services
from correspondence.models import DigestAlarm
from games import services as games_services
from games.models import Alarm
from tests.factories import to_move

from .conftest import play, start_game

pytestmark = pytest.mark.django_db

# A night from 22:00 to 07:00, in UTC, on both players.
NIGHT = {"time_zone": "UTC", "quiet_hours_start": 22, "quiet_hours_end": 7}


def _nights(*users) -> None:
    for user in users:
        for name, value in NIGHT.items():
            setattr(user, name, value)
        user.save()


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


def test_a_turn_starting_in_the_night_is_mailed_at_its_end(alice, bob):
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 23))
    mail.outbox.clear()
    result = services.alarms_send_due(now=_at(1, 23, 5))
    assert result.queued == 1 and result.sent == 0 and mail.outbox == []
    row = OutgoingMail.objects.get(kind="alarm")
    assert row.done_at is None and row.due_at == _at(2, 7)
    assert outbox_send_due(now=_at(2, 6, 59)).sent == 0
    assert outbox_send_due(now=_at(2, 7)).sent == 1
    [message] = mail.outbox
    assert message.to == [to_move(game).email] and "your turn" in message.subject
    assert OutgoingMail.objects.get(pk=row.pk).outcome == "sent"


def test_mail_deferred_by_the_night_is_judged_again_at_its_end(alice, bob):
    """A "your turn" that waited for the morning is not sent if the turn is over by then."""
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 23))
    services.alarms_send_due(now=_at(1, 23, 5))
    play(game, 1)  # moved on the site before the morning
    mail.outbox.clear()
    outbox_send_due(now=_at(2, 7))
    first_turn = OutgoingMail.objects.filter(kind="alarm").order_by("pk").first()
    assert first_turn is not None and first_turn.outcome == "stale"


def test_a_deadline_at_the_end_of_a_night_has_its_last_reminder_before_the_night(alice, bob):
    """Deadline 07:00, the night's end: the 6-hour reminder would be due at 01:00 in the
    night (and wait until 07:00, too late); it goes at 21:00, before the night."""
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 7))
    assert game.deadline == _at(4, 7)
    due = dict(Alarm.objects.filter(game=game, kind__in=["reminder", "last_call"]).values_list("kind", "due_at"))
    assert due["last_call"] == _at(3, 21)
    assert due["reminder"] == _at(1, 7) + timedelta(days=3) * 0.8  # 16:36, before the night: unmoved
    mail.outbox.clear()
    services.alarms_send_due(now=_at(3, 16, 40))
    assert services.alarms_send_due(now=_at(3, 21)).sent == 1
    assert "last hours to move" in mail.outbox[-1].subject and "Time left: 10\xa0hours" in mail.outbox[-1].body


def test_a_deadline_shifted_out_of_the_night_has_its_last_reminder_before_the_night(alice, bob):
    """The issue's case: a nominal deadline at 23:00 moves to 07:00; its reminder is not
    due at 01:00 inside the night."""
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 23))
    assert game.deadline == _at(5, 7)
    due = dict(Alarm.objects.filter(game=game, kind__in=["reminder", "last_call"]).values_list("kind", "due_at"))
    assert due["last_call"] == _at(4, 21)
    assert all(not (due_at.hour >= 22 or due_at.hour < 7) for due_at in due.values())


def test_a_deadline_well_after_the_night_keeps_its_reminder_which_waits_for_the_morning(alice, bob):
    """Deadline 11:00 (4 hours after the night): the last call due at 05:00 waits to 07:00."""
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 11))
    due = Alarm.objects.get(game=game, kind="last_call").due_at
    assert due == _at(4, 5)
    services.alarms_send_due(now=_at(3, 21))  # the share reminder (20:36)
    mail.outbox.clear()
    assert services.alarms_send_due(now=_at(4, 5)).sent == 0 and mail.outbox == []
    assert outbox_send_due(now=_at(4, 7)).sent == 1
    assert "Time left: 4\xa0hours" in mail.outbox[-1].body


def test_game_over_mail_and_the_digest_wait_for_the_end_of_the_night(alice, bob):
    _nights(alice, bob)
    game = start_game(alice, bob, now=_at(1, 12))
    services.alarms_send_due(now=_at(1, 12))
    games_services.game_resign(game_id=game.pk, user=alice, now=_at(1, 23))
    mail.outbox.clear()
    assert services.alarms_send_due(now=_at(1, 23)).sent == 0 and mail.outbox == []
    assert outbox_send_due(now=_at(2, 7)).sent == 2
    assert all("the game is over" in m.subject for m in mail.outbox)
    # the digest at 23:00, inside the night, goes at 07:00
    other = start_game(bob, alice, now=_at(2, 8))
    if other.to_move_user != alice:
        play(other, 1)
    services.mail_preferences_update(user=alice, turn_mail="digest", digest_hour=23)
    DigestAlarm.objects.filter(user=alice).update(due_at=_at(2, 23))
    mail.outbox.clear()
    result = services.digests_send_due(now=_at(2, 23))
    assert result.queued == 1 and result.sent == 0
    assert outbox_send_due(now=_at(3, 7)).sent == 1
    assert [m.to for m in mail.outbox] == [[alice.email]] and "waiting for your move" in mail.outbox[0].subject


def test_answers_and_account_mail_go_at_once_in_the_night(alice, bob, django_capture_on_commit_callbacks):
    from django.utils import timezone

    now = timezone.now()
    alice.quiet_hours_start, alice.quiet_hours_end = (now.hour - 1) % 24, (now.hour + 2) % 24
    alice.time_zone = "UTC"
    alice.save()
    game = start_game(alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        outbox_add(kind="password_reset", user=alice)
        outbox_add(kind="reply_answer", user=alice, object_id=game.pk, params={"result": {"status": "empty"}})
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, alice.email]
    # while a game mail to her at the same moment waits
    games_services.game_resign(game_id=game.pk, user=bob)
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    assert _to(alice) == [] and len(_to(bob)) == 1


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]
