"""Django settings for Maatasite.

Every deployment-specific value comes from an environment variable (read with
django-environ); README.md lists them all under "Configuration". Without any
variable set you get the local development set-up: DEBUG on, SQLite in the
project root, Celery tasks run in-process (what `make test` uses), mail printed
to the console. `make run` (ops/management/commands/run_local.py) adds a broker
on files, so that a real worker and beat run beside the web server.
"""

import warnings
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from maatasite.local_keys import local_key, refuse_published
from maatasite.task_policy import RETRYING_TASK

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# --- Core -------------------------------------------------------------------

DEBUG = env.bool("DEBUG", default=True)

# Django's SECRET_KEY signs links, tokens and cookies; GAMES_SEAL_KEY seals the
# seeds and engine states of games (games/sealing.py), on its own so that rotating the
# secret key never makes running games unreadable. Both come from the environment; with
# DEBUG on and a key unset, a random key is made on first run and kept in a gitignored
# file of the project root (maatasite/local_keys.py). The development key that used to be
# written here is public and refused.
SECRET_KEY = refuse_published("SECRET_KEY", env.str("SECRET_KEY", default=""))
GAMES_SEAL_KEY = refuse_published("GAMES_SEAL_KEY", env.str("GAMES_SEAL_KEY", default=""))
if DEBUG:
    SECRET_KEY = SECRET_KEY or local_key(BASE_DIR / ".local-secret-key")
    GAMES_SEAL_KEY = GAMES_SEAL_KEY or local_key(BASE_DIR / ".local-seal-key")
else:
    for _name, _value in (("SECRET_KEY", SECRET_KEY), ("GAMES_SEAL_KEY", GAMES_SEAL_KEY)):
        if not _value:
            raise ImproperlyConfigured("%s must be set when DEBUG is off." % _name)

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Absolute base for links in mail (mail is often sent by a worker, without a request).
# Unset, it follows HOST and PORT, where `make run HOST=... PORT=...` serves the site.
_site_host = env.str("HOST", default="127.0.0.1")
_site_host = f"[{_site_host}]" if ":" in _site_host and not _site_host.startswith("[") else _site_host
SITE_URL = env.str("SITE_URL", default=f"http://{_site_host}:{env.int('PORT', default=8000)}").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "maatasite",  # the project package (settings, Celery, URL root); its templates and commands
    "accounts",
    "games",
    "correspondence",
    "tournaments",
    "ratings",
    "ladder",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api",
    "ops",
    "fairplay",
    "chat",
    "analysis",
    "webhooks",
    "privacy",
]

MIDDLEWARE = [
    "maatasite.logs.RequestIdMiddleware",  # first: every later log line carries the request id
    "api.json_errors.ApiJsonErrorMiddleware",  # any error under /api/ in the API's JSON shape
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy on every response (see CONTENT_SECURITY_POLICY)
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

CSRF_FAILURE_VIEW = "api.json_errors.csrf_failure"  # JSON under /api/, Django's page elsewhere
ROOT_URLCONF = "maatasite.urls"
WSGI_APPLICATION = "maatasite.wsgi.application"
ASGI_APPLICATION = "maatasite.asgi.application"  # production: gunicorn with uvicorn's worker (Procfile)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "correspondence.context_processors.banners",
                "accounts.context_processors.mail_failing",
                "accounts.context_processors.site_nav",
                "games.context_processors.games_waiting",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Under `make run` the web server, the worker and beat all write one SQLite file: WAL lets
    # readers go on while one writes, writers wait up to "timeout" seconds for the lock instead
    # of failing, and IMMEDIATE takes the write lock when a transaction begins (a read lock
    # upgraded later can deadlock). select_for_update does nothing on SQLite: the correctness
    # tests of racing writes run on PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "timeout": 20, "transaction_mode": "IMMEDIATE"}
    )

elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_POOL", default=DATABASES["default"]["CONN_MAX_AGE"] == 0
):
    # A pool per process (psycopg_pool through Django): under the ASGI server every request runs
    # in a thread of its own, so without it each request paid a new connection (TCP, start-up,
    # Django's session set-up: most of the status poll's time in bench/pages.py). A request takes
    # a connection and gives it back at its end; one that finds all in use waits up to
    # DATABASE_POOL_TIMEOUT seconds (then 503). Celery's prefork children close theirs after
    # each task (its Django fix-up), so a pool is never shared across a fork.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=8),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts ---------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
# Ours first (what new sessions record); Django's own for the sessions made before it.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ModelBackendReadOnce",
    "django.contrib.auth.backends.ModelBackend",
]
# Sessions are kept in the database and read through the cache (Redis in production): a page
# or poll reads its session without a query. accounts.services.user_sessions_end ends them in both.
SESSION_ENGINE = env.str("SESSION_ENGINE", default="django.contrib.sessions.backends.cached_db")
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"
# How long the emailed confirmation link stays valid, in seconds (3 days).
ACCOUNTS_CONFIRMATION_MAX_AGE = 3 * 24 * 3600

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation ---------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("id", _("Indonesian")),
    ("ar", _("Arabic")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files -----------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
if DEBUG:
    # Local runs serve from the apps' static folders; STATIC_ROOT exists only after collectstatic.
    warnings.filterwarnings("ignore", message="No directory at: ")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "maatasite.static_storage.ManifestStorageKeepingUrls"  # whitenoise's, addresses kept
        ),
    },
}

# --- Mail -------------------------------------------------------------------

# consolemail:// (default), smtp://host:port, smtp+tls://user:password@host:587, ...
_email = env.email_url_config(env.str("EMAIL_URL", default="consolemail://"))
globals().update({key: value for key, value in _email.items() if value not in (None, "")})
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Maatasite <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = 30
# The outbox (accounts.outbox): every mail is a row, claimed, sent and marked one by one.
# A claimed row of a worker that died is sent again once its lease ends (a sender hands
# back the rest of its batch after half of it); a temporary SMTP failure waits a jittered
# backoff from OUTBOX_RETRY_SECONDS, doubling up to OUTBOX_RETRY_MAX_SECONDS; done rows are
# purged after OUTBOX_KEEP_DAYS. Beat's outbox sweep sends whatever is due. Keep the lease
# above twice EMAIL_TIMEOUT: the last send a sender starts within its half may wait that long.
OUTBOX_CLAIM_LEASE_SECONDS = env.int("OUTBOX_CLAIM_LEASE_SECONDS", default=120)
OUTBOX_BATCH = env.int("OUTBOX_BATCH", default=200)
OUTBOX_RETRY_SECONDS = env.int("OUTBOX_RETRY_SECONDS", default=30)
OUTBOX_RETRY_MAX_SECONDS = env.int("OUTBOX_RETRY_MAX_SECONDS", default=900)
OUTBOX_KEEP_DAYS = env.int("OUTBOX_KEEP_DAYS", default=7)
OUTBOX_SWEEP_SECONDS = env.int("OUTBOX_SWEEP_SECONDS", default=60)

# --- Celery -----------------------------------------------------------------

# Without a broker every task runs in-process, right where it is enqueued.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
if CELERY_BROKER_URL is None:
    CELERY_BROKER_URL = "memory://"  # never used for eager tasks; stops Celery falling back to AMQP
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
# Optional prefix for every Redis key the broker uses, so that several
# deployments or test runs can share one Redis server without seeing each other's tasks.
_celery_key_prefix = env.str("CELERY_KEY_PREFIX", default="")
CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": _celery_key_prefix} if _celery_key_prefix else {}
# Redis hands a task that was delivered and never acknowledged (its worker was killed: tasks
# are acknowledged late) to a worker again only after this many seconds. It must be longer
# than the longest task, counted from its delivery, or a task still running (or waiting for
# its retry's countdown, at most RETRYING_TASK's retry_backoff_max) would run twice at once:
# the fair-play check, capped by FAIRPLAY_CHECK_SECONDS below. Work that must not wait that
# long after a kill is found undone and enqueued again by the sweeps of CELERY_BEAT_SCHEDULE
# (bot turns, tournament rounds, departed ladder players, fair-play checks, replies by mail).
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=2 * 3600)
CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] = CELERY_VISIBILITY_TIMEOUT
# `make run`'s broker needs no server: filesystem:///<absolute folder> (kombu's filesystem
# transport) keeps each message as a file in the folder, shared by the web server, the worker
# and beat. The host is named in the URL only to keep kombu from warning that none was given.
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_folder = Path(urlsplit(CELERY_BROKER_URL).path or BASE_DIR / ".broker")
    CELERY_BROKER_URL = f"filesystem://localhost{_broker_folder}"
    for _folder in ("messages", "control"):
        (_broker_folder / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS.update(
        {
            "data_folder_in": str(_broker_folder / "messages"),
            "data_folder_out": str(_broker_folder / "messages"),
            "control_folder": str(_broker_folder / "control"),
        }
    )
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # with acks_late: a task whose worker died runs again
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ROUTES = {  # long staff checks: `worker -Q slow`; their quick sweep stays on the default queue
    "fairplay.tasks.fairplay_checks_sweep": {"queue": "celery"},
    "fairplay.tasks.*": {"queue": "slow"},
    # Mail pictures drawn after each move (`worker -Q pictures`): a backlog of them never holds up
    # mail, moves or bots, and a picture still missing when its mail goes is drawn then.
    "correspondence.tasks.mail_pictures_render": {"queue": "pictures"},
    # Post-game analyses (`worker -Q analysis`): minutes of bot search each, never ahead of the
    # fair-play checks (queue slow) nor of moves and mail; their quick sweep stays on the default queue.
    "analysis.tasks.game_analyses_sweep": {"queue": "celery"},
    "analysis.tasks.*": {"queue": "analysis"},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers log through LOGGING below (structured, with ids)
# Mail printed by the console backend (make run) shows as it is, not as one WARNING log line per write.
CELERY_WORKER_REDIRECT_STDOUTS = _email.get("EMAIL_BACKEND") != "django.core.mail.backends.console.EmailBackend"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Periodic tasks, run by exactly one `celery -A maatasite beat` process. Apps add entries here.
# /healthz/: beat is failing when no sweep ran on a worker for this long (ops/).
OPS_BEAT_STALE_SECONDS = env.int("OPS_BEAT_STALE_SECONDS", default=900)
# Bot turns left undone (the task was lost with its worker): a running game whose bot has
# been to move for GAMES_BOT_OVERDUE_SECONDS with no decision is enqueued again by a sweep
# every GAMES_BOT_SWEEP_SECONDS, so such a turn is played within about 2 minutes. Keep the
# threshold above a bot's longest decision (GAMES_BOT_SECONDS below), or a sweep would make
# a second task think beside one still thinking (harmless: the ply is played once, but wasted).
GAMES_BOT_SWEEP_SECONDS = env.int("GAMES_BOT_SWEEP_SECONDS", default=60)
GAMES_BOT_OVERDUE_SECONDS = env.int("GAMES_BOT_OVERDUE_SECONDS", default=60)
GAMES_BOT_SWEEP_BATCH = 500  # turns enqueued again per sweep at most, the oldest first
# The longest a bot thinks about one decision (games.bots), in seconds.
GAMES_BOT_SECONDS = env.float("GAMES_BOT_SECONDS", default=20.0)
# The same for a tournament round left unpaired and a departed ladder player's games left running.
TOURNAMENTS_SWEEP_SECONDS = env.int("TOURNAMENTS_SWEEP_SECONDS", default=300)
TOURNAMENTS_ADVANCE_OVERDUE_SECONDS = env.int("TOURNAMENTS_ADVANCE_OVERDUE_SECONDS", default=300)
LADDER_SWEEP_SECONDS = env.int("LADDER_SWEEP_SECONDS", default=300)
LADDER_RESIGN_OVERDUE_SECONDS = env.int("LADDER_RESIGN_OVERDUE_SECONDS", default=300)
# A fair-play check gets this long (Celery's soft time limit; the hard limit kills it a minute
# later) and then fails with its reason; a check queued or running for longer than the hard
# limit was lost, and the sweep every FAIRPLAY_SWEEP_SECONDS enqueues it again.
FAIRPLAY_CHECK_SECONDS = env.int("FAIRPLAY_CHECK_SECONDS", default=3600)
FAIRPLAY_CHECK_HARD_SECONDS = FAIRPLAY_CHECK_SECONDS + 60
FAIRPLAY_SWEEP_SECONDS = env.int("FAIRPLAY_SWEEP_SECONDS", default=600)
# A reply by mail is stored (correspondence.InboundMail) before its task plays it; one still
# unprocessed CORRESPONDENCE_INBOUND_OVERDUE_SECONDS after it came is enqueued again by a sweep
# every CORRESPONDENCE_INBOUND_SWEEP_SECONDS (then after a doubling wait, up to the maximum), so
# a move by mail lost with a killed worker is played within about 2 minutes. Stored mail is
# deleted CORRESPONDENCE_INBOUND_KEEP_DAYS after it was processed (it is the players' mail).
CORRESPONDENCE_INBOUND_SWEEP_SECONDS = env.int("CORRESPONDENCE_INBOUND_SWEEP_SECONDS", default=60)
CORRESPONDENCE_INBOUND_OVERDUE_SECONDS = env.int("CORRESPONDENCE_INBOUND_OVERDUE_SECONDS", default=60)
CORRESPONDENCE_INBOUND_RETRY_MAX_SECONDS = 3600
CORRESPONDENCE_INBOUND_SWEEP_BATCH = 500  # rows enqueued again per sweep at most, the longest due first
CORRESPONDENCE_INBOUND_KEEP_DAYS = env.int("CORRESPONDENCE_INBOUND_KEEP_DAYS", default=7)
# A post-game analysis (analysis.tasks.game_analysis_run) gets ANALYSIS_TASK_SECONDS (Celery's
# soft limit; the hard one a minute later) and then fails with its reason; one queued or running
# for longer than the hard limit was lost, and the sweep every ANALYSIS_SWEEP_SECONDS enqueues it again.
ANALYSIS_TASK_SECONDS = env.int("ANALYSIS_TASK_SECONDS", default=1800)
ANALYSIS_TASK_HARD_SECONDS = ANALYSIS_TASK_SECONDS + 60
ANALYSIS_SWEEP_SECONDS = env.int("ANALYSIS_SWEEP_SECONDS", default=600)
if CELERY_VISIBILITY_TIMEOUT <= ANALYSIS_TASK_HARD_SECONDS + RETRYING_TASK["retry_backoff_max"]:
    raise ImproperlyConfigured(
        "CELERY_VISIBILITY_TIMEOUT must be longer than ANALYSIS_TASK_SECONDS plus "
        "11 minutes (the hard time limit, and the longest retry countdown)"
    )
if CELERY_VISIBILITY_TIMEOUT <= FAIRPLAY_CHECK_HARD_SECONDS + RETRYING_TASK["retry_backoff_max"]:
    raise ImproperlyConfigured(
        "CELERY_VISIBILITY_TIMEOUT must be longer than FAIRPLAY_CHECK_SECONDS plus "
        "11 minutes (the hard time limit, and the longest retry countdown)"
    )
# --- Outbound webhooks (webhooks/; README "Outbound webhooks") ---------------------
# A request's timeout (connect, and each read); a delivery's tries before it is given up; the
# first wait before a retry, doubling up to the longest; failed tries in a row after which an
# endpoint is switched off and its owner mailed; beat's sweep of lost or due deliveries.
WEBHOOKS_TIMEOUT_SECONDS = env.float("WEBHOOKS_TIMEOUT_SECONDS", default=10.0)
WEBHOOKS_MAX_ATTEMPTS = env.int("WEBHOOKS_MAX_ATTEMPTS", default=8)
WEBHOOKS_RETRY_SECONDS = env.float("WEBHOOKS_RETRY_SECONDS", default=30.0)
WEBHOOKS_RETRY_MAX_SECONDS = env.float("WEBHOOKS_RETRY_MAX_SECONDS", default=3600.0)
WEBHOOKS_DISABLE_AFTER_FAILURES = env.int("WEBHOOKS_DISABLE_AFTER_FAILURES", default=16)
WEBHOOKS_SWEEP_SECONDS = env.int("WEBHOOKS_SWEEP_SECONDS", default=60)
# TEST ONLY: also accept loopback receivers (127/8, ::1, localhost), plain http included, for
# the tests' local receiver. Off by default; never on in production, and not tied to DEBUG.
WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = env.bool("WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS", default=False)

CELERY_BEAT_SCHEDULE = {
    # Outbound webhooks: endpoints' new events read, and due or lost deliveries sent again.
    "webhooks-sweep": {
        "task": "webhooks.tasks.webhooks_sweep",
        "schedule": timedelta(seconds=WEBHOOKS_SWEEP_SECONDS),
    },
    "games-bot-turns-sweep": {
        "task": "games.tasks.bot_turns_sweep",
        "schedule": timedelta(seconds=GAMES_BOT_SWEEP_SECONDS),
    },
    "tournaments-advance-sweep": {
        "task": "tournaments.tasks.tournaments_advance_sweep",
        "schedule": timedelta(seconds=TOURNAMENTS_SWEEP_SECONDS),
    },
    # Tournaments whose end date passed: their running games adjudicated (games.end_adjudication).
    "tournaments-end-date-sweep": {
        "task": "tournaments.tasks.tournaments_end_date_sweep",
        "schedule": timedelta(seconds=TOURNAMENTS_SWEEP_SECONDS),
    },
    "ladder-departed-sweep": {
        "task": "ladder.tasks.ladder_departed_sweep",
        "schedule": timedelta(seconds=LADDER_SWEEP_SECONDS),
    },
    "fairplay-checks-sweep": {
        "task": "fairplay.tasks.fairplay_checks_sweep",
        "schedule": timedelta(seconds=FAIRPLAY_SWEEP_SECONDS),
    },
    "analysis-sweep": {
        "task": "analysis.tasks.game_analyses_sweep",
        "schedule": timedelta(seconds=ANALYSIS_SWEEP_SECONDS),
    },
    "correspondence-inbound-sweep": {
        "task": "correspondence.tasks.inbound_mails_sweep",
        "schedule": timedelta(seconds=CORRESPONDENCE_INBOUND_SWEEP_SECONDS),
    },
    "correspondence-inbound-purge": {
        "task": "correspondence.tasks.inbound_mails_purge",
        "schedule": crontab(minute=29),
    },
    "games-timeout-sweep": {
        "task": "games.tasks.games_timeout_sweep",
        "schedule": timedelta(seconds=env.int("CELERY_BEAT_SWEEP_SECONDS", default=300)),
    },
    "accounts-unconfirmed-purge": {
        "task": "accounts.tasks.unconfirmed_accounts_purge",
        "schedule": crontab(hour=4, minute=17),
    },
    # Mail due about games (alarms), daily digests, vacations that end (correspondence/).
    "correspondence-sweep": {
        "task": "correspondence.tasks.correspondence_sweep",
        "schedule": timedelta(
            seconds=env.int("CORRESPONDENCE_SWEEP_SECONDS", default=env.int("CELERY_BEAT_SWEEP_SECONDS", default=60))
        ),
    },
    # The outbox: rows never picked up (a lost task), a dead worker's rows past their lease,
    # rows due again after an SMTP outage; and the purge of done rows (accounts.outbox).
    "accounts-outbox-sweep": {
        "task": "accounts.tasks.outbox_drain",
        "schedule": timedelta(seconds=OUTBOX_SWEEP_SECONDS),
    },
    "accounts-outbox-purge": {
        "task": "accounts.tasks.outbox_purge",
        "schedule": crontab(hour=4, minute=29),
    },
    "api-idempotency-purge": {
        "task": "api.tasks.idempotency_purge",
        "schedule": crontab(minute=41),
    },
    # Proof for /healthz/ that beat schedules and a worker runs tasks (ops/).
    "ops-heartbeat": {
        "task": "ops.tasks.heartbeat",
        "schedule": timedelta(
            seconds=env.int("OPS_HEARTBEAT_SECONDS", default=env.int("CELERY_BEAT_SWEEP_SECONDS", default=60))
        ),
    },
}

# --- Live game pages (games/live.py, games/consumers.py) ----------------------

# The push of a game's moves, messages and end to its open pages (a WebSocket per page). A
# change is announced after its commit, by whichever process made it (a web server, the worker
# that played a bot's move), to a Redis channel layer that every web process listens to. Unset,
# push is off and pages poll (static/games/game.js), as under `make run` without Redis. Its
# keys begin with LIVE_KEY_PREFIX, so the layer may share a Redis db with other users.
LIVE_REDIS_URL = env.str("LIVE_REDIS_URL", default="")
LIVE_KEY_PREFIX = env.str("LIVE_KEY_PREFIX", default="maatasite-live")


def live_channel_layers(url: str, prefix: str) -> dict:
    """Channels' layer on the Redis at ``url``, its keys under ``prefix`` (tests make their own).

    Each socket waits on Redis in blocking pops of 5 s (channels-redis); redis-py's own default
    read timeout is 5 s too, and a read that times out first kills the socket: reads get 15 s."""
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": url, "socket_timeout": 15}], "prefix": prefix},
        }
    }


CHANNEL_LAYERS = live_channel_layers(LIVE_REDIS_URL, LIVE_KEY_PREFIX) if LIVE_REDIS_URL else {}

# --- Correspondence ---------------------------------------------------------

# Reply addresses for moves by mail are play-...@CORRESPONDENCE_REPLY_DOMAIN.
CORRESPONDENCE_REPLY_DOMAIN = env.str("CORRESPONDENCE_REPLY_DOMAIN", default="localhost")
# Shared secret of the inbound-mail webhook (header X-Inbound-Secret); empty turns it off.
CORRESPONDENCE_INBOUND_SECRET = env.str("CORRESPONDENCE_INBOUND_SECRET", default="")
# The authserv-id (RFC 8601) of the trusted server that receives reply mail and checks DKIM,
# SPF and DMARC. Set, a reply plays only with that server's Authentication-Results header (or
# the webhook's X-Inbound-Authentication) reporting a dkim or dmarc pass; unset, From is trusted.
CORRESPONDENCE_INBOUND_AUTHSERV_ID = env.str("CORRESPONDENCE_INBOUND_AUTHSERV_ID", default="")
# Answers to replies that played nothing, and wrong-sender notices: at most one per game,
# player and this many hours (an auto-responder that slips past the checks is not fed).
CORRESPONDENCE_REPLY_ANSWER_HOURS = 24
# Shared secret of the mail provider's bounce/complaint webhook (header X-Webhook-Secret); empty turns it off.
MAIL_WEBHOOK_SECRET = env.str("MAIL_WEBHOOK_SECRET", default="")
# How long the game links in mail ("open the game" without signing in) stay valid, in seconds (90 days).
CORRESPONDENCE_LINK_MAX_AGE = 90 * 24 * 3600
CORRESPONDENCE_VACATION_DAYS_PER_YEAR = 30  # credited monthly
CORRESPONDENCE_VACATION_CAP_DAYS = 30
GAMES_REMIND_SHARE = 0.8  # remind when this share of a turn's time is used
GAMES_LAST_CALL_HOURS = 6  # and again this many hours before the deadline
# Outage protection of the clocks (games.services.games_sweep): a gap without timeout sweeps
# longer than this is an outage, and the deadlines inside it move by its length.
GAMES_OUTAGE_GAP_SECONDS = env.int("GAMES_OUTAGE_GAP_SECONDS", default=900)
if GAMES_OUTAGE_GAP_SECONDS <= CELERY_BEAT_SCHEDULE["games-timeout-sweep"]["schedule"].total_seconds():
    raise ImproperlyConfigured("GAMES_OUTAGE_GAP_SECONDS must be longer than CELERY_BEAT_SWEEP_SECONDS")
# A sweep times out at most max(this many, this share of the running games); above that it
# holds them all for staff to confirm or extend in the admin (held timeout batches).
GAMES_TIMEOUT_MAX_SHARE = env.float("GAMES_TIMEOUT_MAX_SHARE", default=0.10)
GAMES_TIMEOUT_MIN_UNCONFIRMED = env.int("GAMES_TIMEOUT_MIN_UNCONFIRMED", default=5)
# Staff's fair-play check: the bot asked (5 is the strongest). It thinks with its level's
# node or iteration budget and no time cap, so that a figure is the same on any machine.
# A check runs for minutes, so its task goes to a queue of its own (CELERY_TASK_ROUTES) that a
# separate worker consumes; bots' moves and mail never wait behind it.
FAIRPLAY_BOT_LEVEL = env.int("FAIRPLAY_BOT_LEVEL", default=5)
# How many of the player's latest games a check reads: offered by default, and at most
# (the cost grows with each game, see README "Fair play").
FAIRPLAY_DEFAULT_GAMES = env.int("FAIRPLAY_DEFAULT_GAMES", default=10)
FAIRPLAY_MAX_GAMES = env.int("FAIRPLAY_MAX_GAMES", default=50)
if not 1 <= FAIRPLAY_DEFAULT_GAMES <= FAIRPLAY_MAX_GAMES:
    raise ImproperlyConfigured("FAIRPLAY_DEFAULT_GAMES must be from 1 to FAIRPLAY_MAX_GAMES")
# A player's first decisions of each game that are not counted. The setups are dealt at
# random, so there is no opening theory that honest players would share with the bot: 0.
FAIRPLAY_SKIP_OPENING = 0
# Honest players of similar rating: current rating within +- this band, at most this many of
# them (closest rating first), each over their last few rated games, so many games in all.
FAIRPLAY_RATING_BAND = 150
FAIRPLAY_REFERENCE_PLAYERS = 5
FAIRPLAY_REFERENCE_GAMES = 3
FAIRPLAY_REFERENCE_MAX_GAMES = 15
# Post-game analysis (analysis/): the bot level whose budget judges every position (the strongest,
# with no time cap: the analysis is deterministic), and a player's budget of analyses asked for
# (RATE_LIMITS["analysis"] below; an analysis already made or under way costs nothing).
ANALYSIS_BOT_LEVEL = env.int("ANALYSIS_BOT_LEVEL", default=5)

# --- Django REST framework --------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON bodies are read by api/json_body.py: too deep or not JSON is a 400, never a 500.
    "DEFAULT_PARSER_CLASSES": [
        "api.json_body.JSONBodyParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# --- The REST API (api/) ----------------------------------------------------

SPECTACULAR_SETTINGS = {
    "TITLE": "Maatasite API",
    "DESCRIPTION": "Everything a player does on Maatasite, for mobile apps. Errors are "
    "{code, message, details}; writes accept an Idempotency-Key header.",
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": "/api/v1/",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "games.models.GameKind",
        "GameStatusEnum": "games.models.GameStatus",
        "ChallengeStatusEnum": "games.models.ChallengeStatus",
        "ResultReasonEnum": "games.models.ResultReason",
        "PlayerResultEnum": "games.models.PlayerResult",
        "EventKindEnum": "games.events.EventKind",
        "TournamentStatusEnum": "tournaments.serializers.TOURNAMENT_STATUSES",
    },
}
# The cache holds the API's rate-limit counters; a shared one (redis://host:6379/3) lets every
# web process count together. Default: each process's own memory (local development).
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # Django's Redis cache builds a new client (and copies its ~200 reply callbacks) for each
    # operation; this one keeps one client per connection pool (maatasite/redis_cache.py).
    CACHES["default"]["BACKEND"] = "maatasite.redis_cache.RedisCacheKeepingClients"
# Rate limits (429 with Retry-After): per signed-in user, per IP, per IP on credential endpoints.
API_THROTTLE_RATES = {
    "user": env.str("API_RATE_USER", default="120/min"),
    "ip": env.str("API_RATE_IP", default="300/min"),
    "auth": env.str("API_RATE_AUTH", default="10/min"),
}
# Budgets of the HTML forms and of the account mails (accounts/ratelimits.py), in the same cache:
# POSTs per address to the credential pages (log in, /admin/login/, sign up, reset, resend); failed
# sign-ins per account and address (pages and API token); reset and confirmation mails per target address.
RATE_LIMITS = {
    "page_auth": env.str("PAGE_RATE_AUTH", default="10/min"),
    "login_failures": env.str("ACCOUNT_RATE_LOGIN_FAILURES", default="10/hour"),
    "account_mail": env.str("ACCOUNT_RATE_MAIL", default="5/hour"),
    # Post-game analyses a player asks for (page and API together), per player.
    "analysis": env.str("ANALYSIS_RATE_PLAYER", default="5/hour"),
}
API_EVENTS_SETTLE_SECONDS = env.float("API_EVENTS_SETTLE_SECONDS", default=2.0)
# How long the first answer to a write with an Idempotency-Key is kept and replayed (api.services).
API_IDEMPOTENCY_HOURS = env.int("API_IDEMPOTENCY_HOURS", default=24)
# Web clients on other origins allowed to call /api/ (comma-separated, e.g. https://app.example).
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = [
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-none-match",
    "if-modified-since",
]
CORS_EXPOSE_HEADERS = ["etag", "last-modified", "retry-after", "idempotent-replayed"]

# --- Security (production) --------------------------------------------------

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = False
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
if env.bool("USE_X_FORWARDED_PROTO", default=False):
    # Behind a load balancer that terminates TLS and sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front of the site append to X-Forwarded-For (api/client_address.py):
# 0 trusts no header and uses the socket's address; N takes the N-th address from the right.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more, not %d" % TRUSTED_PROXY_COUNT)
X_FRAME_OPTIONS = "DENY"

# --- Content-Security-Policy and Permissions-Policy ---------------------------

# One strict policy for every response: pages, the admin, the API and its docs, errors.
# Nothing is loaded from another site and no page has inline script, inline style or an
# on*= handler attribute (the Swagger page uses drf-spectacular's split view, whose init script
# is a file of its own). The boards are inline SVG drawn with presentation attributes
# (fill=, stroke=), which style-src does not govern. img-src allows data: for the
# admin's and Swagger UI's icons. No view is exempt and tests run under the same policy; only
# Django's debug 404 and 500 pages (DEBUG on, inline style) go without it, as django-csp does.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}
# Browser features the site never uses, denied to it and to anything it could embed.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}

# --- Logging ----------------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
# Structured logs (maatasite/logs.py): LOG_FORMAT=json writes one JSON object per line for a
# log collector; kv (the default) writes key=value pairs. Both carry request_id and game_id.
LOG_FORMAT = env.str("LOG_FORMAT", default="kv")
if LOG_FORMAT not in ("kv", "json"):
    raise ImproperlyConfigured("LOG_FORMAT must be kv or json, not %r" % LOG_FORMAT)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "maatasite.logs.ContextFilter"}},
    "formatters": {
        "kv": {
            "format": "time=%(asctime)s level=%(levelname)s logger=%(name)s process=%(process)d "
            "request_id=%(request_id)s game_id=%(game_id)s user_id=%(user_id)s "
            "task=%(task)s msg=%(message)s",
        },
        "json": {"()": "maatasite.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["context"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
    },
}
