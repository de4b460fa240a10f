"""Structured logs: request ids on every response and log line, game ids bound, JSON format."""

import io
import json
import logging
import time

import pytest
from django.urls import reverse

from games import services
from maatasite import logs
from tests.factories import to_move
from tests.games.conftest import first_legal, start_game


@pytest.fixture
def json_log():
    """Root-level capture through the project's filter and JSON formatter; yields a reader."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.ContextFilter())
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines() if line]
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


@pytest.mark.django_db
def test_every_response_carries_a_request_id_and_a_sane_client_id_is_kept(client):
    first = client.get("/healthz/")["X-Request-ID"]
    second = client.get("/healthz/")["X-Request-ID"]
    assert first and second and first != second
    assert client.get("/healthz/", HTTP_X_REQUEST_ID="proxy-abc-12345")["X-Request-ID"] == "proxy-abc-12345"
    replaced = client.get("/healthz/", HTTP_X_REQUEST_ID="bad id\nwith=stuff")["X-Request-ID"]
    assert replaced != "bad id\nwith=stuff" and len(replaced) == 32


@pytest.mark.django_db
def test_a_move_request_logs_its_request_game_and_user_ids(client, alice, bob, json_log):
    game = start_game(alice, bob)
    mover = to_move(game)
    client.force_login(mover)
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"move": first_legal(game), "expected_ply": game.ply},
        HTTP_X_REQUEST_ID="req-move-000001",
    )
    assert response.status_code == 302
    lines = [e for e in json_log() if e["logger"] == "maatasite.requests"]
    assert lines, "the request was not logged"
    entry = lines[-1]
    assert entry["request_id"] == "req-move-000001"
    assert entry["game_id"] == game.pk
    assert entry["user_id"] == mover.pk
    assert entry["msg"].startswith("POST /games/%s/move/ " % game.pk)
    # outside the request nothing stays bound
    assert logs.bound() == {}


@pytest.mark.django_db
def test_a_task_run_in_process_logs_the_request_that_sent_it_and_its_game(
    no_mail_pictures, alice, json_log, django_capture_on_commit_callbacks
):
    # a solo game: the bot's turn is a Celery task (run in-process without a broker)
    with logs.log_context(request_id="req-solo-000001"), django_capture_on_commit_callbacks(execute=True):
        game = _solo_game_with_a_bot_turn(alice)
    tasks = [e for e in json_log() if e["logger"] == "maatasite.tasks"]
    assert tasks, "the bot's task was not logged"
    for entry in tasks:
        assert entry["request_id"] == "req-solo-000001"
        assert entry["task"] == "games.tasks.bot_turn_play"
        assert entry["game_id"] == game.pk
        assert entry["task_id"]


def _solo_game_with_a_bot_turn(user):
    """A solo Onitama game where the bot has had a turn (the player moves first if they start)."""
    game = services.game_create_solo(user=user, kind="onitama", bot_level=1, options={"cards": "base"}, side="red")
    if game.to_move_user_id == user.pk:
        services.move_submit(game_id=game.pk, user=user, move_text=first_legal(game), expected_ply=game.ply)
    return game


def test_json_lines_hold_the_fields_and_errors():
    formatter = logs.JsonFormatter()
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom %s", ("now",), None)
    with logs.log_context(game_id=7, request_id="abcdefgh"):
        logs.ContextFilter().filter(record)
    try:
        raise ValueError("bad")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    entry = json.loads(formatter.format(record))
    assert entry["msg"] == "boom now" and entry["level"] == "ERROR"
    assert entry["game_id"] == 7 and entry["request_id"] == "abcdefgh"
    assert "ValueError: bad" in entry["error"]
    assert "task" not in entry  # unbound fields are left out


@pytest.mark.services
def test_a_worker_logs_the_request_id_of_the_request_that_enqueued_its_task(celery_worker, alice):
    from games.models import Game, GameStatus

    with logs.log_context(request_id="req-worker-0001"):
        game = _solo_game_with_a_bot_turn(alice)
    deadline = time.monotonic() + 60
    needle = "request_id=req-worker-0001 game_id=%s" % game.pk
    while time.monotonic() < deadline:
        text = celery_worker.log_path.read_text(errors="replace")
        if needle in text and "games.tasks.bot_turn_play" in text:
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the worker log has no line with %r" % needle)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE


@pytest.mark.django_db
def test_a_worker_task_starts_with_an_empty_debug_query_log_and_an_eager_one_keeps_it():
    """Under DEBUG Django logs every query until a request starts; a worker has no requests,
    so each task empties the log (bounded memory), but never a task run inside a request."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model
    from django.db import connection

    from maatasite.celery import task_prerun_reset_queries

    connection.force_debug_cursor = True
    try:
        get_user_model().objects.filter(pk=0).exists()
        assert connection.queries_log
        task_prerun_reset_queries(task=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
        assert connection.queries_log
        task_prerun_reset_queries(task=SimpleNamespace(request=SimpleNamespace(is_eager=False)))
        assert not connection.queries_log
    finally:
        connection.force_debug_cursor = False
