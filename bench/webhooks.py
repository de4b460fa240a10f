"""Webhook deliveries against a flaky real receiver: deliveries, retries and duplicates.

    DATABASE_URL=postgres://... .venv/bin/python bench/webhooks.py [--players 20] [--moves 10]
        [--messages 3] [--fail 0.2] [--slow 0.02] [--seed 1]

Creates a scratch test database (test_<name>, dropped at the end), ``--players`` pairs of
players, each pair with an Onitama game of ``--moves`` decisions, ``--messages`` messages each
way, and a resignation; the first player of each pair has an endpoint for every event, on a real
HTTP receiver on 127.0.0.1 (the test-only setting WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS is turned
on for this process). The receiver checks every signature and timestamp against its own clock;
it answers 500 to a share ``--fail`` of the requests, and to a share ``--slow`` it accepts the
event but answers after the site's timeout (the site sees a failure, tries again, and the
receiver gets the event a second time: the at-least-once duplicate a receiver drops by id).

While it sets up, each change's nudge runs the tasks at once (eagerly, as after a commit). Then,
as beat's sweep and the delivery tasks would, it reads every endpoint's feed and sends what
is due, moving a simulated clock to the next due time, until nothing is waiting (the sweep is run
again at the end: it must make no new row). Prints: events in the feeds, delivery rows, POSTs,
retries, deliveries delivered, given up, events missing at the receiver, duplicates received
(the same event id accepted twice), bad signatures, and the wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from collections import Counter
from datetime import timedelta

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="pairs of players (one endpoint each)")
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--messages", type=int, default=3)
    parser.add_argument("--fail", type=float, default=0.2, help="share of requests answered 500")
    parser.add_argument("--slow", type=float, default=0.02, help="share accepted but answered after the timeout")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import hashlib
    import hmac
    import json
    import logging
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import django

    django.setup()
    for name in ("django.request", "celery", "maatasite.tasks"):
        logging.getLogger(name).setLevel(logging.WARNING)
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = True
    settings.API_EVENTS_SETTLE_SECONDS = 0
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.3
    settings.WEBHOOKS_DISABLE_AFTER_FAILURES = 1000  # measure the retries, not the switch-off

    from chat.services import message_create
    from games import services as games_services
    from games.events import events_for_user
    from tests.factories import make_user, play, start_game
    from webhooks import services
    from webhooks.models import Delivery, DeliveryStatus, Endpoint

    rng = random.Random(args.seed)
    clock = {"now": time.time()}
    secrets: dict[str, str] = {}
    lock = threading.Lock()
    received: list[tuple[str, bool]] = []  # (event id, accepted)
    bad_signatures = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            fields = dict(p.split("=", 1) for p in self.headers.get("Maatasite-Signature", "t=0,v1=").split(","))
            secret = secrets.get(self.path, "")
            mac = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
            ok = hmac.compare_digest(mac, fields.get("v1", "")) and abs(clock["now"] - int(fields["t"])) <= 300
            event_id = self.path + " " + json.loads(body)["id"]
            with lock:
                roll = rng.random()
            if not ok:
                bad_signatures[0] += 1
                code, slow = 401, False
            elif roll < args.fail:
                code, slow = 500, False
            else:
                code, slow = 204, roll < args.fail + args.slow
            with lock:
                received.append((event_id, code == 204))
            if slow:
                time.sleep(settings.WEBHOOKS_TIMEOUT_SECONDS * 3)
            try:
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:
                pass  # the site gave up waiting

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print("setting up %d pairs of players on %s ..." % (args.players, connection.vendor), flush=True)
        owners = {}
        for n in range(args.players):
            alice, bob = make_user("alice%d" % n), make_user("bob%d" % n)
            path = "/hook/%d" % n
            endpoint, secrets[path] = services.endpoint_create(
                user=alice,
                url="http://127.0.0.1:%d%s" % (port, path),
                events=["your_turn", "challenge_received", "game_over", "message"],
            )
            owners[alice.pk] = (alice, path)
            game = play(start_game(bob, alice, "onitama", {"cards": "base"}), args.moves)
            for k in range(args.messages):
                message_create(game_id=game.pk, author=bob, text="bob %d" % k)
                message_create(game_id=game.pk, author=alice, text="alice %d" % k)
            if game.status == "active":
                games_services.game_resign(game_id=game.pk, user=bob)
        wanted = {"your_turn", "challenge_received", "game_over", "message"}
        feed_ids = {
            path + " ev_" + e.cursor.text()
            for user, path in owners.values()
            for e in events_for_user(user=user, after=None, limit=1000).events
            if e.kind in wanted
        }
        started = time.monotonic()
        now = timezone.now()
        for endpoint_id in Endpoint.objects.values_list("pk", flat=True):
            services.endpoint_sync(endpoint_id=endpoint_id, now=now)
        rounds = 0
        while True:
            due = services.deliveries_due(now=now, limit=100_000)
            for delivery_id in due:
                services.delivery_send(delivery_id=delivery_id, now=now)
            waiting = Delivery.objects.filter(status=DeliveryStatus.PENDING).order_by("due_at").first()
            if waiting is None:
                break
            rounds += 1
            now = max(now, waiting.due_at) + timedelta(seconds=1)  # the simulated clock moves on
            clock["now"] = now.timestamp()
        again = sum(
            len(services.endpoint_sync(endpoint_id=pk, now=now)) for pk in Endpoint.objects.values_list("pk", flat=True)
        )
        elapsed = time.monotonic() - started
        rows = Delivery.objects.count()
        statuses = Counter(Delivery.objects.values_list("status", flat=True))
        attempts = sum(Delivery.objects.values_list("attempts", flat=True))
        accepted = Counter(event_id for event_id, ok in received if ok)
        rows_ids = {
            owners[d.endpoint.user_id][1] + " " + d.event_id for d in Delivery.objects.select_related("endpoint")
        }
        print("events in the feeds (chosen kinds): %d" % len(feed_ids))
        print("delivery rows: %d (after a second sweep: %d new)" % (rows, again))
        print("POSTs sent: %d (%d rounds of the simulated clock)" % (len(received), rounds))
        print("retries (tries after the first): %d" % (attempts - rows))
        print("delivered: %d, given up: %d" % (statuses["delivered"], statuses["failed"]))
        print("feed events without a delivery row: %d" % len(feed_ids - rows_ids))
        print("events never accepted by the receiver: %d" % len(feed_ids - set(accepted)))
        print("duplicates received (same event id accepted again): %d" % sum(c - 1 for c in accepted.values()))
        print("bad signatures: %d" % bad_signatures[0])
        print("wall time of the deliveries: %.1f s" % elapsed)
    finally:
        server.shutdown()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
