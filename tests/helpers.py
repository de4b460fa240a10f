"""Helpers shared by every app's tests that build no data (data: tests/factories.py):
waiting for a positive signal, running functions at once in threads, reading what a real
worker did or was asked to, addresses and counts for the rate limits, signing in a browser page, settings
loaded in a fresh interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import connections
from django.utils.functional import Promise

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


@contextmanager
def asgi_served(application) -> Iterator[str]:
    """``application`` served by uvicorn (the production server's worker) in a thread of this
    process, on a free loopback port: its base URL while the block runs."""
    import socket

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application, host="127.0.0.1", port=port, lifespan="off", log_level="warning", ws="websockets-sansio"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield "http://127.0.0.1:%d" % port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def wait_for(condition, what: str = "the condition", *, timeout: float = 60.0, interval: float = 0.2):
    """Poll ``condition`` until it returns something true, and return that; fail after
    ``timeout`` seconds. A wait for a positive signal, never a sleep before an assertion."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(interval)


def run_together(functions: Sequence[Callable[..., T]]) -> list[T | Exception]:
    """Run the functions in threads released at the same moment (each with its own database
    connection, closed after); returns their results, or the exceptions they raised, in order."""
    barrier = threading.Barrier(len(functions))
    results: dict[int, T | Exception] = {}

    def runner(i: int, fn: Callable[..., T]) -> None:
        try:
            barrier.wait()
            results[i] = fn()
        except Exception as error:  # noqa: BLE001 - collected for the assertions
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i, fn)) for i, fn in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a function still ran after 60 s"
    return [results[i] for i in range(len(functions))]


def succeeded(results: Sequence[T | Exception]) -> list[T]:
    """``run_together``'s results, after failing the test if any of the functions raised."""
    errors = [result for result in results if isinstance(result, Exception)]
    assert not errors, errors
    return [result for result in results if not isinstance(result, Exception)]


def matched(pattern: str | re.Pattern[str], text: str | Promise) -> re.Match[str]:
    """``re.search`` for something the test relies on being there: fails, showing the text,
    when it is not (an email's body, a page)."""
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    found = compiled.search(str(text))
    assert found is not None, "%r not found in:\n%s" % (compiled.pattern, text)
    return found


def html_alternative(message: EmailMessage) -> str:
    """The HTML part of a mail the site sent (``mail.outbox``): its first alternative."""
    assert isinstance(message, EmailMultiAlternatives) and message.alternatives, "no HTML part: %r" % message
    html = message.alternatives[0][0]
    assert isinstance(html, str)
    return html


def task_publishes(callbacks: list) -> list:
    """The captured after-commit callbacks that publish a task (others, such as the header
    count's cache forgetting a game's players, run after each save of a game too)."""
    return [c for c in callbacks if "delay_on_commit" in c.__qualname__]  # not on_commit_run's


def task_runs_finished(worker, task_name: str) -> int:
    """How many runs of ``task_name`` the real worker (tests/conftest.py's ``celery_worker``)
    has finished, by its log's ``Task <name>[<id>] succeeded`` lines."""
    text = Path(worker.log_path).read_text(errors="replace")
    return len(re.findall(r"Task %s\[[^\]]+\] succeeded" % re.escape(task_name), text))


def wait_for_task_runs(worker, task_name: str, *, more: int = 2, timeout: float = 60.0) -> None:
    """Wait until the worker has finished ``more`` further runs of ``task_name`` (e.g. beat's
    sweeps): at least ``more - 1`` of them started after this call, so whatever they would
    have done again is done when this returns."""
    start = task_runs_finished(worker, task_name)
    wait_for(
        lambda: task_runs_finished(worker, task_name) >= start + more,
        "%d more finished run(s) of %s in the worker's log" % (more, task_name),
        timeout=timeout,
    )


def rotated(i: int) -> dict:
    """A new, plausible X-Forwarded-For on each request, as the hostile tester sent."""
    return {"HTTP_X_FORWARDED_FOR": "10.%d.%d.%d" % (i // 65536 % 256, i // 256 % 256, i % 256)}


def through_before_429(send, attempts: int):
    """How many of ``attempts`` requests (``send(i)``) got through before the first 429, and that 429."""
    for i in range(attempts):
        response = send(i)
        if response.status_code == 429:
            return i, response
    return attempts, None


def browser_login(page, base: str, name: str, password: str | None = None, *, clear_cookies: bool = False) -> None:
    """Sign ``name`` in through the login page (password ``pw-<name>-123456`` unless given);
    ``clear_cookies``: first drop every cookie of the page's context (whoever was signed in)."""
    if clear_cookies:
        page.context.clear_cookies()
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password or "pw-%s-123456" % name)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def settings_in_subprocess(env: dict, *names: str) -> subprocess.CompletedProcess:
    """Load the settings in a fresh interpreter with exactly ``env`` and print ``names`` as JSON."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))"
    )
    base = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "maatasite.settings"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=60
    )


def fields_of(instance) -> dict:
    """A model instance's concrete fields by attribute name: what the reads through SQL built
    once (maatasite.sql_once) are compared with the ORM's by."""
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}
