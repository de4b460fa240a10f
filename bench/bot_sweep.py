"""How long a bot turn left undone by a killed worker waits, with the production sweep settings.

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... .venv/bin/python bench/bot_sweep.py [--games 30]

Makes (and empties) a database of its own (``<name>_bench_sweep``), then creates ``--games``
games against a level 1 bot, the bot to move, whose bot task is lost: it is sent under a broker
key prefix that nobody reads, as a killed worker's unacknowledged message waits for
CELERY_VISIBILITY_TIMEOUT. Right away it starts a real worker and beat (fresh, as after a
restart of both) with the sweep settings of production (GAMES_BOT_SWEEP_SECONDS and
GAMES_BOT_OVERDUE_SECONDS: their defaults unless set in the environment) and prints how long
after its turn began each bot moved (median and longest). Measured, never asserted.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from _common import ROOT, ensure_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("CELERY_BROKER_URL"):
        raise SystemExit("set DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://...")

    database = os.environ["DATABASE_URL"].split("?")[0] + "_bench_sweep"
    ensure_database(database)
    lost_prefix, live_prefix = ("bench-sweep-%s-%s:" % (what, uuid.uuid4().hex[:8]) for what in ("lost", "live"))
    os.environ.update(
        DATABASE_URL=database,
        DJANGO_SETTINGS_MODULE="maatasite.settings",
        CELERY_KEY_PREFIX=lost_prefix,
        EMAIL_URL="dummymail://",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game, Move

    human = get_user_model().objects.create_user("bench-human", "bench@example.org", "x" * 16)
    ids: list[int] = []
    while len(ids) < args.games:  # a bot to move at once: its task goes to the lost prefix
        for side in services.rules_for("onitama").players:
            game = services.game_create_solo(user=human, kind="onitama", bot_level=1, side=side)
            if game.to_move_user_id is None and len(ids) < args.games:
                ids.append(game.pk)
    began = dict(Game.objects.filter(pk__in=ids).values_list("pk", "turn_started_at"))

    env = {**os.environ, "CELERY_KEY_PREFIX": live_prefix}
    logs = Path(tempfile.mkdtemp(prefix="bench-sweep-"))
    python = [sys.executable, "-m", "celery", "-A", "maatasite"]
    processes = []
    for name, command in (
        (
            "worker",
            python
            + [
                "worker",
                "--pool=prefork",
                "--concurrency=2",
                "-Q",
                "celery",
                "--loglevel=warning",
                "--without-gossip",
                "--without-mingle",
            ],
        ),
        ("beat", python + ["beat", "--loglevel=warning", "--schedule", str(logs / "beat-schedule")]),
    ):
        with open(logs / ("%s.log" % name), "wb") as out:
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
    restarted = time.time()
    print(
        "%d bot turns lost; worker and beat started (sweep every %s s, overdue after %s s)"
        % (len(ids), settings.GAMES_BOT_SWEEP_SECONDS, settings.GAMES_BOT_OVERDUE_SECONDS)
    )
    try:
        while Move.objects.filter(game_id__in=ids, ply=1).count() < len(ids):
            if time.time() - restarted > args.timeout:
                raise SystemExit("not every bot moved within %.0f s; logs in %s" % (args.timeout, logs))
            time.sleep(0.5)
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
        import redis

        client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
        for prefix in (lost_prefix, live_prefix):
            keys = list(client.scan_iter(match=prefix + "*"))
            if keys:
                client.delete(*keys)
    moved = dict(Move.objects.filter(game_id__in=ids, ply=1).values_list("game_id", "created_at"))
    waits = sorted((moved[pk] - began[pk]).total_seconds() for pk in ids)
    after_restart = sorted(moved[pk].timestamp() - restarted for pk in ids)
    print(
        "bot moved after its turn began: median %.1f s, longest %.1f s; after the restart: "
        "median %.1f s, longest %.1f s; moves per game: %s"
        % (
            statistics.median(waits),
            waits[-1],
            statistics.median(after_restart),
            after_restart[-1],
            sorted(set(Move.objects.filter(game_id__in=ids).values_list("ply", flat=True))),
        )
    )


if __name__ == "__main__":
    main()
