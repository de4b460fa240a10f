"""Voiding an early rated game: how long the replay of a kind's rating history takes.

    DATABASE_URL=postgres://... .venv/bin/python bench/ratings_replay.py [--players 200] [--games 5000]

Creates a scratch test database (test_<name>, dropped at the end), P players and G
finished rated Onitama games between random pairs, one hour apart, rates them one by
one as the live game_finished path does (ratings.services.rating_record_result), then
voids the game at 10 %, 50 % and 90 % of the history through the staff service
(ops.services.game_void), which replays every later result. Prints the live rate,
each void's time, how many games it rated again and its SQL queries. Measured, never
asserted. Without DATABASE_URL it runs on SQLite in memory.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services as games_services
    from games.models import Game, GameStatus, Seat
    from ops import services as ops_services
    from ratings.models import RatingChange
    from ratings.services import rating_record_result

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(args.seed)
        User = get_user_model()
        print(
            "setting up %d players and %d rated games on %s ..." % (args.players, args.games, connection.vendor),
            flush=True,
        )
        User.objects.bulk_create(
            [
                User(username="p%05d" % i, email="p%05d@example.org" % i, is_active=True, email_confirmed=True)
                for i in range(args.players)
            ]
        )
        users = list(User.objects.order_by("pk"))
        staff = User.objects.create(username="staffer", is_staff=True, is_active=True)
        template = games_services.game_create(
            kind="onitama", seats={"red": users[0], "blue": users[1]}, options={"cards": "base"}, rated=True
        )
        start = timezone.now() - timedelta(hours=args.games + 1)
        games = Game.objects.bulk_create(
            [
                Game(
                    kind="onitama",
                    options=template.options,
                    sealed_state=template.sealed_state,
                    rated=True,
                    data_version=template.data_version,
                    seed_commitment=template.seed_commitment,
                    sealed_seed=template.sealed_seed,
                    status=GameStatus.FINISHED,
                    winner_side=rng.choice(["red", "blue", ""]),
                    result_reason="master_captured",
                    finished_at=start + timedelta(hours=i),
                )
                for i in range(args.games)
            ],
            batch_size=1000,
        )
        seats = []
        for game in games:
            red, blue = rng.sample(users, 2)
            seats += [
                Seat(game=game, side="red", position=0, user=red),
                Seat(game=game, side="blue", position=1, user=blue),
            ]
        Seat.objects.bulk_create(seats, batch_size=2000)

        started = time.perf_counter()
        for game in Game.objects.filter(pk__in=[g.pk for g in games]).order_by("finished_at"):
            rating_record_result(game=game)
        live = time.perf_counter() - started
        print(
            "live rating:   %d games in %.1f s (%.2f ms a game, %d change rows)"
            % (len(games), live, 1000 * live / len(games), RatingChange.objects.count())
        )

        for share in (0.9, 0.5, 0.1):
            game = games[int(share * (len(games) - 1))]
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                ops_services.game_void(game_id=game.pk, staff=staff, reason="benchmark")
                elapsed = time.perf_counter() - started
            later = sum(1 for g in games if g.finished_at > game.finished_at)
            print(
                "void at %3d %%: %.2f s, %d later games rated again (%.2f ms each), %d SQL queries"
                % (round(share * 100), elapsed, later, 1000 * elapsed / max(later, 1), len(queries.captured_queries))
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
