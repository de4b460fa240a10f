"""A whole worker killed mid-bot-move (issue 13, item 10): the bot turns it held are left in
the broker's unacked set for CELERY_VISIBILITY_TIMEOUT, and the bot turns sweep gets every
one of them played once, after a restart, long before the broker would hand them out again.

Real services: a prefork worker (``--concurrency 2``, its own session) whose process group is
SIGKILLed, then a new worker and beat with a short sweep interval and overdue threshold."""

from __future__ import annotations

import base64
import json
import os
import time

import pytest
from django.db import connection, transaction
from django.db.models import Count

from games.models import Game, GameStatus, Move
from tests.helpers import wait_for

from .test_tasks import solo_game

pytestmark = pytest.mark.services

GAMES = 30


def unacked_bot_turns(worker) -> dict[str, tuple[int, int]]:
    """The bot turns among the messages the broker handed out and nobody acknowledged:
    delivery tag -> (game id, ply), read from kombu's Redis ``unacked`` hash."""
    import redis

    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    try:
        entries = client.hgetall(worker.env["CELERY_KEY_PREFIX"] + "unacked")
    finally:
        client.close()
    turns: dict[str, tuple[int, int]] = {}
    for tag, raw in entries.items():
        assert isinstance(tag, bytes)  # the client does not decode answers
        message = json.loads(raw)[0]
        if message["headers"]["task"] == "games.tasks.bot_turn_play":
            args = json.loads(base64.b64decode(message["body"]))[0]
            turns[tag.decode()] = (int(args[0]), int(args[1]))
    return turns


def backends_waiting_for_a_lock() -> int:
    """How many other connections wait for a lock now. PostgreSQL keeps the first read of
    pg_stat_activity for the rest of the transaction (this one holds the rows), so the
    snapshot is cleared before each read: without it a first read taken before the worker's
    processes came to wait was read again and again until the wait timed out (CI on 7e43670)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def held_rows_report(worker) -> str:
    """What to read when the worker's processes never came to wait on the held rows: the
    database's other connections (state, wait, query), the broker's queue and unacked counts
    under the worker's prefix, and the tail of the worker's log."""
    import redis

    from tests.conftest import _log_tail

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT pid, state, wait_event_type, wait_event, left(query, 100) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY pid"
        )
        activity = "\n".join("  %s" % (row,) for row in cursor.fetchall()) or "  (none)"
    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    try:
        prefix = worker.env["CELERY_KEY_PREFIX"]
        names = (key.decode() if isinstance(key, bytes) else key for key in client.scan_iter(match=prefix + "*"))
        keys = sorted(name for name in names if "binding" not in name)
        sizes = []
        for key in keys:
            raw = client.type(key)
            kind = raw.decode() if isinstance(raw, bytes) else raw
            size = {"list": client.llen, "hash": client.hlen, "zset": client.zcard}.get(kind)
            sizes.append("  %s (%s)%s" % (key, kind, ": %d" % size(key) if size else ""))
    finally:
        client.close()
    return "connections:\n%s\nbroker keys:\n%s\nworker log:\n%s" % (
        activity,
        "\n".join(sizes) or "  (none)",
        _log_tail(worker.log_path, 60),
    )


def test_every_bot_turn_held_by_a_killed_worker_is_played_once_after_the_restart(prefork_worker):
    from tests.factories import make_user

    human = make_user("human")
    games = [solo_game(human) for _ in range(GAMES)]  # each commits: its bot task is in the queue
    ids = [game.pk for game in games]
    assert all(game.to_move_user_id is None and game.ply == 0 for game in games)

    # Hold the games' rows, so that the worker's processes choose their move and then wait
    # to write it: the worker is killed mid-move, with the tasks it took unacknowledged.
    with transaction.atomic():
        list(Game.objects.select_for_update().filter(pk__in=ids))
        # Nobody waits yet; read in this transaction first, so that the waits below are seen
        # only if each read is fresh (see backends_waiting_for_a_lock).
        assert backends_waiting_for_a_lock() == 0
        prefork_worker.start()
        try:
            wait_for(lambda: backends_waiting_for_a_lock() >= 2, "two worker processes waiting on the held rows")
        except AssertionError as error:
            raise AssertionError("%s\n%s" % (error, held_rows_report(prefork_worker))) from None
        prefork_worker.kill()
    stuck = unacked_bot_turns(prefork_worker)
    stuck_games = {game_id for game_id, _ply in stuck.values()}
    # The kill really left work claimed and undone: tasks delivered and never acknowledged,
    # their bot turns not played.
    assert len(stuck) >= 2 and stuck_games <= set(ids)
    assert all(ply == 0 for _game, ply in stuck.values())
    assert not Move.objects.filter(game_id__in=ids).exists()

    # Restart: a new worker takes the tasks still queued; the sweep (every second, overdue
    # after a second) enqueues the held ones again. The broker would redeliver them only
    # after CELERY_VISIBILITY_TIMEOUT.
    restarted = time.monotonic()
    prefork_worker.env["GAMES_BOT_OVERDUE_SECONDS"] = "1"
    prefork_worker.start()
    prefork_worker.beat_start(GAMES_BOT_SWEEP_SECONDS="1")

    wait_for(lambda: Game.objects.filter(pk__in=stuck_games, ply__gte=1).count() == len(stuck_games), timeout=90)
    took_held = time.monotonic() - restarted
    wait_for(lambda: Game.objects.filter(pk__in=ids, ply__gte=1).count() == GAMES, timeout=90)
    took = time.monotonic() - restarted

    # Every game got exactly one move, the bot's, and it is the human's turn.
    moves = dict(Move.objects.filter(game_id__in=ids).values_list("game_id").annotate(n=Count("id")))
    assert moves == dict.fromkeys(ids, 1)
    assert Move.objects.filter(game_id__in=ids, ply=1, user__isnull=True, seat__bot_level=1).count() == GAMES
    assert set(Game.objects.filter(pk__in=ids).values_list("status", "ply", "to_move_user")) == {
        (GameStatus.ACTIVE, 1, human.pk)
    }
    # The held ones were played by the sweep's copies: their original messages still sit,
    # unacknowledged, in the broker, and the worker logged each sweep's find.
    assert set(unacked_bot_turns(prefork_worker)) >= set(stuck)
    log = prefork_worker.log_path.read_text(errors="replace")
    for game_id in stuck_games:
        assert "game=%s bot turn at ply 0 left undone: enqueued again" % game_id in log
    print(
        "\nbot games answered after a whole-worker kill: %d of %d, each once; the %d held by the "
        "killed worker within %.1f s of the restart, all within %.1f s (worker start included; "
        "sweep every 1 s, overdue after 1 s)" % (len(moves), GAMES, len(stuck_games), took_held, took)
    )
