"""The test harness: markers for tests that need real services or a browser, and
fixtures that start the real things (SMTP sink, Celery worker and beat, Chromium).

Markers (see pytest.ini):

* ``services``: needs PostgreSQL (DATABASE_URL=postgres://...) and a broker
  (CELERY_BROKER_URL). Skipped when either is missing; FAILS under CI=true.
* ``browser``: drives Debian's /usr/bin/chromium through Playwright. Skipped when
  it is missing; FAILS under CI=true. Use the ``page`` fixture with ``live_server``.

Fixtures:

* ``smtp_sink``: a real SMTP server (aiosmtpd) on 127.0.0.1; Django's mail settings
  point at it for the test; ``smtp_sink.wait_for(n)`` waits for n messages.
* ``celery_worker``: a real ``celery worker`` subprocess (one per session) against
  the test database, the real broker and the SMTP sink; for the test using it,
  tasks are NOT run eagerly, and the database is transactional
  (so the worker sees the test's rows and ``on_commit`` fires). Marks nothing by
  itself: mark such tests ``services``.
* ``celery_beat``: a real ``celery beat`` subprocess for one test, with the games
  timeout sweep every second (needs ``celery_worker``).

Every other test runs Celery tasks eagerly (in-process), whatever the environment.
"""

from __future__ import annotations

import email
import email.policy
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
POSTGRES_SCHEMES = ("postgres://", "postgresql://", "pgsql://", "postgis://")

# Playwright's sync API keeps an asyncio event loop running in the main thread from the
# first browser test to the end of the session; Django would then refuse every ORM call
# made by the tests that follow (SynchronousOnlyOperation). Tests are not async code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# --- Markers: skip locally, fail under CI -----------------------------------


def services_missing() -> str | None:
    """Why the real services are not available, or None when they are configured."""
    if not os.environ.get("DATABASE_URL", "").startswith(POSTGRES_SCHEMES):
        return "needs real services: DATABASE_URL does not point at PostgreSQL"
    if not os.environ.get("CELERY_BROKER_URL"):
        return "needs real services: CELERY_BROKER_URL is not set"
    return None


def browser_missing() -> str | None:
    if not os.access(CHROMIUM, os.X_OK):
        return f"needs a browser: {CHROMIUM} is missing (apt-get install chromium)"
    return None


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: missing services or browsers are failures)", pytrace=False)
    pytest.skip(reason)


_skipped_for: dict[str, int] = {}


def pytest_runtest_setup(item):
    checks = (("services", services_missing), ("browser", browser_missing))
    for marker, missing in checks:
        if item.get_closest_marker(marker) is not None:
            reason = missing()
            if reason:
                if not IN_CI:
                    _skipped_for[reason] = _skipped_for.get(reason, 0) + 1
                _unavailable(reason)


def pytest_terminal_summary(terminalreporter):
    for reason, count in sorted(_skipped_for.items()):
        hint = (
            "set DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://... (README, Configuration)"
            if reason.startswith("needs real services")
            else "install Debian's chromium"
        )
        terminalreporter.write_line(
            f"SKIPPED {count} test(s): {reason}. To run them, {hint}. Under CI=true they fail instead.",
            yellow=True,
        )


# --- One test database per run --------------------------------------------------

# Several runs may share one PostgreSQL server (developers and CI on one machine): give
# each run's test database its own name, test_<name>_<run>[_gw<n>], so that no run drops
# or reuses another's. xdist workers inherit the controller's run id.
os.environ.setdefault("MAATASITE_TEST_RUN", f"r{os.getpid()}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    from django.conf import settings

    for db_settings in settings.DATABASES.values():
        if db_settings["ENGINE"] == "django.db.backends.sqlite3":
            continue  # in-memory: private to the process anyway
        test = db_settings.setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_' + db_settings['NAME']}_{os.environ['MAATASITE_TEST_RUN']}"


@pytest.fixture(autouse=True)
def _celery_eager(request):
    """Run tasks in-process unless the test asked for the real worker.

    Celery keeps "a result may not be awaited here" in one process-wide flag that each eager
    task sets and restores; an eager task still running in another thread (a live server's
    request) when one runs here restores it crosswise and leaves it set, and every later
    ``.get()`` would fail. Each test starts with it cleared, as a fresh process does."""
    from celery._state import _set_task_join_will_block

    from maatasite.celery import app

    _set_task_join_will_block(False)
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _default_language():
    """A test client request activates the visitor's language in this thread and leaves it
    active; the next test starts in the default language again."""
    yield
    from django.utils import translation

    translation.deactivate()


def isolated_caches(caches: dict) -> dict:
    """``caches`` under a key prefix of this test's own: runs and tests sharing one Redis
    (CACHE_URL) never see each other's counters, and nothing needs flushing."""
    import uuid

    prefix = "maatasite-test-%s-%s" % (os.environ.get("MAATASITE_TEST_RUN", "run"), uuid.uuid4().hex[:12])
    return {name: {**conf, "KEY_PREFIX": prefix} for name, conf in caches.items()}


@pytest.fixture(autouse=True)
def _own_rate_limit_counters(settings):
    """Rate-limit counters (api/ratelimits.py) live in the cache: each test counts in a
    namespace of its own, so one test's sign-ins and resets never spend another's budget.
    The forms' budgets are out of the way (a browser test signs in a dozen times a minute);
    the rate-limit tests set their own (tests/accounts/test_rate_limits.py)."""
    settings.CACHES = isolated_caches(settings.CACHES)
    settings.RATE_LIMITS = dict.fromkeys(settings.RATE_LIMITS, "100000/min")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hashing with production strength costs ~0.3 s a password; tests need no strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- SMTP sink -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SmtpSink:
    """Collects every message delivered to it, as email.message.EmailMessage objects."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes: list = []
        self._cond = threading.Condition()
        self.host = "127.0.0.1"
        self.port = free_port()
        self.url = f"smtp://{self.host}:{self.port}"

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler hook
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        with self._cond:
            self.envelopes.append(envelope)
            self.messages.append(message)
            self._cond.notify_all()
        return "250 Message accepted for delivery"

    def clear(self) -> None:
        with self._cond:
            self.messages.clear()
            self.envelopes.clear()

    def wait_for(self, count: int = 1, timeout: float = 30.0) -> list:
        """Wait until at least ``count`` messages arrived; returns them all."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"expected {count} message(s) at the SMTP sink, got {len(self.messages)}")
                self._cond.wait(left)
            return list(self.messages)

    @staticmethod
    def body(message) -> str:
        part = message.get_body(preferencelist=("plain", "html"))
        return part.get_content() if part is not None else ""


def serving(sink: SmtpSink):
    """Run an SMTP server on the sink's address while the generator is suspended: a
    fixture yields from it (``yield from serving(SmtpSink())``)."""
    from aiosmtpd.controller import Controller

    controller = Controller(sink, hostname=sink.host, port=sink.port)
    controller.start()
    try:
        yield sink
    finally:
        controller.stop()


@pytest.fixture(scope="session")
def smtp_sink_session():
    yield from serving(SmtpSink())


@pytest.fixture
def smtp_sink(smtp_sink_session, settings):
    """The SMTP sink, emptied, with this process's Django mail pointed at it."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = smtp_sink_session.host
    settings.EMAIL_PORT = smtp_sink_session.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    smtp_sink_session.clear()
    yield smtp_sink_session
    smtp_sink_session.clear()


# --- Celery worker and beat ----------------------------------------------------


class LoggedProcess(subprocess.Popen[bytes]):
    """A Celery worker or beat subprocess that says where it logs (and, a worker, its node
    name): tests read what it did there (tests/helpers.py's ``task_runs_finished``)."""

    log_path: Path
    nodename: str


def _stop(process: subprocess.Popen, timeout: float = 15.0) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout)
    except ProcessLookupError:
        pass


def _log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@pytest.fixture(scope="session")
def celery_services_env(django_db_setup, django_db_blocker, smtp_sink_session):
    """Environment for Celery subprocesses: the pytest-django test database, the
    real broker under a key prefix of this session's own, and the SMTP sink."""
    reason = services_missing()
    if reason:
        _unavailable(reason)
    from django.db import connection

    from maatasite.celery import app

    test_db_name = connection.settings_dict["NAME"]
    parts = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(parts._replace(path="/" + test_db_name))
    prefix = f"maatasite-test-{uuid.uuid4().hex[:12]}:"
    # This process's producer must use the same prefix as the worker.
    app.conf.broker_transport_options = {**(app.conf.broker_transport_options or {}), "global_keyprefix": prefix}
    app._pool = None  # connection pools made before now would not use the prefix
    app.amqp._producer_pool = None
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "maatasite.settings",
        "DATABASE_URL": database_url,
        "CELERY_KEY_PREFIX": prefix,
        # The worker pushes its changes to open game pages (tests/games/test_live.py) when
        # LIVE_TEST_REDIS_URL names a Redis; this process's tests turn push on one by one.
        "LIVE_REDIS_URL": os.environ.get("LIVE_TEST_REDIS_URL", ""),
        "LIVE_KEY_PREFIX": prefix + "live",
        "EMAIL_URL": smtp_sink_session.url,
        # The webhooks' tests run a receiver on 127.0.0.1 (tests/webhooks/conftest.py): the
        # test-only setting lets the worker deliver to it (loopback only, never a private range).
        "WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS": "true",
        "PYTHONUNBUFFERED": "1",
    }
    yield env
    # The worker and beat have stopped (they depend on this fixture): drop this run's keys.
    broker_url = os.environ["CELERY_BROKER_URL"]
    if broker_url.startswith(("redis://", "rediss://")):
        import redis

        client = redis.Redis.from_url(broker_url)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


# Not consumed by the tests' shared worker: every test's moves queue mail pictures, which
# would then run ahead of the mail and bot tasks that other tests wait for. The pictures'
# tests call the task themselves, and a mail whose picture is missing draws it (tested).
# The queue "analysis" is served: only a test that asks for a post-game analysis sends to it
# (tests/analysis/test_worker.py), and every other analysis test runs its task in-process.
WORKER_QUEUES_SKIPPED = {"pictures"}


def _worker_queues(app) -> str:
    queues = {app.conf.task_default_queue}
    routes = app.conf.task_routes
    if isinstance(routes, dict):
        for route in routes.values():
            if isinstance(route, dict) and route.get("queue"):
                queues.add(route["queue"])
    for queue in app.conf.task_queues or ():
        queues.add(getattr(queue, "name", queue))
    return ",".join(sorted(queues - WORKER_QUEUES_SKIPPED))


@pytest.fixture(scope="session")
def celery_worker_session(celery_services_env, tmp_path_factory):
    from maatasite.celery import app

    log = tmp_path_factory.mktemp("celery") / "worker.log"
    nodename = f"test-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "maatasite",
        "worker",
        "--pool=solo",
        "-Q",
        _worker_queues(app),
        "--loglevel=info",
        "-n",
        nodename,
        "--without-gossip",
        "--without-mingle",
    ]
    with open(log, "wb") as out:
        process = LoggedProcess(
            command,
            cwd=ROOT,
            env=celery_services_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"the Celery worker exited with {process.returncode}:\n{_log_tail(log)}", pytrace=False)
            if app.control.ping(destination=[nodename], timeout=1.0):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"the Celery worker did not answer a ping within 60 s:\n{_log_tail(log)}", pytrace=False)
        process.log_path = log
        process.nodename = nodename
        yield process
    finally:
        _stop(process)


@pytest.fixture
def celery_worker(celery_worker_session, transactional_db):
    """The real worker, for one test: tasks go through the broker, not in-process."""
    from maatasite.celery import app

    app.conf.task_always_eager = False  # restored by _celery_eager
    yield celery_worker_session
    if celery_worker_session.poll() is not None:
        pytest.fail(f"the Celery worker died:\n{_log_tail(celery_worker_session.log_path)}", pytrace=False)


@pytest.fixture
def celery_beat(celery_worker, celery_services_env, tmp_path):
    """A real beat process for one test, running the timeout sweep every second."""
    log = tmp_path / "beat.log"
    env = {**celery_services_env, "CELERY_BEAT_SWEEP_SECONDS": "1"}
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "maatasite",
        "beat",
        "--loglevel=info",
        "--schedule",
        str(tmp_path / "beat-schedule"),
    ]
    with open(log, "wb") as out:
        process = LoggedProcess(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    process.log_path = log
    try:
        yield process
    finally:
        _stop(process)


class PreforkWorker:
    """A real prefork ``celery worker`` (``--concurrency 2``) in a session of its own, for
    tests of what survives a ``kill -9`` of the whole worker (parent and children).

    ``start()`` launches it and waits for a ping; ``kill()`` sends SIGKILL to its whole
    process group, as an out-of-memory killer or a lost machine would; ``unacked()`` counts
    the messages the broker handed out that nobody acknowledged (Redis's unacked hash).
    """

    def __init__(self, env: dict, log_dir: Path, queues: str):
        self.env = env
        self.log_dir = log_dir
        self.queues = queues
        self.process: subprocess.Popen | None = None
        self.beat: LoggedProcess | None = None
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"prefork-{self.starts}.log"

    def start(self, concurrency: int = 2, timeout: float = 60.0) -> None:
        from maatasite.celery import app

        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        nodename = f"prefork-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "maatasite",
            "worker",
            "--pool=prefork",
            f"--concurrency={concurrency}",
            "-Q",
            self.queues,
            "--loglevel=info",
            "-n",
            nodename,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        with open(self.log_path, "wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[nodename], timeout=1.0):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the prefork worker did not start:\n{_log_tail(self.log_path)}", pytrace=False)

    def kill(self) -> None:
        """SIGKILL the whole process group: the parent and every child, with no goodbye."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(15)
        deadline = time.monotonic() + 15  # children are reaped by init; wait until none is left
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        pytest.fail("the prefork worker's process group outlived SIGKILL", pytrace=False)

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
        if self.beat is not None:
            _stop(self.beat)

    def beat_start(self, **extra_env: str) -> LoggedProcess:
        """A real beat on the same broker prefix (e.g. ``CELERY_BEAT_SWEEP_SECONDS="1"``)."""
        assert self.beat is None or self.beat.poll() is not None, "beat already running"
        log = self.log_dir / f"beat-{self.starts}.log"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "maatasite",
            "beat",
            "--loglevel=info",
            "--schedule",
            str(self.log_dir / "beat-schedule"),
        ]
        with open(log, "wb") as out:
            self.beat = LoggedProcess(
                command,
                cwd=ROOT,
                env={**self.env, **extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.beat.log_path = log
        return self.beat

    def unacked(self) -> int:
        """Messages delivered to a consumer and not acknowledged (kombu's Redis ``unacked`` hash)."""
        import redis

        client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
        try:
            return client.hlen(self.env["CELERY_KEY_PREFIX"] + "unacked")
        finally:
            client.close()


@pytest.fixture
def prefork_worker(celery_services_env, transactional_db, tmp_path):
    """A ``PreforkWorker`` (not started) on a broker key prefix of this test's own, so that
    the session's solo ``celery_worker`` never takes its tasks; tasks are not eager."""
    from maatasite.celery import app

    def use_prefix(value: str) -> None:
        app.conf.broker_transport_options = {**(app.conf.broker_transport_options or {}), "global_keyprefix": value}
        app._pool = None
        app.amqp._producer_pool = None

    session_prefix = celery_services_env["CELERY_KEY_PREFIX"]
    prefix = f"maatasite-test-{uuid.uuid4().hex[:12]}:"
    use_prefix(prefix)
    app.conf.task_always_eager = False  # restored by _celery_eager
    worker = PreforkWorker({**celery_services_env, "CELERY_KEY_PREFIX": prefix}, tmp_path, _worker_queues(app))
    try:
        yield worker
    finally:
        worker.stop()
        use_prefix(session_prefix)
        import redis

        client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


# --- Browser (pytest-playwright with Debian's chromium) ------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


# --- Players shared by the apps' tests ---------------------------------------


@pytest.fixture
def alice(db):
    from tests.factories import make_user

    return make_user("alice")


@pytest.fixture
def bob(db):
    from tests.factories import make_user

    return make_user("bob")


@pytest.fixture
def carol(db):
    from tests.factories import make_user

    return make_user("carol")


@pytest.fixture
def onitama_game(alice, bob):
    """A running Onitama game (base cards), alice on the first side."""
    from tests.factories import start_game

    return start_game(alice, bob, "onitama", {"cards": "base"})


@pytest.fixture
def staff_client(client, db):
    """The test client signed in as a superuser, ``root``."""
    from tests.factories import make_staff

    client.force_login(make_staff("root"))
    return client


@pytest.fixture
def no_mail_pictures():
    """Leave out the mail pictures' task that every move enqueues after commit, for tests that
    count the after-commit work of one service (a bot's turn, a resignation); the pictures'
    own tests (tests/correspondence/test_pictures.py) check that enqueue."""
    from correspondence.receivers import mail_pictures_enqueue
    from games.models import Game
    from games.signals import game_finished, game_result_changed, position_changed

    hooks = (
        (position_changed, "correspondence.pictures_on_move"),
        (game_finished, "correspondence.pictures_on_finish"),
        (game_result_changed, "correspondence.pictures_on_result"),
    )
    for hook, uid in hooks:
        assert hook.disconnect(sender=Game, dispatch_uid=uid)
    yield
    for hook, uid in hooks:
        hook.connect(mail_pictures_enqueue, sender=Game, dispatch_uid=uid)
