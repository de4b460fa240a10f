"""Reminder sweep throughput: N due reminders, each about a game at a different position,
queued by correspondence's sweep and sent by the outbox to an SMTP server.

    DATABASE_URL=postgres://... .venv/bin/python bench/reminders.py [--count 10000] [--batch 1000]
        [--kinds onitama,maatatahay] [--render 200] [--senders 1] [--draw-at-send]

Creates a scratch test database (test_<name>, dropped at the end) and N players, each
with a game of their own (Onitama and Maatatahay in turn, a deal of its own and 1 to 11
random decisions played, their moves stored: no two positions alike) whose 80 % reminder
is due, and a real SMTP server (aiosmtpd, in a process of its own as a real server would
be) that counts and measures what it receives.

1. Render: as after a move (the task ``mail_pictures_render``), the pictures of ``--render``
   games are drawn and stored, each game's two players, timed per move; the other games get a
   stored copy of one of those pictures (same sizes, so that the sweep reads as much from the
   database as in production; drawing 20,000 pictures would take many minutes). A game whose
   picture is missing would be drawn by the sweep itself; ``--draw-at-send`` deletes them all,
   so the sweep draws every picture itself, as it did before pictures were stored.
2. Sweep: ``alarms_send_due`` (queue up to ``--batch`` alarms in the outbox, then drain it:
   claimed in batches of OUTBOX_BATCH, sent over one kept-open SMTP connection, each row
   marked on its own) until nothing is due. ``--senders 2``: the alarms are queued first, then
   two processes drain the outbox at once, as the drain task and its helper do on a worker
   of two processes (the SQL queries are then counted for the queueing only).

Runs as production does, with DEBUG off (``--debug`` turns it on, as locally). Prints the
time taken (wall clock and the senders' CPU time: the machine may be shared),
the mails per second, the SQL queries (in total, per call and per mail), the pictures drawn
by the sweep, the mail sizes (median, 95th percentile, largest) and the pictures' storage.
Without DATABASE_URL it runs on SQLite in memory.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")


def _lean_sink_process(port: int, ready, stop, results) -> None:
    """A minimal real SMTP server (asyncio streams: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT)
    that accepts everything, as a fast MTA would: a tenth of aiosmtpd's CPU time per message,
    which on a 2-core machine the senders would otherwise share with the server."""
    import asyncio
    import threading

    sizes: list[int] = []
    loop = asyncio.new_event_loop()

    async def session(reader, writer) -> None:
        writer.write(b"220 sink ESMTP\r\n")
        while True:
            line = await reader.readline()
            if not line:
                break
            command = line[:4].upper()
            if command == b"EHLO":
                writer.write(b"250-sink\r\n250-8BITMIME\r\n250 SIZE 33554432\r\n")
            elif command == b"DATA":
                writer.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                await writer.drain()
                data = await reader.readuntil(b"\r\n.\r\n")
                sizes.append(len(data) - 3)
                writer.write(b"250 OK\r\n")
            elif command == b"QUIT":
                writer.write(b"221 Bye\r\n")
                await writer.drain()
                break
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                writer.write(b"250 OK\r\n")
            await writer.drain()
        writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(session, "127.0.0.1", port, limit=1 << 24)
        async with server:
            await server.serve_forever()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    time.sleep(0.2)
    ready.set()
    stop.wait()
    results.put((sizes, time.process_time()))


def _sink_process(port: int, ready, stop, results) -> None:
    """An SMTP server (aiosmtpd) that accepts everything and reports the size of each message at the end."""
    import logging

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
    sizes: list[int] = []

    class Sink:
        async def handle_DATA(self, server, session, envelope):
            sizes.append(len(envelope.content))
            return "250 OK"

    controller = Controller(Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    ready.set()
    stop.wait()
    controller.stop()
    results.put((sizes, time.process_time()))


def _percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=1000, help="alarms claimed per sweep call")
    parser.add_argument("--kinds", default="onitama,maatatahay", help="the games, in turn")
    parser.add_argument("--render", type=int, default=200, help="games whose pictures are drawn, timed")
    parser.add_argument(
        "--alarm-kind",
        default="reminder",
        choices=["reminder", "your_turn", "mixed"],
        help="the mails: reminders, your-turn mails (the opponent's last moves in words, the legal moves), "
        "or both in turn",
    )
    parser.add_argument(
        "--sink",
        default="aiosmtpd",
        choices=["aiosmtpd", "lean"],
        help="the SMTP server: aiosmtpd, or a minimal asyncio one (less CPU taken from the senders)",
    )
    parser.add_argument("--senders", type=int, default=1, help="processes draining the outbox at once")
    parser.add_argument("--draw-at-send", action="store_true", help="no stored pictures: the sweep draws them")
    parser.add_argument(
        "--debug", action="store_true", help="DEBUG on, as in local development (production runs with it off)"
    )
    parser.add_argument("--profile", metavar="FILE", help="profile the sweep (cProfile, one sender) into FILE")
    parser.add_argument(
        "--breakdown", action="store_true", help="CPU time per mail of each step of the sweep (one sender)"
    )
    args = parser.parse_args()

    import logging

    import django

    django.setup()
    logging.getLogger("accounts.outbox").setLevel(logging.WARNING)  # one line per mail otherwise
    from django.conf import settings

    # As production runs (DEBUG=false): no query log on every cursor, no template debug data.
    # (--debug keeps the local default, DEBUG on, for comparison.)
    settings.DEBUG = args.debug
    for engine_settings in settings.TEMPLATES:
        engine_settings.setdefault("OPTIONS", {})["debug"] = args.debug
    from django.contrib.auth import get_user_model
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    import engine
    from accounts.outbox import outbox_send_due
    from correspondence import pictures, services
    from correspondence.models import MailPicture
    from correspondence.turn_text import turn_parts
    from engine import fair
    from games.models import Alarm, Game, Move, Seat
    from games.sealing import seal
    from games.services import game_state_keep
    from tests.conftest import free_port

    port = free_port()
    context = multiprocessing.get_context("fork")  # before any database connection or thread
    ready, stop, results = context.Event(), context.Event(), context.Queue()
    sink = context.Process(
        target=_lean_sink_process if args.sink == "lean" else _sink_process,
        args=(port, ready, stop, results),
        daemon=True,
    )
    sink.start()
    assert ready.wait(30), "the SMTP server did not start"
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    sizes: list[int] = []
    try:
        User = get_user_model()
        kinds = args.kinds.split(",")
        print(
            "setting up %d players, games (%s) and due reminders on %s ..."
            % (args.count, ", ".join(kinds), connection.vendor),
            flush=True,
        )
        started = time.perf_counter()
        User.objects.bulk_create(
            [
                User(username="p%05d" % i, email="p%05d@example.org" % i, is_active=True, email_confirmed=True)
                for i in range(args.count + 1)
            ],
            batch_size=2000,
        )
        users = list(User.objects.order_by("pk"))
        host = users[0]
        now = timezone.now()
        games, plans, positions = [], [], set()
        for i, user in enumerate(users[1:]):
            kind = kinds[i % len(kinds)]
            rules = engine.get_game(kind)
            options = {"cards": "base"} if kind == "onitama" else {}
            seed, salt = 1_000_003 * (i + 1), fair.new_salt()
            state = rules.new_game(seed, options)
            pick = random.Random(i)
            texts, movers = [], []
            for _ in range(1 + i % 11):
                legal = rules.legal_moves(state)
                if not legal:
                    break
                move = pick.choice(legal)
                after = rules.apply(state, move)
                if rules.outcome(after) is not None:
                    break
                movers.append(rules.to_move(state))
                texts.append(rules.move_text(move))
                state = after
            side = rules.to_move(state)
            positions.add((kind, str(rules.to_json(state))))
            game = Game(
                kind=kind,
                options=options,
                data_version=rules.data_version(state),
                days_per_move=3,
                seed_commitment=fair.commitment(salt, seed),
                sealed_seed=seal("%s:%d" % (salt.hex(), seed), purpose="seed"),
                to_move_side=side,
                to_move_user=user,
                turn=len(texts) + 1,
                ply=len(texts),
                turn_started_at=now - timedelta_days(2.5),
                deadline=now + timedelta_days(0.5),
            )
            game_state_keep(game=game, state=state)
            games.append(game)
            plans.append((user, side, rules.players, texts, movers))
        Game.objects.bulk_create(games, batch_size=1000)
        seats, by_side = [], {}
        for game, (user, side, players, _texts, _movers) in zip(games, plans, strict=True):
            for position, name in enumerate(players):
                seat = Seat(game=game, side=name, position=position, user=user if name == side else host)
                seats.append(seat)
                by_side[(game.pk, name)] = seat
        Seat.objects.bulk_create(seats, batch_size=2000)
        moves = []
        for game, (_user, _side, _players, texts, movers) in zip(games, plans, strict=True):
            for ply, (text, mover) in enumerate(zip(texts, movers, strict=True), start=1):
                seat = by_side[(game.pk, mover)]
                moves.append(Move(game=game, ply=ply, turn=ply, seat=seat, user=seat.user, text=text))
        Move.objects.bulk_create(moves, batch_size=2000)
        Alarm.objects.all().delete()
        due = now - timedelta_days(0.01)
        alarm_kinds = {
            "reminder": [Alarm.Kind.REMINDER],
            "your_turn": [Alarm.Kind.YOUR_TURN],
            "mixed": [Alarm.Kind.REMINDER, Alarm.Kind.YOUR_TURN],
        }[args.alarm_kind]
        Alarm.objects.bulk_create(
            [
                Alarm(game=game, user=plan[0], kind=alarm_kinds[i % len(alarm_kinds)], turn=game.turn, due_at=due)
                for i, (game, plan) in enumerate(zip(games, plans, strict=True))
            ],
            batch_size=2000,
        )
        print(
            "set up in %.1f s: %d games, %d distinct positions, %d moves"
            % (time.perf_counter() - started, len(games), len(positions), len(moves)),
            flush=True,
        )

        # 1. the pictures, drawn as after a move
        per_move: dict[str, list[float]] = {}
        cpu_per_move: dict[str, list[float]] = {}
        sample = games[: max(0, min(args.render, len(games)))]
        for game in sample:
            begun, cpu_begun = time.perf_counter(), time.process_time()
            drawn = pictures.mail_pictures_render(game_id=game.pk)
            per_move.setdefault(game.kind, []).append((time.perf_counter() - begun) * 1000)
            cpu_per_move.setdefault(game.kind, []).append((time.process_time() - cpu_begun) * 1000)
            assert drawn.rendered == 2, drawn
        stored = list(MailPicture.objects.filter(game__in=sample))
        for kind, times in sorted(per_move.items()):
            sizes_kind = [p.size for p in stored if p.game.kind == kind]
            print(
                "render per move:     %s: median %.0f ms (CPU %.0f ms), p95 %.0f ms (both players' pictures, "
                "%d moves; %.0f ms per picture); picture median %.1f KB, largest %.1f KB"
                % (
                    kind,
                    statistics.median(times),
                    statistics.median(cpu_per_move[kind]),
                    _percentile([round(t) for t in times], 0.95),
                    len(times),
                    statistics.median(p.render_ms for p in stored if p.game.kind == kind),
                    statistics.median(sizes_kind) / 1024,
                    max(sizes_kind) / 1024,
                )
            )
        if stored and not args.draw_at_send:
            by_kind: dict[str, list] = {}
            for picture in stored:
                by_kind.setdefault(picture.game.kind, []).append(picture)
            copies = []
            sampled = {game.pk for game in sample}
            turn_games = {}  # the turn sections of "your turn" mails, written as the pictures task does
            if args.alarm_kind != "reminder":
                game_moves: dict[int, list] = {}
                for move in Move.objects.select_related("seat__user").order_by("game_id", "ply"):
                    game_moves.setdefault(move.game_id, []).append(move)
                for game, (user, *_rest) in zip(games, plans, strict=True):
                    if game.pk not in sampled:
                        parts = turn_parts(game, user.pk, game_moves.get(game.pk, []))
                        turn_games[game.pk] = seal(json.dumps(parts.as_dict()), purpose="mail_turn")
            turn_models = {
                kind: next((p.sealed_turn for p in found if p.sealed_turn), "") for kind, found in by_kind.items()
            }
            for game, (user, *_rest) in zip(games, plans, strict=True):
                if game.pk in sampled:
                    continue
                for player in (user, host):
                    model = random.Random(game.pk * 2 + (player is host)).choice(by_kind[game.kind])
                    copies.append(
                        MailPicture(
                            game=game,
                            user=player,
                            ply=game.ply,
                            finished=False,
                            language=model.language,
                            png=bytes(model.png),
                            size=model.size,
                            render_ms=model.render_ms,
                            rendered_at=now,
                            # the player to move's picture holds their turn section: written for
                            # this game for a "your turn" run; for reminders (which never open it)
                            # a drawn game's, so that the rows read are as large as in production
                            sealed_turn=(turn_games.get(game.pk) or turn_models[game.kind]) if player is user else "",
                        )
                    )
            MailPicture.objects.bulk_create(copies, batch_size=500)
            storage = pictures.mail_pictures_storage()
            print(
                "picture storage:     %d pictures, %.1f MB, %.1f KB per running game"
                % (storage["pictures"], storage["bytes"] / 1e6, storage["bytes_per_running_game"] / 1024)
            )
        if args.draw_at_send:
            MailPicture.objects.all().delete()

        # 2. the sweep
        # The set-up's objects (every game, state and move of the fill) stay in this process and
        # its forked senders, which a worker never holds: frozen, so that the collector's full
        # passes do not walk them (they took a tenth of the senders' CPU time).
        gc.collect()
        gc.freeze()
        drawn_at_send = []
        real_store = pictures.mail_pictures_store

        def counted_store(**kwargs):
            result = real_store(**kwargs)
            drawn_at_send.append(result.rendered)
            return result

        pictures.mail_pictures_store = counted_store
        sent = batches = 0
        per_batch = []
        load_before = os.getloadavg()[0]
        started, cpu_started = time.perf_counter(), time.process_time()
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # every query of the sweep counted (Django keeps the last 9,000 only)
        connection.queries_limit = 10**7
        connection.queries_log = collections.deque(maxlen=connection.queries_limit)
        steps = _steps_timed() if args.breakdown else {}
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        with CaptureQueriesContext(connection) as queries:
            if args.senders == 1:
                while True:
                    before = len(queries.captured_queries)
                    result = services.alarms_send_due(now=now, limit=args.batch)
                    if result.claimed == 0:
                        break
                    batches += 1
                    sent += result.sent
                    per_batch.append(len(queries.captured_queries) - before)
            else:
                # As the drain task does with its helper: queue, then several senders drain the
                # outbox at once (skip-locked claims), here processes forked after the queueing.
                while services.alarms_queue_due(now=now, limit=args.batch).claimed:
                    batches += 1
                connections.close_all()
                readers = []
                for _ in range(args.senders):
                    read, write = os.pipe()
                    if os.fork() == 0:  # a sender
                        os.close(read)
                        code = 1
                        # the queries of the senders are not counted (nor logged, as in production)
                        connection.force_debug_cursor = args.debug
                        try:
                            os.write(write, b"%d" % outbox_send_due(now=now).sent)
                            code = 0
                        finally:
                            os._exit(code)
                    os.close(write)
                    readers.append(read)
                for read in readers:
                    sent += int(os.read(read, 64) or b"0")
                    os.close(read)
                for _ in readers:
                    os.wait()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu += (children.ru_utime - children_before.ru_utime) + (children.ru_stime - children_before.ru_stime)
        stop.set()
        sizes, sink_cpu = results.get(timeout=60)
        print(
            "reminders sent:      %d (SMTP server received %d, %.1f MB; its CPU time %.2f s, in all)"
            % (sent, len(sizes), sum(sizes) / 1e6, sink_cpu)
        )
        print(
            "time:                %.2f s (%.0f mails/s); CPU time of the senders %.2f s (%.0f mails per CPU s); "
            "load average %.1f before, %.1f after (%d cores)"
            % (
                elapsed,
                sent / elapsed if elapsed else 0,
                cpu,
                sent / cpu if cpu else 0,
                load_before,
                os.getloadavg()[0],
                os.cpu_count() or 0,
            )
        )
        print(
            "SQL queries:         %d in total (%.2f per mail), %d sweep calls of up to %d alarms, "
            "queries per call: %s"
            % (
                len(queries.captured_queries),
                len(queries.captured_queries) / max(sent, 1),
                batches + 1,
                args.batch,
                sorted(set(per_batch)),
            )
        )
        print("pictures drawn:      %d by the sweep itself" % sum(drawn_at_send))
        for name, (calls, seconds) in steps.items():
            print("  step %-28s %6d calls, %.3f ms CPU per mail" % (name, calls, seconds * 1000 / max(sent, 1)))
        if sizes:
            print(
                "mail size:           median %.1f KB, p95 %.1f KB, largest %.1f KB"
                % (statistics.median(sizes) / 1024, _percentile(sizes, 0.95) / 1024, max(sizes) / 1024)
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        stop.set()
        sink.join(10)


# (module, function name, label): the steps of the sweep timed by --breakdown, nested ones included
_STEPS = [
    ("correspondence.services", "alarms_queue_due", "queue alarms (outbox rows)"),
    ("accounts.outbox", "_send_rows", "send a batch (all that follows)"),
    ("accounts.outbox", "_claim", "claim a batch"),
    ("correspondence.mail", "alarms_load", "  load a batch (alarms_load)"),
    ("accounts.outbox", "_render", "  render (all of it)"),
    ("correspondence.mail", "user_email_build", "    build the message"),
    ("accounts.mail", "user_email_render", "      templates"),
    ("accounts.mail", "email_message", "      EmailMultiAlternatives"),
    ("accounts.outbox", "_smtp_send", "  send (MIME bytes and SMTP)"),
    ("accounts.outbox", "_Marks.done", "  mark done"),
]


def _steps_timed() -> dict[str, list]:
    import importlib

    totals: dict[str, list] = {}
    for module_name, name, label in _STEPS:
        module = importlib.import_module(module_name)
        owner: object = module
        *path, name = name.split(".")  # a method: "Class.method"
        for part in path:
            owner = getattr(owner, part)
        inner = getattr(owner, name)
        entry = totals.setdefault(label, [0, 0.0])

        def timed(*args, _inner=inner, _entry=entry, **kwargs):
            begun = time.process_time()
            try:
                return _inner(*args, **kwargs)
            finally:
                _entry[0] += 1
                _entry[1] += time.process_time() - begun

        setattr(owner, name, timed)
        if module_name == "correspondence.mail":  # the outbox calls the loader it registered
            from accounts import outbox

            for kind, registered in list(outbox._KINDS.items()):
                if registered.load is inner:
                    outbox._KINDS[kind] = outbox.MailKind(render=registered.render, load=timed)
    return totals


def timedelta_days(days: float):
    from datetime import timedelta

    return timedelta(days=days)


if __name__ == "__main__":
    main()
