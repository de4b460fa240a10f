"""Replies by mail are stored before they are played (correspondence.InboundMail): the
webhook answers once the row is committed, a task plays the row by its id, once, however
often it runs (redelivery, retry, the inbound sweep, two at once); the sweep plays a row
whose task was lost; played rows are purged, and go with the player's account.

In the tests of one rolled-back transaction, on-commit callbacks run only when a test runs
them: a row stored without running them is a row whose task was lost with its worker."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection, connections, transaction
from django.urls import reverse
from django.utils import timezone

from correspondence import services, tasks
from correspondence.models import InboundMail, ReplyAddressUse
from games.models import Game, Move
from privacy import services as privacy_services
from tests.factories import to_move
from tests.helpers import wait_for

from .conftest import first_legal, start_game
from .test_reply_by_mail import address_for, answers_to, reply

SECRET = {"HTTP_X_INBOUND_SECRET": "inbound-test-secret"}


def a_reply(game) -> bytes:
    user = game.to_move_user
    return reply(sender=user.email, address=address_for(game, user), lines=[first_legal(game)])


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def overdue() -> float:
    return settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS + 1


# ---------------------------------------------------------------- in-process


@pytest.mark.django_db
class TestInProcess:
    def test_the_webhook_stores_the_mail_and_its_task_carries_only_the_id(
        self, client, onitama_game, django_capture_on_commit_callbacks
    ):
        raw = a_reply(onitama_game)
        with mock.patch.object(tasks.inbound_mail_play, "delay") as delay:
            with django_capture_on_commit_callbacks(execute=True):
                answer = client.post(
                    reverse("correspondence:inbound"),
                    raw,
                    content_type="message/rfc822",
                    HTTP_X_RECIPIENT="someone@reply.example.org",
                    **SECRET,
                )
        assert answer.status_code == 202
        stored = InboundMail.objects.get()
        assert bytes(stored.raw) == raw and stored.user == onitama_game.to_move_user
        assert stored.recipient == "someone@reply.example.org"
        assert stored.processed_at is None and stored.attempts == 1
        delay.assert_called_once_with(stored.pk)  # the id, never the mail

    def test_a_broker_that_refuses_the_task_still_gets_a_202_and_the_sweep_plays_the_mail(
        self, client, onitama_game, django_capture_on_commit_callbacks
    ):
        game = onitama_game
        with mock.patch.object(tasks.inbound_mail_play, "delay", side_effect=ConnectionError("broker down")):
            with django_capture_on_commit_callbacks(execute=True):
                answer = client.post(
                    reverse("correspondence:inbound"), a_reply(game), content_type="message/rfc822", **SECRET
                )
        assert answer.status_code == 202  # stored: the provider must not send it again
        assert InboundMail.objects.get().processed_at is None and Game.objects.get(pk=game.pk).ply == 0
        with django_capture_on_commit_callbacks(execute=True):
            assert services.inbound_mails_requeue(now=later(overdue())) == 1
        assert InboundMail.objects.get().outcome == "played" and Game.objects.get(pk=game.pk).ply == 1

    def test_a_lost_task_is_played_by_the_sweep_exactly_once_and_a_late_redelivery_plays_nothing(
        self, onitama_game, django_capture_on_commit_callbacks
    ):
        game = onitama_game
        user = game.to_move_user
        inbound = services.inbound_mail_store(raw=a_reply(game))  # its task is lost: never run
        mail.outbox.clear()
        # not overdue yet: left to its own task
        with django_capture_on_commit_callbacks(execute=True) as sent:
            assert services.inbound_mails_requeue(now=later(overdue() - 2)) == 0
        assert sent == [] and Game.objects.get(pk=game.pk).ply == 0
        with django_capture_on_commit_callbacks(execute=True):
            assert services.inbound_mails_requeue(now=later(overdue())) == 1
        inbound.refresh_from_db()
        assert inbound.outcome == "played" and inbound.processed_at is not None and inbound.attempts == 2
        assert Move.objects.filter(game=game).count() == 1 and Game.objects.get(pk=game.pk).ply == 1
        assert len(answers_to(user)) == 1
        # the next sweep finds nothing; the lost task, handed out hours later, plays nothing
        with django_capture_on_commit_callbacks(execute=True) as sent:
            assert services.inbound_mails_requeue(now=later(10 * overdue())) == 0
        assert sent == []
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.inbound_mail_play.delay(inbound.pk).get() == "played"
            assert tasks.inbound_mail_play.delay(inbound.pk).get() == "played"
        assert Move.objects.filter(game=game).count() == 1
        assert ReplyAddressUse.objects.get(game=game).result == "played"
        assert len(answers_to(user)) == 1  # no second answer ("address already used")

    def test_a_run_that_fails_leaves_the_row_and_the_game_for_the_next_run(
        self, onitama_game, django_capture_on_commit_callbacks
    ):
        from django.db import OperationalError

        from accounts.models import OutgoingMail

        game = onitama_game
        inbound = services.inbound_mail_store(raw=a_reply(game))
        failed = []

        def connection_lost_at_the_answer(execute, sql, params, many, context):
            """The connection drops when the answer mail is written, after the move."""
            if sql.startswith("INSERT") and OutgoingMail._meta.db_table in sql and "reply_answer" in (params or ()):
                failed.append(sql)
                raise OperationalError("connection lost")
            return execute(sql, params, many, context)

        with connection.execute_wrapper(connection_lost_at_the_answer):
            with pytest.raises(OperationalError):
                services.inbound_mail_play(inbound_id=inbound.pk)
        assert len(failed) == 1
        inbound.refresh_from_db()
        assert inbound.processed_at is None
        # the move was rolled back with the stamp: the address is unused, the retry plays it
        assert Game.objects.get(pk=game.pk).ply == 0 and not ReplyAddressUse.objects.exists()
        with django_capture_on_commit_callbacks(execute=True):
            assert services.inbound_mail_play(inbound_id=inbound.pk) == "played"
        assert Game.objects.get(pk=game.pk).ply == 1

    def test_the_sweep_comes_back_to_a_failing_mail_after_a_doubling_wait(
        self, onitama_game, django_capture_on_commit_callbacks
    ):
        inbound = services.inbound_mail_store(raw=a_reply(onitama_game))
        step = settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS
        now = timezone.now()
        swept_at = []
        for second in range(0, 8 * step + 1, step // 2 or 1):
            with django_capture_on_commit_callbacks(execute=False) as sent:  # every run is lost
                if services.inbound_mails_requeue(now=now + timedelta(seconds=second)):
                    swept_at.append(second)
            assert len(sent) == (1 if swept_at and swept_at[-1] == second else 0)
        assert swept_at == [step, 3 * step, 7 * step]  # then waits of 2, 4, ... steps
        inbound.refresh_from_db()
        assert inbound.attempts == 4 and inbound.processed_at is None

    def test_refused_mail_is_stored_and_processed_too(self, onitama_game, django_capture_on_commit_callbacks):
        game = onitama_game
        with django_capture_on_commit_callbacks(execute=True):
            stranger = services.inbound_mail_store(
                raw=reply(sender="mallory@example.org", address=address_for(game, game.to_move_user), lines=["x"])
            )
            nobody = services.inbound_mail_store(raw=b"Subject: hello\r\n\r\nno address at all\r\n")
        stranger.refresh_from_db()
        nobody.refresh_from_db()
        assert (stranger.outcome, stranger.user) == ("wrong_sender", game.to_move_user)
        assert (nobody.outcome, nobody.user) == ("forged", None)
        with django_capture_on_commit_callbacks(execute=True) as sent:
            assert services.inbound_mails_requeue(now=later(overdue())) == 0
        assert sent == []

    def test_processed_mail_is_purged_after_the_documented_days(self, onitama_game):
        keep = timedelta(days=settings.CORRESPONDENCE_INBOUND_KEEP_DAYS)
        now = timezone.now()

        def row(received, processed):
            return InboundMail.objects.create(
                raw=b"x",
                received_at=received,
                sweep_at=received,
                processed_at=processed,
                outcome="played" if processed else "",
            )

        old_done = row(now - keep - timedelta(days=1), now - keep - timedelta(hours=1))
        recent_done = row(now - keep - timedelta(days=1), now - keep + timedelta(hours=1))
        old_never_played = row(now - keep - timedelta(hours=1), None)
        recent_waiting = row(now - timedelta(minutes=5), None)
        assert tasks.inbound_mails_purge.delay().get() == 2
        assert set(InboundMail.objects.values_list("pk", flat=True)) == {recent_done.pk, recent_waiting.pk}
        assert not InboundMail.objects.filter(pk__in=[old_done.pk, old_never_played.pk]).exists()

    def test_a_deleted_account_takes_its_mail_along_and_the_export_shows_it(
        self, alice, bob, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob, "onitama", {"cards": "base"})
        player = to_move(game)
        other = bob if player == alice else alice
        with django_capture_on_commit_callbacks(execute=True):
            mine = services.inbound_mail_store(raw=a_reply(game))
            stranger = services.inbound_mail_store(
                raw=reply(sender="mallory@example.org", address=address_for(game, player), lines=["x"])
            )
            services.inbound_mail_store(raw=reply(sender=other.email, address=address_for(game, other), lines=["x"]))
        exported = privacy_services.account_export(user=player)["replies_by_mail"]
        assert [entry["outcome"] for entry in exported] == ["played", "wrong_sender"]
        assert exported[0]["message"] == bytes(InboundMail.objects.get(pk=mine.pk).raw).decode()
        assert exported[1]["message"] is None  # a stranger's mail is not the player's to read
        privacy_services.account_delete(user=player, password="pw-%s-123456" % player.username)
        assert not InboundMail.objects.filter(pk__in=[mine.pk, stranger.pk]).exists()
        assert InboundMail.objects.filter(user=other).count() == 1

    def test_staff_see_the_stored_mail_read_only(self, admin_client, onitama_game):
        inbound = services.inbound_mail_store(raw=a_reply(onitama_game))
        assert admin_client.get(reverse("admin:correspondence_inboundmail_changelist")).status_code == 200
        page = admin_client.get(reverse("admin:correspondence_inboundmail_change", args=[inbound.pk]))
        assert page.status_code == 200 and b"Re: Your turn" in page.content
        assert b'name="_save"' not in page.content
        assert (
            admin_client.post(
                reverse("admin:correspondence_inboundmail_delete", args=[inbound.pk]), {"post": "yes"}
            ).status_code
            == 403
        )
        assert InboundMail.objects.filter(pk=inbound.pk).exists()

    def test_a_task_queued_before_the_upgrade_with_the_mail_in_it_stores_the_mail(
        self, onitama_game, django_capture_on_commit_callbacks
    ):
        raw = a_reply(onitama_game)
        with django_capture_on_commit_callbacks(execute=True):
            inbound_id = tasks.mail_reply_receive.delay(raw.decode("latin-1"), None).get()
        stored = InboundMail.objects.get(pk=inbound_id)
        assert bytes(stored.raw) == raw and stored.outcome == "played"
        assert Game.objects.get(pk=onitama_game.pk).ply == 1

    def test_beat_schedules_the_inbound_sweep_and_purge(self):
        from maatasite.celery import app

        app.loader.import_default_modules()
        sweep = settings.CELERY_BEAT_SCHEDULE["correspondence-inbound-sweep"]
        assert sweep["task"] == tasks.inbound_mails_sweep.name and sweep["task"] in app.tasks
        assert sweep["schedule"].total_seconds() == settings.CORRESPONDENCE_INBOUND_SWEEP_SECONDS
        assert settings.CELERY_BEAT_SCHEDULE["correspondence-inbound-purge"]["task"] == tasks.inbound_mails_purge.name
        # a lost reply is played within about 2 minutes
        assert settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS + settings.CORRESPONDENCE_INBOUND_SWEEP_SECONDS <= 130


# ---------------------------------------------------------------- real services


@pytest.mark.services
def test_the_webhook_stores_the_row_and_the_worker_plays_it(celery_worker, client, alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    answer = client.post(reverse("correspondence:inbound"), a_reply(game), content_type="message/rfc822", **SECRET)
    assert answer.status_code == 202
    stored = InboundMail.objects.get()  # committed when the webhook answered
    played = wait_for(lambda: InboundMail.objects.filter(pk=stored.pk, processed_at__isnull=False).first())
    assert played.outcome == "played" and played.attempts == 1
    assert Game.objects.get(pk=game.pk).ply == 1 and Move.objects.filter(game=game).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_runs_of_one_row_at_once_play_it_once(alice, bob):
    assert connection.vendor == "postgresql"
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    user = game.to_move_user
    with mock.patch.object(tasks.inbound_mail_play, "delay") as delay:  # handed to the broker, not run
        inbound = services.inbound_mail_store(raw=a_reply(game))
    delay.assert_called_once_with(inbound.pk)
    mail.outbox.clear()
    results: list = [None, None]

    def run(index: int) -> None:
        try:
            results[index] = services.inbound_mail_play(inbound_id=inbound.pk)
        except Exception as error:  # noqa: BLE001 - collected for the assertions
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(2)]
    # Hold the row's lock until both runs wait for it, so that they truly overlap.
    with transaction.atomic():
        InboundMail.objects.select_for_update().get(pk=inbound.pk)
        for thread in threads:
            thread.start()

        def both_waiting() -> bool:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_stat_clear_snapshot()")
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND cardinality(pg_blocking_pids(pid)) > 0"
                )
                return cursor.fetchone()[0] >= 2

        wait_for(both_waiting, timeout=30, interval=0.05)
    for thread in threads:
        thread.join(60)
    assert results == ["played", "played"]  # one played it, the other found its outcome
    assert Move.objects.filter(game=game).count() == 1 and Game.objects.get(pk=game.pk).ply == 1
    assert ReplyAddressUse.objects.get(game=game).result == "played"
    assert len(answers_to(user)) == 1


@pytest.mark.services
@pytest.mark.django_db
def test_the_sweep_reads_the_index_of_unprocessed_mail(onitama_game):
    """Processed rows pile up for days; the sweep reads only the partial index of the
    unprocessed ones (the plan of its query, with sequential scans priced out)."""
    from django.test.utils import CaptureQueriesContext

    services.inbound_mail_store(raw=a_reply(onitama_game))
    with CaptureQueriesContext(connection) as queries:
        services.inbound_mails_requeue(now=timezone.now())
    [query] = [q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + query)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "correspondence_inbound_due" in plan, plan


@pytest.mark.django_db(transaction=True)
def test_the_smtp_server_asks_to_try_again_later_when_it_cannot_store(alice, bob):
    import smtplib

    from aiosmtpd.controller import Controller
    from django.db import OperationalError

    from correspondence.management.commands.mail_inbound_smtp import ReplyHandler
    from tests.conftest import free_port

    game = start_game(alice, bob, "onitama", {"cards": "base"})
    user = to_move(game)
    address = address_for(game, user)
    port = free_port()
    controller = Controller(ReplyHandler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with mock.patch.object(services, "inbound_mail_store", side_effect=OperationalError("database down")):
            with smtplib.SMTP("127.0.0.1", port) as smtp:
                with pytest.raises(smtplib.SMTPDataError) as refused:
                    smtp.sendmail(user.email, [address], a_reply(game))
    finally:
        controller.stop()
    assert refused.value.smtp_code == 451  # temporary: the sending server keeps the mail and tries again
    assert not InboundMail.objects.exists() and Game.objects.get(pk=game.pk).ply == 0


class GameLocker:
    """Holds a game's row lock from a thread of its own (its own connection) until released."""

    def __init__(self, game_id: int):
        self.locked, self.done = threading.Event(), threading.Event()
        self.pid = None
        self.thread = threading.Thread(target=self._hold, args=(game_id,))
        self.thread.start()
        assert self.locked.wait(30)

    def _hold(self, game_id: int) -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game_id)
                self.pid = connection.connection.info.backend_pid
                self.locked.set()
                self.done.wait(120)
        finally:
            connections.close_all()

    def someone_waits(self) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [self.pid])
            return cursor.fetchone()[0] >= 1

    def release(self) -> None:
        self.done.set()
        self.thread.join(30)


@pytest.mark.services
def test_a_reply_whose_worker_is_killed_mid_play_is_played_once_by_the_sweep(
    prefork_worker, client, alice, bob, settings
):
    """The whole prefork worker is killed (SIGKILL to its process group) while it plays a
    stored reply: the task stays in Redis's unacked set, the row unprocessed and the game
    untouched. After a restart, the inbound sweep (every second here, 1 s threshold) gets it
    played, once, long before Redis would hand the task out again."""
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS = 1  # the webhook's row is due 1 s after it came
    prefork_worker.env["CORRESPONDENCE_INBOUND_OVERDUE_SECONDS"] = "1"
    prefork_worker.start()
    locker = GameLocker(game.pk)  # the worker's move will wait for this lock: a kill mid-play
    try:
        answer = client.post(reverse("correspondence:inbound"), a_reply(game), content_type="message/rfc822", **SECRET)
        assert answer.status_code == 202
        wait_for(locker.someone_waits, timeout=60, interval=0.1)
        assert prefork_worker.unacked() == 1  # delivered, mid-play, not acknowledged
        prefork_worker.kill()
    finally:
        locker.release()
    inbound = InboundMail.objects.get()
    assert inbound.processed_at is None and Game.objects.get(pk=game.pk).ply == 0
    assert prefork_worker.unacked() == 1  # Redis would hand it out again only after 2 hours
    prefork_worker.start()
    prefork_worker.beat_start(CORRESPONDENCE_INBOUND_SWEEP_SECONDS="1")
    played = wait_for(lambda: InboundMail.objects.filter(pk=inbound.pk, processed_at__isnull=False).first())
    assert played.outcome == "played" and played.attempts >= 2
    assert Move.objects.filter(game=game).count() == 1 and Game.objects.get(pk=game.pk).ply == 1
    assert ReplyAddressUse.objects.get(game=game).result == "played"
