"""With the real services: PostgreSQL skip-locked claims, a real worker and beat, a real
SMTP sink, and a process killed between claim and send."""

import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import OutgoingMail
from correspondence import services
from games.models import Alarm
from tests.factories import to_move
from tests.helpers import run_together, succeeded, wait_for, wait_for_task_runs

from .conftest import make_user, start_game

pytestmark = pytest.mark.services


def test_beat_and_worker_send_your_turn_and_a_due_reminder_once(celery_worker, celery_beat, smtp_sink):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    mover = to_move(game)
    first = smtp_sink.wait_for(1)
    stem = "Onitama #%d with %s: " % (game.pk, next(s.player_name for s in game.seats.all() if s.user_id != mover.pk))
    assert first[0]["To"] == mover.email and first[0]["Subject"] == stem + "your turn"
    assert first[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert first[0].get_body(preferencelist=("html",)) is not None
    # make the 80 % reminder due now (and not the last call)
    Alarm.objects.filter(game=game, kind="reminder").update(due_at=timezone.now())
    messages = smtp_sink.wait_for(2)
    assert messages[1]["Subject"] == stem + "time is running out"
    # through a real SMTP server, the two mails of the game thread as one conversation
    # (on the worker's SITE_URL domain: its settings are its environment's)
    thread = messages[0]["References"]
    assert thread.startswith("<game-%d.player-%d@" % (game.pk, mover.pk))
    domain = thread.split("@")[1].rstrip(">")
    for message in messages:
        assert message["In-Reply-To"] == message["References"] == thread
        assert message["Message-ID"].endswith("@%s>" % domain) and message["Date"].endswith("+0000")
        assert message["List-Id"] == "Maatasite game mail <games.%s>" % domain
    assert messages[0]["Message-ID"] != messages[1]["Message-ID"]
    # Several more sweeps, each run to its end after the reminder went: nothing is queued or sent twice.
    wait_for_task_runs(celery_worker, "correspondence.tasks.correspondence_sweep", more=3)
    assert OutgoingMail.objects.filter(kind="alarm").count() == 2
    assert len(smtp_sink.messages) == 2
    reminder = Alarm.objects.get(game=game, kind="reminder")
    assert reminder.outcome == "queued"
    assert OutgoingMail.objects.get(kind="alarm", object_id=reminder.pk).outcome == "sent"
    assert Alarm.objects.get(game=game, kind="last_call").sent_at is None  # not due


@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_take_disjoint_rows(smtp_sink):
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(30):
        start_game(alice, bob)
    results = run_together(
        [lambda: services.alarms_send_due(now=timezone.now() + timedelta(seconds=1)) for _ in range(3)]
    )
    assert [r for r in results if isinstance(r, Exception)] == []
    assert sum(r.sent for r in succeeded(results)) == 30
    # Every sweep sent its mail in this process before its thread ended: the sink has them all.
    messages = smtp_sink.wait_for(30)
    assert len(smtp_sink.messages) == 30
    assert len({m["Message-ID"] for m in messages}) == 30
    assert Alarm.objects.filter(kind="your_turn", outcome="queued").count() == 30
    assert OutgoingMail.objects.filter(kind="alarm", outcome="sent").count() == 30


def test_a_process_killed_between_claim_and_send_loses_nothing_and_doubles_nothing(
    celery_worker, celery_services_env, smtp_sink, settings
):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    assert services.alarms_queue_due(now=timezone.now()).queued == 1
    # a sending process claims the outbox row, then is killed before sending
    script = (
        "import django, os, signal; django.setup(); "
        "from django.utils import timezone; from accounts import outbox; "
        "claimed = outbox._claim(now=timezone.now(), limit=10); print(len(claimed), flush=True); "
        "os.kill(os.getpid(), signal.SIGKILL)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=celery_services_env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == -9 and done.stdout.strip() == "1", done.stderr
    row = OutgoingMail.objects.get(kind="alarm")
    assert row.claimed_at is not None and row.done_at is None
    # during the lease a sweep leaves it alone
    from accounts import outbox, tasks

    assert outbox.outbox_send_due().sent == 0
    assert smtp_sink.messages == []
    # after the lease the worker's sweep sends it, once
    OutgoingMail.objects.filter(pk=row.pk).update(due_at=timezone.now() - timedelta(seconds=1))  # the lease ran out
    tasks.outbox_drain.delay()
    messages = smtp_sink.wait_for(1)
    wait_for(lambda: OutgoingMail.objects.get(pk=row.pk).done_at is not None)
    again = [tasks.outbox_drain.delay(), tasks.outbox_send.delay(row.pk)]  # a redelivery, a later sweep
    wait_for(
        lambda: all(
            "[%s] succeeded" % result.id in celery_worker.log_path.read_text(errors="replace") for result in again
        )
    )
    assert len(smtp_sink.messages) == 1 and messages[0]["To"] == to_move(game).email
    assert OutgoingMail.objects.get(pk=row.pk).outcome == "sent"
