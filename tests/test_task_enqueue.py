"""Tasks are enqueued one way: ``task.delay_on_commit(...)`` (maatasite/task_policy.py), which
publishes after the commit and logs a broker's refusal instead of raising it."""

import ast
import subprocess
from pathlib import Path

import pytest
from celery import Task
from django.db import transaction
from kombu.exceptions import OperationalError

from games import tasks
from maatasite.celery import app
from maatasite.task_policy import AfterCommitTask, on_commit_run

ROOT = Path(__file__).resolve().parent.parent
THE_ONE_PATH = "maatasite/task_policy.py"


def _project_sources() -> list[str]:
    """Every tracked Python file of the site outside the tests."""
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [name for name in listed.stdout.split() if not name.startswith("tests/")]


def _calls(path: str, source: str | None = None) -> list[tuple[int, str, ast.Call]]:
    tree = ast.parse((ROOT / path).read_text() if source is None else source, filename=path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            found.append((node.lineno, name, node))
    return found


def test_no_module_enqueues_on_commit_by_hand():
    """No ``transaction.on_commit(...)`` outside the one module (tasks: ``delay_on_commit``; other
    after-commit work such as a live push: ``on_commit_run``): a hand-written one would skip the
    handling of a refused publish or a failed push."""
    offenders = [
        f"{path}:{line}"
        for path in _project_sources()
        if path != THE_ONE_PATH
        for line, name, _ in _calls(path)
        if name == "on_commit"
    ]
    assert offenders == []


def test_services_publish_tasks_only_after_commit():
    """Outside tasks modules (a task may chain another: it runs after its own commit) nothing
    calls ``.delay``/``.apply_async``/``send_task`` directly, nor finds a task by name."""
    offenders = []
    for path in _project_sources():
        if path == THE_ONE_PATH or path.endswith("/tasks.py"):
            continue
        for line, name, call in _calls(path):
            by_name = (
                name == "getattr" and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == "tasks"
            )
            if name in ("delay", "apply_async", "send_task", "apply_async_on_commit") or by_name:
                offenders.append(f"{path}:{line} {name}")
    assert offenders == []


def test_the_scans_see_a_hand_written_enqueue():
    """The two scans above would see the helpers this replaced."""
    source = (
        "from django.db import transaction\n"
        "def _enqueue(tasks, name, *args):\n"
        "    transaction.on_commit(lambda: getattr(tasks, name).delay(*args))\n"
    )
    names = [name for _, name, _ in _calls("old.py", source)]
    assert "on_commit" in names and "delay" in names and "getattr" in names


def test_every_task_of_the_site_has_the_one_enqueue():
    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert "games.tasks.bot_turn_play" in ours
    assert [name for name, task in ours.items() if not isinstance(task, AfterCommitTask)] == []


@pytest.fixture
def published(monkeypatch):
    """The arguments of each publish of games.tasks.bot_turn_play, recorded instead of sent."""
    sent: list[tuple] = []
    monkeypatch.setattr(tasks.bot_turn_play, "delay", lambda *args, **kwargs: sent.append(args))
    return tasks.bot_turn_play, sent


@pytest.mark.django_db
def test_a_task_is_published_only_when_the_transaction_commits(published, django_capture_on_commit_callbacks):
    task, sent = published
    with django_capture_on_commit_callbacks(execute=False) as pending:
        task.delay_on_commit(7, 3)
        assert sent == []
    assert sent == [] and len(pending) == 1
    pending[0]()
    assert sent == [(7, 3)]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_publishes_nothing(published):
    task, sent = published
    with pytest.raises(RuntimeError), transaction.atomic():
        task.delay_on_commit(7, 3)
        raise RuntimeError("rolled back")
    assert sent == []
    with transaction.atomic():
        task.delay_on_commit(8, 4)
    assert sent == [(8, 4)]


@pytest.mark.django_db
@pytest.mark.parametrize("refusal", [OperationalError("Connection refused"), ConnectionResetError(), TimeoutError()])
def test_a_refused_publish_is_logged_not_raised(refusal, monkeypatch, caplog, django_capture_on_commit_callbacks):
    def broker_down(*args, **kwargs):
        raise refusal

    task: Task = app.tasks["games.tasks.bot_turn_play"]
    monkeypatch.setattr(task, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        task.delay_on_commit(7, 3)
    assert "task_enqueue_failed task=games.tasks.bot_turn_play args=(7, 3)" in caplog.text


@pytest.mark.django_db
def test_a_bug_in_the_arguments_is_not_swallowed(monkeypatch, django_capture_on_commit_callbacks):
    def unserializable(*args, **kwargs):
        raise TypeError("Object of type object is not JSON serializable")

    task: Task = app.tasks["games.tasks.bot_turn_play"]
    monkeypatch.setattr(task, "delay", unserializable)
    with pytest.raises(TypeError), django_capture_on_commit_callbacks(execute=True):
        task.delay_on_commit(object(), 3)


@pytest.mark.django_db(transaction=True)
def test_after_commit_work_runs_after_the_commit_and_a_failure_is_only_logged(caplog):
    ran: list[str] = []

    def fails() -> None:
        ran.append("fails")
        raise ConnectionError("layer down")

    with transaction.atomic():
        on_commit_run(lambda: ran.append("push"), what="live push")
        on_commit_run(fails, what="live push")
        assert ran == []  # nothing before the commit
    assert ran == ["push", "fails"]
    assert "after_commit_failed what=live push" in caplog.text
