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
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        signal.signal(signal.SIGTERM, previous)


def report(name: str, latencies: list[float], wall: float, unit: str = "req/s") -> None:
    """One line: count, p50, p99 and mean latency (ms), and completed operations per second."""
    flat = sorted(latencies)
    RESULTS.append((name, statistics.median(flat)))
    p99 = flat[min(len(flat) - 1, int(round(0.99 * (len(flat) - 1))))]
    print(
        "%-34s n=%5d  p50 %7.1f ms  p99 %7.1f ms  mean %7.1f ms  %7.1f %s"
        % (
            name,
            len(flat),
            statistics.median(flat) * 1000,
            p99 * 1000,
            statistics.fmean(flat) * 1000,
            len(flat) / wall,
            unit,
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
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    flat = [x for per in latencies for x in per]
    if errors or not flat:
        print("%-34s FAILED: %s" % (name, "; ".join(errors[:3]) or "no requests"))
        return None
    report(name, flat, wall, unit)
    return wall


def summary() -> None:
    """The closing table: every phase's p50 beside its ratio to the trivial view of this run."""
    floor = dict(RESULTS).get(FLOOR_NAME)
    print()
    print("%-34s %10s  %s" % ("request (p50)", "ms", "vs the trivial view"))
    for name, p50 in RESULTS:
        ratio = "%6.1fx" % (p50 / floor) if floor else "-"
        print("%-34s %10.1f  %s" % (name, p50 * 1000, ratio))
