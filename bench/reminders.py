"""Reminder sweep throughput: N due reminders queued by correspondence's sweep and sent by the outbox.

    DATABASE_URL=postgres://... .venv/bin/python bench/reminders.py [--count 10000] [--batch 1000]

Creates a scratch test database (test_<name>, dropped at the end), N players each
with a game whose 80 % reminder is due, and a real SMTP server (aiosmtpd, in this
process) that counts what it receives. Then runs ``alarms_send_due`` (queue up to
``--batch`` alarms in the outbox, then drain it: claimed in batches of OUTBOX_BATCH,
sent over one SMTP connection, each row marked on its own) until nothing is due and
prints the time taken, the mails per second, the SQL queries used (in total, per call
and per mail) and the number of distinct pictures rendered.
Without DATABASE_URL it runs on SQLite in memory.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")


class CountingSink:
    def __init__(self) -> None:
        self.count = 0
        self.bytes = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            self.bytes += len(envelope.content)
        return "250 OK"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=1000, help="alarms claimed per sweep call")
    args = parser.parse_args()

    import logging

    import django

    django.setup()
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
    from aiosmtpd.controller import Controller
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from correspondence import mail as correspondence_mail
    from correspondence import services
    from games import services as games_services
    from games.models import Alarm, Game, Seat
    from tests.conftest import free_port

    port = free_port()
    sink = CountingSink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        User = get_user_model()
        print("setting up %d players, games and due reminders on %s ..." % (args.count, connection.vendor), flush=True)
        started = time.perf_counter()
        users = User.objects.bulk_create(
            [
                User(username="p%05d" % i, email="p%05d@example.org" % i, is_active=True, email_confirmed=True)
                for i in range(args.count + 1)
            ]
        )
        users = list(User.objects.order_by("pk"))
        host = users[0]
        template = games_services.game_create(
            kind="onitama", seats={"red": host, "blue": users[1]}, options={"cards": "base"}
        )
        now = timezone.now()
        games = Game.objects.bulk_create(
            [
                Game(
                    kind=template.kind,
                    options=template.options,
                    sealed_state=template.sealed_state,
                    data_version=template.data_version,
                    days_per_move=3,
                    seed_commitment=template.seed_commitment,
                    sealed_seed=template.sealed_seed,
                    to_move_side="blue",
                    to_move_user=user,
                    turn=1,
                    ply=0,
                    turn_started_at=now - timedelta_days(2.5),
                    deadline=now + timedelta_days(0.5),
                )
                for user in users[1:]
            ],
            batch_size=1000,
        )
        seats = []
        for game, user in zip(games, users[1:], strict=True):
            seats.append(Seat(game=game, side="red", position=0, user=host))
            seats.append(Seat(game=game, side="blue", position=1, user=user))
        Seat.objects.bulk_create(seats, batch_size=2000)
        Alarm.objects.all().delete()
        Alarm.objects.bulk_create(
            [
                Alarm(game=game, user=user, kind=Alarm.Kind.REMINDER, turn=1, due_at=now - timedelta_days(0.01))
                for game, user in zip(games, users[1:], strict=True)
            ],
            batch_size=2000,
        )
        print("set up in %.1f s" % (time.perf_counter() - started), flush=True)

        renders = []
        real_png = correspondence_mail.position_png

        def counted_png(**kwargs):
            renders.append(1)
            return real_png(**kwargs)

        correspondence_mail.position_png = counted_png
        sent = batches = 0
        per_batch = []
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            while True:
                before = len(queries.captured_queries)
                result = services.alarms_send_due(now=now, limit=args.batch)
                if result.claimed == 0:
                    break
                batches += 1
                sent += result.sent
                per_batch.append(len(queries.captured_queries) - before)
        elapsed = time.perf_counter() - started
        deadline = time.monotonic() + 30
        while sink.count < sent and time.monotonic() < deadline:
            time.sleep(0.05)
        print("reminders sent:      %d (SMTP server received %d, %.1f MB)" % (sent, sink.count, sink.bytes / 1e6))
        print("time:                %.2f s (%.0f mails/s)" % (elapsed, sent / elapsed if elapsed else 0))
        print(
            "SQL queries:         %d in total (%.2f per mail), %d sweep calls of up to %d alarms, "
            "queries per call: %s"
            % (
                len(queries.captured_queries),
                len(queries.captured_queries) / max(sent, 1),
                batches + 1,
                args.batch,
                sorted(set(per_batch)),
            )
        )
        print("pictures rendered:   %d (shared between mails showing the same view)" % len(renders))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        controller.stop()


def timedelta_days(days: float):
    from datetime import timedelta

    return timedelta(days=days)


if __name__ == "__main__":
    main()
