"""The harness itself: settings from the environment, the real Celery worker,
broker, PostgreSQL and SMTP sink, and a real browser against the live server."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.urls import reverse

from accounts.outbox import outbox_add, outbox_add_many
from accounts.tasks import outbox_send, unconfirmed_accounts_purge
from maatasite.celery import app
from tests.helpers import matched, settings_in_subprocess, wait_for

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-unusual-passphrase-9"


# --- Settings --------------------------------------------------------------------


def test_default_settings_are_local_development():
    result = settings_in_subprocess(
        {},
        "DEBUG",
        "DATABASES",
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_TASK_EAGER_PROPAGATES",
        "EMAIL_BACKEND",
        "SITE_URL",
        "TIME_ZONE",
        "USE_TZ",
        "AUTH_USER_MODEL",
        "CELERY_BEAT_SCHEDULE",
        "SESSION_COOKIE_SECURE",
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.splitlines()[-1])
    assert values["DEBUG"] is True
    assert values["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert values["DATABASES"]["default"]["NAME"] == str(ROOT / "db.sqlite3")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True and values["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert values["SITE_URL"] == "http://127.0.0.1:8000"
    assert (values["TIME_ZONE"], values["USE_TZ"]) == ("UTC", True)
    assert values["AUTH_USER_MODEL"] == "accounts.User"
    assert values["CELERY_BEAT_SCHEDULE"]["games-timeout-sweep"]["task"] == "games.tasks.games_timeout_sweep"
    assert "0:05:00" in values["CELERY_BEAT_SCHEDULE"]["games-timeout-sweep"]["schedule"]
    assert values["SESSION_COOKIE_SECURE"] is False


def test_settings_read_the_environment():
    result = settings_in_subprocess(
        {
            "DATABASE_URL": "postgres://maata:pw@db.internal:5433/maata",
            "CELERY_BROKER_URL": "redis://redis.internal:6379/2",
            "CELERY_RESULT_BACKEND": "redis://redis.internal:6379/3",
            "EMAIL_URL": "smtp://mail.internal:2525",
            "DEFAULT_FROM_EMAIL": "Maata <play@maata.example>",
            "SITE_URL": "https://maata.example/",
            "ALLOWED_HOSTS": "maata.example,www.maata.example",
        },
        "DATABASES",
        "CELERY_BROKER_URL",
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_RESULT_BACKEND",
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "DEFAULT_FROM_EMAIL",
        "SITE_URL",
        "ALLOWED_HOSTS",
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.splitlines()[-1])
    db = values["DATABASES"]["default"]
    assert (db["ENGINE"], db["HOST"], db["PORT"], db["NAME"]) == (
        "django.db.backends.postgresql",
        "db.internal",
        5433,
        "maata",
    )
    assert values["CELERY_BROKER_URL"] == "redis://redis.internal:6379/2"
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    assert values["CELERY_RESULT_BACKEND"] == "redis://redis.internal:6379/3"
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (values["EMAIL_HOST"], values["EMAIL_PORT"]) == ("mail.internal", 2525)
    assert values["DEFAULT_FROM_EMAIL"] == "Maata <play@maata.example>"
    assert values["SITE_URL"] == "https://maata.example"
    assert values["ALLOWED_HOSTS"] == ["maata.example", "www.maata.example"]


def test_site_url_follows_host_and_port_unless_it_is_set():
    """`make run PORT=8101` mailed links to port 8000: the links' base follows HOST and PORT."""
    cases = [
        ({"PORT": "8101"}, "http://127.0.0.1:8101"),
        ({"HOST": "localhost", "PORT": "8101"}, "http://localhost:8101"),
        ({"HOST": "::1", "PORT": "8101"}, "http://[::1]:8101"),
        ({"HOST": "localhost", "PORT": "8101", "SITE_URL": "https://maata.example/"}, "https://maata.example"),
    ]
    for env, expected in cases:
        result = settings_in_subprocess(env, "SITE_URL")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout.splitlines()[-1])["SITE_URL"] == expected, env


def test_make_run_settings_sqlite_in_wal_mode_and_a_broker_kept_in_files(tmp_path):
    """`make run`'s web server, worker and beat share one SQLite file and a broker folder."""
    broker = tmp_path / "broker"
    result = settings_in_subprocess(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "CELERY_BROKER_URL": f"filesystem://{broker}"},
        "DATABASES",
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_BROKER_URL",
        "CELERY_BROKER_TRANSPORT_OPTIONS",
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.splitlines()[-1])
    assert values["DATABASES"]["default"]["OPTIONS"] == {
        "init_command": "PRAGMA journal_mode=WAL;",
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
    }
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    assert values["CELERY_BROKER_URL"] == f"filesystem://localhost{broker}"
    options = values["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["data_folder_in"] == options["data_folder_out"] == str(broker / "messages")
    assert options["control_folder"] == str(broker / "control")
    assert (broker / "messages").is_dir() and (broker / "control").is_dir()


def test_production_needs_a_secret_key():
    result = settings_in_subprocess({"DEBUG": "false"}, "DEBUG")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_pass_the_deploy_check():
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DEBUG": "false",
        "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-key-for-this-test-" + "y" * 20,
        "GAMES_SEAL_KEY": "a-long-random-games-seal-key-for-this-test-" + "z" * 20,
        "ALLOWED_HOSTS": "maata.example",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Only the two HSTS opt-ins that depend on the domain (subdomains, preload list) may remain.
    codes = set(re.findall(r"\((\w+\.[EW]\d+)\)", result.stdout + result.stderr))
    assert codes <= {"security.W005", "security.W021"}, result.stdout + result.stderr
    values = json.loads(
        settings_in_subprocess(
            {k: v for k, v in env.items() if k != "PATH"},
            "SESSION_COOKIE_SECURE",
            "CSRF_COOKIE_SECURE",
            "SECURE_HSTS_SECONDS",
            "SECURE_SSL_REDIRECT",
        ).stdout.splitlines()[-1]
    )
    assert values == {
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 2592000,
        "SECURE_SSL_REDIRECT": True,
    }


def test_celery_app_is_configured_from_django_settings():
    assert app.main == "maatasite"
    assert app.conf.task_serializer == "json"
    assert "accounts.tasks.outbox_send" in app.tasks


@pytest.mark.django_db(transaction=True)
def test_tasks_run_in_process_without_a_broker():
    user = get_user_model().objects.create_user(username="xavier", email="x@example.com", password=PASSWORD)
    outbox_add(kind="signup_confirmation", user=user)  # its task runs at once: no transaction
    assert [m.to for m in mail.outbox] == [["x@example.com"]]
    assert "confirm" in mail.outbox[0].subject.lower()


# --- Real services: PostgreSQL, Redis, the Celery worker, the SMTP sink ----------


@pytest.mark.services
def test_database_is_postgresql(db):
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["NAME"].startswith("test_")
    assert os.environ["MAATASITE_TEST_RUN"] in connection.settings_dict["NAME"]  # one database per run


@pytest.mark.services
def test_worker_sends_mail_to_the_smtp_sink(celery_worker, smtp_sink):
    user = get_user_model().objects.create_user(username="sinker", email="sink@example.com", password=PASSWORD)
    [row] = outbox_add_many([{"kind": "signup_confirmation", "user": user}])
    result = outbox_send.delay(row.pk)
    assert not mail.outbox  # not run in this process
    message = smtp_sink.wait_for(1)[0]
    assert message["Subject"] == "Confirm your Maatasite account"
    assert message["To"] == "sink@example.com"
    assert "/accounts/confirm/" in smtp_sink.body(message)  # the link was made by the worker
    # It was the worker subprocess that ran it, not this process.
    wait_for(
        lambda: f"outbox_send[{result.id}] succeeded" in celery_worker.log_path.read_text(errors="replace"),
        "the worker's log to show the task",
    )


@pytest.mark.services
def test_worker_writes_to_the_test_database(celery_worker):
    from datetime import timedelta

    from django.utils import timezone

    User = get_user_model()
    stale = User.objects.create_user(
        username="stale",
        email="stale@example.com",
        password=PASSWORD,
        is_active=False,
        date_joined=timezone.now() - timedelta(days=30),
    )
    unconfirmed_accounts_purge.delay()
    wait_for(lambda: not User.objects.filter(pk=stale.pk).exists(), "the worker to delete the stale account")


@pytest.mark.services
def test_signup_confirmation_mail_goes_through_the_worker(celery_worker, smtp_sink, client, settings):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "wanda",
            "email": "wanda@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    message = smtp_sink.wait_for(1)[0]
    # the worker rendered it (the outbox renders at send time), with the SITE_URL of its environment
    link = matched(re.escape(settings.SITE_URL) + r"(/accounts/confirm/\S+/)", smtp_sink.body(message)).group(1)
    assert client.get(link).status_code == 200  # the link's page: its button confirms
    assert client.post(link).status_code == 302
    user = get_user_model().objects.get(username="wanda")
    assert user.is_active and user.email_confirmed


@pytest.mark.services
def test_beat_schedules_the_timeout_sweep(celery_beat):
    wait_for(
        lambda: "games.tasks.games_timeout_sweep" in celery_beat.log_path.read_text(errors="replace"),
        "beat to send games.tasks.games_timeout_sweep",
        timeout=30,
    )


@pytest.mark.services
def test_prefork_worker_dies_whole_and_starts_again(prefork_worker):
    """The harness of the kill -9 tests: SIGKILL leaves no process of the worker's group, and a
    new worker on the same broker prefix then runs tasks."""
    prefork_worker.start()
    pid = prefork_worker.process.pid
    prefork_worker.kill()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    prefork_worker.start()
    result = unconfirmed_accounts_purge.delay()
    wait_for(
        lambda: f"[{result.id}] succeeded" in prefork_worker.log_path.read_text(errors="replace"),
        "the restarted prefork worker to run a task",
    )
    assert prefork_worker.unacked() == 0


# --- Browser -------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_browser_signup_confirm_and_arabic(live_server, page, settings):
    settings.SITE_URL = live_server.url
    page.goto(live_server.url + reverse("accounts:signup"))
    page.fill("input[name=username]", "zainab")
    page.fill("input[name=email]", "zainab@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]:has-text('Create my account')")
    page.wait_for_url("**" + reverse("accounts:signup_done"))
    assert len(mail.outbox) == 1
    link = matched(r"http://\S+/accounts/confirm/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    page.locator("#confirm-button").click()
    page.wait_for_url("**" + reverse("accounts:profile"))
    assert "Welcome" in page.inner_text(".messages")
    assert get_user_model().objects.get(username="zainab").is_active
    # The language switcher: Arabic turns the page right-to-left and is remembered.
    page.select_option("#language-select", "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.get_attribute("html", "lang") == "ar"
    assert get_user_model().objects.get(username="zainab").language == "ar"
    # Desktop: the links are in the bar; a phone-sized window shows them behind the menu button.
    assert page.is_visible(".nav-links") and not page.is_visible(".nav-toggle-label")
    page.set_viewport_size({"width": 375, "height": 700})
    page.goto(live_server.url + reverse("accounts:profile"))
    assert not page.is_visible(".nav-links")
    page.click(".nav-toggle-label")
    assert page.is_visible(".nav-links")
