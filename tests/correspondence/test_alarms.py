"""The alarm sweep: due and not due, once only, stale turns, preferences, the outbox's
claims, query count."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import outbox
from accounts.models import OutgoingMail
from correspondence import pictures, services, tasks
from games.models import Alarm
from tests.factories import to_move, turn_start
from tests.helpers import html_alternative

from .conftest import play, start_game

pytestmark = pytest.mark.django_db


def test_your_turn_goes_out_once_with_text_html_picture_link_and_unsubscribe(onitama_game):
    game = onitama_game
    mail.outbox.clear()
    result = services.alarms_send_due(now=timezone.now())
    assert result.sent == 1 and len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [to_move(game).email]
    opponent = next(seat.player_name for seat in game.seats.all() if seat.user_id != game.to_move_user_id)
    assert "Onitama #%d with %s: your turn" % (game.pk, opponent) == message.subject
    html = html_alternative(message)
    assert "cid:board" in html and "/correspondence/open/" in html
    assert "/correspondence/open/" in message.body
    image = [part for part in message.attachments if part.get_content_type() == "image/png"]
    assert len(image) == 1 and image[0].get_payload(decode=True).startswith(b"\x89PNG")
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/correspondence/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.match(r"^play-%d-%d-0-[0-9a-f]{20}@" % (game.pk, game.to_move_user_id), message.reply_to[0])
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    # a second sweep sends nothing: the alarm is marked sent
    assert services.alarms_send_due(now=timezone.now()).sent == 0
    assert len(mail.outbox) == 1
    alarm = Alarm.objects.get(game=game, kind="your_turn")
    assert alarm.outcome == "queued"
    assert OutgoingMail.objects.get(kind="alarm", object_id=alarm.pk).outcome == "sent"


def test_reminders_due_and_not_due(onitama_game):
    game = onitama_game
    services.alarms_send_due(now=timezone.now())
    mail.outbox.clear()
    started = game.turn_started_at
    assert services.alarms_send_due(now=started + timedelta(days=2)).sent == 0  # 67 % used
    assert services.alarms_send_due(now=started + timedelta(days=2.4, seconds=1)).sent == 1  # 80 %
    assert "time is running out" in mail.outbox[-1].subject
    assert services.alarms_send_due(now=game.deadline - timedelta(hours=7)).sent == 0
    assert services.alarms_send_due(now=game.deadline - timedelta(hours=6)).sent == 1
    assert "last hours to move" in mail.outbox[-1].subject
    assert services.alarms_send_due(now=game.deadline - timedelta(hours=1)).sent == 0
    assert len(mail.outbox) == 2


def test_a_turn_that_ended_sends_no_reminder(onitama_game):
    game = onitama_game
    mover = game.to_move_user
    late = game.deadline - timedelta(hours=1)
    play(game, 1)  # the player moved: their turn's alarms are stale
    mail.outbox.clear()
    result = services.alarms_send_due(now=late)
    assert [m for m in mail.outbox if m.to == [mover.email]] == []
    assert Alarm.objects.get(game=game, turn=1, kind="your_turn").outcome == "stale"
    assert not Alarm.objects.filter(game=game, turn=1, kind__in=["reminder", "last_call"]).exists()
    assert result.outcomes["stale"] == 1


def test_preferences_turn_off_each_kind(onitama_game):
    user = onitama_game.to_move_user
    user.email_reminders = False
    user.turn_mail = "digest"
    user.save()
    mail.outbox.clear()
    services.alarms_send_due(now=onitama_game.deadline - timedelta(hours=1))
    assert mail.outbox == []
    outcomes = dict(Alarm.objects.filter(game=onitama_game).values_list("kind", "outcome"))
    assert outcomes == {"your_turn": "digest", "reminder": "off", "last_call": "off"}


def test_game_over_mail_once_per_player(onitama_game, alice, bob):
    from games import services as games_services

    services.alarms_send_due(now=timezone.now())
    mail.outbox.clear()
    games_services.game_resign(game_id=onitama_game.pk, user=alice)
    assert services.alarms_send_due(now=timezone.now()).sent == 2
    assert services.alarms_send_due(now=timezone.now()).sent == 0
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert "You lost: you resigned." in bodies[alice.email] and "You won: your opponent resigned." in bodies[bob.email]
    assert all("the game is over" in m.subject for m in mail.outbox)


def test_mail_comes_in_the_players_language(onitama_game):
    user = to_move(onitama_game)
    user.language = "id"
    user.save()
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    assert mail.outbox[0].body.startswith("Halo %s," % user.username)
    assert "Halo %s," % user.username in html_alternative(mail.outbox[0])


def test_a_claim_left_by_a_dead_worker_is_sent_after_the_lease_once(onitama_game, settings):
    """A worker that claimed outbox rows and died before sending: the rows stay unsent,
    other senders leave them alone during the lease, then exactly one sends them."""
    now = timezone.now()
    assert services.alarms_queue_due(now=now).queued == 1
    claimed = outbox._claim(now=now, limit=10)  # ... and the worker dies here
    assert len(claimed) == 1
    mail.outbox.clear()
    assert outbox.outbox_send_due(now=now + timedelta(seconds=5)).sent == 0  # leased
    assert outbox.outbox_send(mail_id=claimed[0].pk, now=now + timedelta(seconds=5)).sent == 0
    later = now + timedelta(seconds=settings.OUTBOX_CLAIM_LEASE_SECONDS + 1)
    assert outbox.outbox_send_due(now=later).sent == 1
    assert outbox.outbox_send_due(now=later + timedelta(seconds=1)).sent == 0
    assert outbox.outbox_send(mail_id=claimed[0].pk, now=later + timedelta(seconds=1)).sent == 0
    assert len(mail.outbox) == 1


def test_a_failed_send_leaves_the_rows_unsent_for_a_retry_after_a_backoff(onitama_game, monkeypatch):
    import smtplib

    from django.core.mail import EmailMultiAlternatives

    def refuse(self, fail_silently=False):
        raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refuse)
    now = timezone.now()
    assert services.alarms_send_due(now=now).sent == 0
    alarm = Alarm.objects.get(game=onitama_game, kind="your_turn")
    row = OutgoingMail.objects.get(kind="alarm", object_id=alarm.pk)
    assert row.done_at is None and row.claimed_at is None and row.attempts == 1
    assert row.due_at > now and "gone" in row.last_error
    assert outbox.outbox_send_due(now=now).sent == 0  # not before its backoff
    monkeypatch.undo()
    assert outbox.outbox_send_due(now=row.due_at).sent == 1
    assert len(mail.outbox) == 1 and OutgoingMail.objects.get(pk=row.pk).outcome == "sent"


def _due_games(alice, bob, count):
    return [start_game(alice, bob) for _ in range(count)]


def _query_kinds(queries) -> dict[str, int]:
    """Queries by kind: the mark of one row sent, the INSERT of mails, the INSERT of the mail
    pictures drawn for them, the rest (savepoints aside)."""
    kinds = {"mark": 0, "insert": 0, "picture insert": 0, "other": 0}
    for query in queries:
        sql = query["sql"]
        if sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
            continue
        if sql.startswith('UPDATE "accounts_outgoingmail" SET "done_at"'):
            kinds["mark"] += 1
        elif sql.startswith('INSERT INTO "accounts_outgoingmail"'):
            kinds["insert"] += 1
        elif sql.startswith('INSERT INTO "correspondence_mailpicture"'):
            kinds["picture insert"] += 1
        else:
            kinds["other"] += 1
    return kinds


def test_the_sweep_costs_one_query_per_mail_beyond_a_constant(alice, bob):
    """Queueing and loading are constant; sending marks each row on its own (its "sent" is
    committed right after the SMTP server's 250), so a mail costs exactly one query more."""
    _due_games(alice, bob, 10)
    with CaptureQueriesContext(connection) as small:
        assert services.alarms_send_due(now=timezone.now()).sent == 10
    _due_games(alice, bob, 100)
    with CaptureQueriesContext(connection) as large:
        assert services.alarms_send_due(now=timezone.now()).sent == 100
    small_kinds, large_kinds = _query_kinds(small.captured_queries), _query_kinds(large.captured_queries)
    assert (small_kinds["mark"], large_kinds["mark"]) == (10, 100)
    assert large_kinds["other"] == small_kinds["other"]
    # one INSERT for all the mails, one for all their pictures; SQLite's limit on parameters
    # per query (Django keeps it at 999) splits a hundred rows in two
    split = 1 if connection.vendor == "postgresql" else 2
    for kind in ("insert", "picture insert"):
        assert small_kinds[kind] == 1 and 1 <= large_kinds[kind] <= split, kind
    assert len(mail.outbox) >= 110


def test_each_batch_of_the_outbox_costs_the_same_queries_whatever_its_mails(alice, bob, settings):
    """The outbox sends in batches (OUTBOX_BATCH): each costs a constant number of queries
    (claim, load of alarms, games, seats, players, pictures: a "your turn" mail's turn
    section comes sealed with its picture), plus the one mark per mail: a batch of 1 mail
    costs what a batch of 3 does, and 11 mails in 3 batches three times that, for "your turn"
    mails and reminders alike. (A picture missing would be drawn at send, in three queries more.)"""
    settings.OUTBOX_BATCH = 4
    for kind in ("your_turn", "reminder"):
        others = []
        for count in (1, 3, 11):  # one batch, one batch, three batches (4, 4 and 3)
            Alarm.objects.all().delete()  # the earlier games' alarms, due later, stay out of this one
            # one decision played: a "your turn" mail tells the opponent's move (its seat and player)
            games = [play(game, 1) for game in _due_games(alice, bob, count)]
            for game in games:  # drawn after each move, as in production (by the task)
                pictures.mail_pictures_render(game_id=game.pk)
            now = timezone.now()
            if kind == "reminder":
                services.alarms_send_due(now=now)  # their "your turn" mails first
                now = max(turn_start(game) for game in games) + timedelta(days=2.4, seconds=1)
            assert services.alarms_queue_due(now=now).queued == count
            with CaptureQueriesContext(connection) as queries:
                sent = outbox.outbox_send_due(now=now).sent
            assert sent == count
            kinds = _query_kinds(queries.captured_queries)
            assert kinds["mark"] == count and kinds["insert"] == kinds["picture insert"] == 0
            others.append(kinds["other"])
        assert others == [others[0], others[0], 3 * others[0]], (kind, others)
        # PostgreSQL adds the batch's SET and RESET of synchronous_commit (accounts.outbox).
        backend = 0 if connection.vendor == "postgresql" else 2
        assert others[0] == 8 - backend, (kind, others)
    assert mail.outbox[-1].subject.endswith("time is running out")


def test_staff_see_a_mail_deferred_by_quiet_hours_as_deferred_not_only_queued(admin_client, onitama_game):
    """An alarm queued in the outbox whose mail waits for the end of the player's night is
    shown as deferred until then (list and page), and as sent once it went out."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    game = onitama_game
    mover = to_move(game)
    now = timezone.now()
    get_user_model().objects.filter(pk=mover.pk).update(
        time_zone="UTC", quiet_hours_start=now.hour, quiet_hours_end=(now.hour + 2) % 24
    )
    assert services.alarms_send_due(now=now).sent == 0
    alarm = Alarm.objects.get(game=game, kind="your_turn")
    row = OutgoingMail.objects.get(kind="alarm", object_id=alarm.pk)
    assert alarm.outcome == "queued" and row.done_at is None and row.due_at > now
    listing = admin_client.get(reverse("admin:games_alarm_changelist")).content.decode()
    page = admin_client.get(reverse("admin:games_alarm_change", args=[alarm.pk])).content.decode()
    outbox_page = admin_client.get(reverse("admin:accounts_outgoingmail_changelist")).content.decode()
    for html in (listing, page, outbox_page):
        assert "deferred until" in html
    assert outbox.outbox_send_due(now=row.due_at).sent == 1
    listing = admin_client.get(reverse("admin:games_alarm_changelist")).content.decode()
    assert "deferred until" not in listing and ">sent<" in listing


def test_one_sweep_queues_every_due_alarm_a_batch_per_transaction(alice, bob):
    """A burst of due alarms is queued in one sweep (not SWEEP_LIMIT a minute), a transaction
    per round; the drain is started once, after the first full round, while the rest queue."""
    _due_games(alice, bob, 5)
    started = []
    result = services.alarms_queue_all_due(now=timezone.now(), limit=2, on_queued=lambda: started.append(1))
    assert (result.claimed, result.queued) == (5, 5) and started == [1]
    assert OutgoingMail.objects.filter(kind="alarm", done_at__isnull=True).count() == 5
    assert services.alarms_queue_all_due(now=timezone.now(), limit=2).claimed == 0


def test_the_beat_task_is_late_acknowledged_and_retried():
    task = tasks.correspondence_sweep
    assert task.acks_late and task.autoretry_for and task.retry_backoff
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULE["correspondence-sweep"]["task"] == task.name


def test_a_held_clock_still_tells_the_player_it_is_their_turn_but_reminds_only_after(onitama_game):
    """A staff hold (a paused tournament) stops reminders, not the "your turn" mail;
    releasing the hold schedules the reminders again from the time left."""
    from games import services as game_services

    game = onitama_game
    held_at = game.turn_started_at + timedelta(hours=1)
    game_services.game_clock_pause(game_id=game.pk, reason="tournament paused", now=held_at)
    mail.outbox.clear()
    # the "your turn" mail goes out during the hold ...
    assert services.alarms_send_due(now=held_at + timedelta(minutes=1)).sent == 1
    assert "your turn" in mail.outbox[-1].subject
    # ... but no reminder, however long the hold lasts
    assert services.alarms_send_due(now=held_at + timedelta(days=20)).sent == 0
    resumed_at = held_at + timedelta(days=20)
    game_services.game_clock_resume(game_id=game.pk, now=resumed_at)
    game.refresh_from_db()
    assert game.deadline == game.turn_started_at + timedelta(days=3) + (resumed_at - held_at)
    reminder_at = game.turn_started_at + (resumed_at - held_at) + timedelta(days=2.4, seconds=1)
    assert services.alarms_send_due(now=reminder_at).sent == 1
    assert "time is running out" in mail.outbox[-1].subject
