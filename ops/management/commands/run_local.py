"""`make run`: the whole site on one machine, with nothing to install but requirements.txt.

It migrates, seeds the demo accounts, then starts, each in a process group of its own:

* **web**: ``manage.py runserver HOST:PORT`` (it reloads on code changes); with
  ``LIVE_REDIS_URL`` set, uvicorn serving maatasite.asgi instead (the game pages' push);
* **worker**: ``celery -A maatasite worker --beat`` on every queue, with beat inside it, so
  that bots play, mail is sent and the sweeps run as in production.

They share the SQLite database (WAL, see settings.DATABASES) and a broker that needs no
server: kombu's filesystem transport, ``CELERY_BROKER_URL=filesystem://<project>/.broker``
unless the environment names another broker. Beat sweeps every ``CELERY_BEAT_SWEEP_SECONDS``
(10 s here unless set), so the "your turn" mail of a move is printed within seconds.

Ctrl-C (SIGINT), SIGTERM or SIGHUP stops them all: each group gets SIGINT, as a terminal's
Ctrl-C would send it (runserver quits, the worker finishes its running tasks and stops its pool
and beat), then SIGKILL after ``--grace`` seconds; a second Ctrl-C kills at once. Nothing is
left behind: the launcher returns only when no process of any group remains.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from maatasite.celery import app

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Defaults for the children; a variable already set in the environment wins.
BROKER_FOLDER = Path(settings.BASE_DIR) / ".broker"
LOCAL_DEFAULTS = {
    "CELERY_BROKER_URL": f"filesystem://{BROKER_FOLDER}",
    "CELERY_BEAT_SWEEP_SECONDS": "10",
    "BEAT_SCHEDULE_FILE": str(BROKER_FOLDER / "beat-schedule"),
}


def worker_queues() -> list[str]:
    """Every queue a task can be routed to: the default one and those of CELERY_TASK_ROUTES."""
    queues = {app.conf.task_default_queue}
    routes = app.conf.task_routes
    if isinstance(routes, dict):
        queues.update(route["queue"] for route in routes.values() if isinstance(route, dict) and route.get("queue"))
    return sorted(queues)


def group_alive(pgid: int) -> bool:
    """Whether any process of the group is still there (zombies waiting for a parent count)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_signal(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


class Command(BaseCommand):
    help = (
        "Serve the site with a real Celery worker and beat on an embedded broker (make run); Ctrl-C stops everything."
    )

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1")
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--concurrency", type=int, default=2, help="Worker processes (default 2).")
        parser.add_argument(
            "--grace", type=float, default=30.0, help="Seconds a child may take to stop after SIGINT before SIGKILL."
        )
        parser.add_argument("--no-seed", action="store_true", help="Skip migrate and seed_demo.")

    def handle(self, *args, **options):
        self.stopping = 0
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._on_signal)
        env = self._child_env(options["host"], options["port"])
        if not options["no_seed"]:
            call_command("migrate", interactive=False, verbosity=1)
            call_command("seed_demo")
        base = f"http://{options['host']}:{options['port']}"
        self.stdout.write(
            f"Serving Maatasite on {base}/ (admin: {base}/admin/), with a Celery worker and beat on "
            f"the broker {env['CELERY_BROKER_URL']}. Mail is printed below. Ctrl-C stops them all."
        )
        self.stdout.flush()
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        commands = {
            "web": self._web_command(manage, options["host"], options["port"], env),
            "worker": [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "maatasite",
                "worker",
                "--beat",
                "--schedule",
                env["BEAT_SCHEDULE_FILE"],
                "-Q",
                ",".join(worker_queues()),
                "--concurrency",
                str(options["concurrency"]),
                "--loglevel",
                settings.LOG_LEVEL,
                "--without-gossip",
                "--without-mingle",
                "-n",
                "local@%h",
            ],
        }
        children: dict[str, subprocess.Popen] = {}
        exit_code = 0
        try:
            for name, command in commands.items():
                if self.stopping:
                    break
                # A session of its own: the terminal's Ctrl-C reaches only this launcher, which
                # then stops each child's whole group (runserver's reloader, the worker's pool
                # and beat) and waits for it.
                children[name] = subprocess.Popen(
                    command, cwd=settings.BASE_DIR, env=env, stdin=subprocess.DEVNULL, start_new_session=True
                )
                self.stdout.write(f"run_local: started {name} (process group {children[name].pid})")
                self.stdout.flush()
            while not self.stopping:
                ended = [(name, p.returncode) for name, p in children.items() if p.poll() is not None]
                if ended:
                    name, code = ended[0]
                    self.stderr.write(f"run_local: {name} exited with {code}; stopping the others.")
                    exit_code = 1
                    break
                time.sleep(0.2)
        finally:
            self._stop_all(children, grace=options["grace"])
        self.stdout.write("run_local: all stopped.")
        if exit_code:
            sys.exit(exit_code)

    @staticmethod
    def _web_command(manage: str, host: str, port: int, env: dict[str, str]) -> list[str]:
        """runserver; with the push on (LIVE_REDIS_URL), which runserver cannot serve, uvicorn
        serving maatasite.asgi, reloading on code changes as runserver does. Without Redis the
        game pages poll (no layer that needs no server carries the worker's bot moves)."""
        if not env.get("LIVE_REDIS_URL"):
            return [sys.executable, manage, "runserver", f"{host}:{port}"]
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "maatasite.asgi:application",
            "--host",
            host,
            "--port",
            str(port),
            "--reload",
            "--no-proxy-headers",
            "--lifespan",
            "off",
        ]

    def _on_signal(self, signum, frame):
        self.stopping += 1

    @staticmethod
    def _child_env(host: str, port: int) -> dict[str, str]:
        env = dict(os.environ)
        for key, value in LOCAL_DEFAULTS.items():
            if not env.get(key):
                env[key] = value
        # SITE_URL follows HOST and PORT (settings) unless it is set.
        env.update(
            {
                "HOST": host,
                "PORT": str(port),
                "PYTHONUNBUFFERED": "1",
                "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "maatasite.settings"),
            }
        )
        return env

    def _stop_all(self, children: dict[str, subprocess.Popen], *, grace: float) -> None:
        """SIGINT every group, SIGKILL what is left after ``grace`` (or at a second Ctrl-C),
        and return only when no process of any group remains."""
        if not children:
            return
        self.stdout.write(
            f"run_local: stopping {' and '.join(children)} (a worker finishes its running "
            f"tasks first; Ctrl-C again kills them at once)."
        )
        self.stdout.flush()
        for process in children.values():
            group_signal(process.pid, signal.SIGINT)
        signals_seen = self.stopping
        deadline = time.monotonic() + grace
        killed = False
        while any(group_alive(p.pid) for p in children.values()):
            for process in children.values():
                process.poll()  # reap the group leaders, which are our children
            if not killed and (time.monotonic() > deadline or self.stopping > signals_seen):
                for name, process in children.items():
                    if group_alive(process.pid):
                        self.stderr.write(f"run_local: killing {name} (SIGKILL to its process group).")
                        group_signal(process.pid, signal.SIGKILL)
                killed = True
                deadline = time.monotonic() + 5
            elif killed and time.monotonic() > deadline:
                # Only zombies whose parent has not reaped them can remain.
                self.stderr.write("run_local: some child processes did not go away after SIGKILL.")
                break
            time.sleep(0.1)
        for process in children.values():
            process.wait()
