"""What the HTTP benchmarks share: their own PostgreSQL database, the environment the
site runs under for them, a gunicorn server on loopback (as the Procfile runs it), and concurrent phases that
print latency percentiles and throughput (measured, never asserted).

Used by bench/api.py and bench/pages.py (run as scripts, so ``import _common`` finds it).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PING_PATH = "/api/v1/ping/"
# The trivial view, the floor every figure is a ratio to: a plain Django view returning
# constant JSON through the middleware (ops.views.floor: no DRF, throttle, database or session).
FLOOR_PATH = "/floor/"
FLOOR_NAME = "floor (trivial view)"

# (name, p50 seconds) of every phase reported in this run, for the closing table.
RESULTS: list[tuple[str, float]] = []
# The server's CPU time per operation of each phase that measured it (ms), by phase name.
CPU_RESULTS: dict[str, float] = {}
# The process group of the server being measured (gunicorn: its master and workers).
_SERVER_GROUPS: list[int] = []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ensure_database(url: str) -> None:
    """Create the benchmark's PostgreSQL database if it does not exist yet."""
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute('CREATE DATABASE "%s"' % name)


def site_environment(database: str, *, production: bool = False, redis_url: str = "") -> dict[str, str]:
    """The site's settings for a benchmark, also applied to this process.

    Mail dropped, API rate limits out of the way: the numbers are the web tier's. A
    connection per request (``DATABASE_CONN_MAX_AGE=0``, the default): under the ASGI server
    every request runs in a context of its own, so a kept connection is never reused and
    piles up until its age runs out (40 idle connections within a minute of a bench, then
    PostgreSQL's "too many clients").

    By default as locally (DEBUG on, tasks run in-process, a cache per process). With
    ``production``, as the README's production set-up runs (bench/pages.py and bench/api.py
    by default): DEBUG off (no query log, manifest static files: run ``collectstatic`` first,
    see ``static_collected``), the cache in Redis (``redis_url`` database 14) and tasks
    published to a Redis broker (database 15) that no worker drains, so a move costs its
    publishing and not its tasks' work (``broker_purged`` empties it); both are emptied first.
    """
    env = dict(
        os.environ,
        DATABASE_URL=database,
        DJANGO_SETTINGS_MODULE="maatasite.settings",
        EMAIL_URL="dummymail://",
        API_RATE_USER="1000000/min",
        API_RATE_IP="1000000/min",
        API_RATE_AUTH="1000000/min",
        DEBUG="true",
        LOG_LEVEL="ERROR",
        DATABASE_CONN_MAX_AGE="0",
    )
    env.pop("CELERY_BROKER_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    if production:
        import redis

        base = redis_url.rstrip("/")
        for number in (14, 15):
            redis.Redis.from_url("%s/%d" % (base, number)).flushdb()
        env.update(
            DEBUG="false",
            # kept per bench database, so that the games a run keeps (the lobby players') read in the next
            SECRET_KEY=hashlib.sha256(b"maatasite bench secret " + database.encode()).hexdigest(),
            GAMES_SEAL_KEY=hashlib.sha256(b"maatasite bench seal " + database.encode()).hexdigest(),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECURE_SSL_REDIRECT="false",
            CACHE_URL="%s/14" % base,
            CELERY_BROKER_URL="%s/15" % base,
        )
    os.environ.update(env)
    return env


def site_options(parser) -> None:
    """The options of the benches that serve the site (pages.py, api.py, profile_game.py)."""
    parser.add_argument(
        "--debug", action="store_true", help="as locally (DEBUG on, tasks in-process); production runs with it off"
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379", help="Redis for the cache and the broker (databases 14 and 15)"
    )


def site_prepared(args) -> dict[str, str]:
    """The site's environment for ``site_options``' choice (production unless ``--debug``), with
    the static files collected when production needs them."""
    env = site_environment(args.database, production=not args.debug, redis_url=args.redis)
    if not args.debug:
        static_collected(env)
    return env


def site_mode(args) -> str:
    return "DEBUG on, tasks in-process" if args.debug else "DEBUG off, Redis cache and broker"


def static_collected(env: dict[str, str]) -> None:
    """``collectstatic`` as the Procfile's web command runs it: DEBUG off serves the manifest's names."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def broker_purged(env: dict[str, str]) -> int:
    """Empty the bench's broker (the tasks its requests published, which no worker ran); how many keys went."""
    url = env.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis"):
        return 0
    import redis

    client = redis.Redis.from_url(url)
    keys = client.dbsize()
    client.flushdb()
    return int(keys)


def django_migrated() -> None:
    """Set Django up in this process and migrate the benchmark's database."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# The Procfile's web command: the ASGI site (pages and the game pages' sockets) on gunicorn
# with uvicorn's worker.
SERVER_COMMAND = [
    str(ROOT / ".venv/bin/gunicorn"),
    "maatasite.asgi:application",
    "--worker-class",
    "maatasite.asgi_worker.Worker",
]


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int) -> Iterator[str]:
    """Serve the site as the Procfile does on a free loopback port; yields the base URL once it
    answers."""
    port = free_port()
    server = subprocess.Popen(
        [*SERVER_COMMAND, "--bind", "127.0.0.1:%d" % port, "--workers", str(workers), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = "http://127.0.0.1:%d" % port
    _SERVER_GROUPS.append(server.pid)  # a new session: the group of the master and its workers

    def stop(_signum: int, _frame: object) -> None:
        raise SystemExit("stopped")  # so that the server below is stopped with the bench

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + FLOOR_PATH, timeout=5) as response:
                    if response.status == 200:
                        break
            except (OSError, urllib.error.HTTPError):
                pass
            time.sleep(0.1)
        else:
            raise SystemExit("gunicorn did not answer")
        yield base
    finally:
        _SERVER_GROUPS.remove(server.pid)
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        signal.signal(signal.SIGTERM, previous)


def server_cpu_seconds() -> float | None:
    """The CPU time (user and system) used so far by the processes of the server being measured
    (the process group of :func:`gunicorn`'s master and workers), read from /proc; None off
    Linux or with no server. A phase's share of it per operation is printed beside its latency
    (the database's and the cache's CPU are not in it); on a shared virtual machine it varies
    between runs much as latency does, so compare runs that alternate."""
    if not _SERVER_GROUPS or not os.path.isdir("/proc"):
        return None
    group, ticks = _SERVER_GROUPS[-1], 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry.name) as stat_file:
                stat = stat_file.read()
        except OSError:  # the process ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name: state, ppid, pgrp, ...
        if int(fields[2]) == group:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def report(name: str, latencies: list[float], wall: float, unit: str = "req/s", cpu: float | None = None) -> None:
    """One line: count, p50, p99 and mean latency (ms), and completed operations per second;
    with ``cpu`` (the server's CPU seconds over the phase), its CPU time per operation."""
    flat = sorted(latencies)
    RESULTS.append((name, statistics.median(flat)))
    p99 = flat[min(len(flat) - 1, int(round(0.99 * (len(flat) - 1))))]
    cpu_text = ""
    if cpu is not None:
        CPU_RESULTS[name] = cpu * 1000 / len(flat)
        cpu_text = "  server CPU %6.2f ms/op" % CPU_RESULTS[name]
    print(
        "%-34s n=%5d  p50 %7.1f ms  p99 %7.1f ms  mean %7.1f ms  %7.1f %s%s"
        % (
            name,
            len(flat),
            statistics.median(flat) * 1000,
            p99 * 1000,
            statistics.fmean(flat) * 1000,
            len(flat) / wall,
            unit,
            cpu_text,
        )
    )


def run_phase(name: str, clients: int, worker: Callable[[int, list[float]], None], unit: str = "req/s") -> float | None:
    """Run ``worker(index, latencies)`` in ``clients`` threads at once and report what they measured.

    Returns the wall time of the phase (None when it failed; the errors are printed).
    """
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[str] = []

    def target(index: int) -> None:
        try:
            worker(index, latencies[index])
        except Exception as error:  # report, do not hide
            errors.append("%s: %r" % (name, error))

    threads = [threading.Thread(target=target, args=(i,)) for i in range(clients)]
    cpu_before = server_cpu_seconds()
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    cpu_after = server_cpu_seconds()
    flat = [x for per in latencies for x in per]
    if errors or not flat:
        print("%-34s FAILED: %s" % (name, "; ".join(errors[:3]) or "no requests"))
        return None
    cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    report(name, flat, wall, unit, cpu=cpu)
    return wall


def summary() -> None:
    """The closing table: every phase's p50 beside its ratio to the trivial view of this run."""
    floor = dict(RESULTS).get(FLOOR_NAME)
    floor_cpu = CPU_RESULTS.get(FLOOR_NAME)
    print()
    header = ("request (p50)", "ms", "vs the trivial view", "server CPU ms/op (vs the trivial view)")
    print("%-34s %10s  %s  %s" % header)
    for name, p50 in RESULTS:
        ratio = "%6.1fx" % (p50 / floor) if floor else "-"
        cpu = CPU_RESULTS.get(name)
        cpu_text = ""
        if cpu is not None:
            cpu_text = "%8.2f (%s)" % (cpu, "%.1fx" % (cpu / floor_cpu) if floor_cpu else "-")
        print("%-34s %10.1f  %-19s  %s" % (name, p50 * 1000, ratio, cpu_text))
