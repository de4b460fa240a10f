"""A player's archive (games.archive) at 10,000 games: the history page and the API's
archive endpoint, per filter, in-process against PostgreSQL.

    .venv/bin/python bench/archive.py [--games 10000] [--others 50000] [--repeat 5]
                                      [--database postgres://postgres@127.0.0.1:5432/maatasite_bench_archive]

Sets up its own database (created if missing, migrated) and fills it once, through the
models in bulk (bulk_create), with ``--games`` finished games of one player, ``archivist``:
both games and every variant, all four results, 20 opponents, half of them rated, finished
over the last ``--games`` hours, and 100 in one tournament; and ``--others`` games
between the other players around them. Then, for each filter, requests
``/history/archivist/?...`` and ``/api/v1/players/archivist/archive/?...`` with Django's test
client (one warm-up, then ``--repeat`` timed requests) and prints the database queries of
one request and the median and slowest time (ms). Last, PostgreSQL's EXPLAIN ANALYZE of
the main queries (the page's ids, the API's page) for some filters. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common  # noqa: E402

PLAYER = "archivist"
FILTERS = [
    ("no filter", ""),
    ("page 100", "page=100"),
    ("result=won", "result=won"),
    ("result=lost", "result=lost"),
    ("opponent=rival1 (prefix)", "opponent=RIVAL1"),
    ("kind+variant", "kind=maatatahay&variant=standard"),
    ("finished in a month", "finished_from={month_ago}&finished_to={today}"),
    ("rated=no", "rated=no"),
    ("tournament", "tournament={tournament}"),
    ("all at once", "kind=onitama&variant=base&result=won&opponent=rival&rated=yes&finished_from=2000-01-01"),
    ("rare: no match", "opponent=nobody"),
]


def fill(count: int, others_count: int) -> int:
    """The archivist and their games (once: kept between runs); the tournament's id."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Game, GameKind, GameStatus, Seat
    from tournaments.models import Pairing, Participant, Round, Tournament

    users = get_user_model().objects
    player = users.filter(username=PLAYER).first()
    if player is not None and Seat.objects.filter(user=player).count() >= count:
        return Tournament.objects.get(name="Archive Cup").pk
    started = time.perf_counter()
    player = player or users.create_user(username=PLAYER, email="archivist@example.org", password="x" * 16)
    rivals = [
        users.get_or_create(username="rival%d" % n, defaults={"email": "rival%d@example.org" % n})[0] for n in range(20)
    ]
    now = timezone.now()
    variants = [
        (GameKind.ONITAMA, {"cards": "base"}, ("red", "blue")),
        (GameKind.ONITAMA, {"cards": "senseis_path"}, ("red", "blue")),
        (GameKind.ONITAMA, {"cards": "mixed"}, ("red", "blue")),
        (GameKind.MAATATAHAY, {"variant": "first"}, ("balan", "wazu")),
        (GameKind.MAATATAHAY, {"variant": "standard"}, ("balan", "wazu")),
    ]

    def archivist_games(numbers: range) -> list[Game]:
        games, sides = [], []
        for n in numbers:
            kind, options, pair = variants[n % len(variants)]
            aborted = n % 20 == 0
            winner = "" if aborted or n % 7 == 0 else pair[n % 2]
            games.append(
                Game(
                    kind=kind,
                    options=options,
                    status=GameStatus.ABORTED if aborted else GameStatus.FINISHED,
                    rated=n % 2 == 0,
                    sealed_state="",
                    sealed_seed="",
                    seed_commitment="0" * 64,
                    revealed_salt="0" * 32,
                    revealed_seed=str(n),
                    winner_side=winner,
                    result_reason="aborted" if aborted else ("agreement" if not winner else "resign"),
                    finished_at=now - timedelta(hours=n),
                )
            )
            sides.append(pair)
        games = Game.objects.bulk_create(games, batch_size=2000)
        seats = []
        for n, game, pair in zip(numbers, games, sides, strict=True):
            mine = (n // 3) % 2
            seats.append(Seat(game=game, side=pair[mine], position=mine, user=player))
            seats.append(Seat(game=game, side=pair[1 - mine], position=1 - mine, user=rivals[n % len(rivals)]))
        Seat.objects.bulk_create(seats, batch_size=4000)
        return games

    def other_games(numbers: range) -> None:
        """Other players' games around the archivist's, as on a site with many players."""
        others = Game.objects.bulk_create(
            [
                Game(
                    kind=GameKind.ONITAMA,
                    options={"cards": "base"},
                    status=GameStatus.FINISHED,
                    sealed_state="",
                    sealed_seed="",
                    seed_commitment="0" * 64,
                    revealed_seed=str(n),
                    winner_side="red",
                    result_reason="resign",
                    finished_at=now - timedelta(minutes=n),
                )
                for n in numbers
            ],
            batch_size=2000,
        )
        Seat.objects.bulk_create(
            [
                seat
                for n, game in zip(numbers, others, strict=True)
                for seat in (
                    Seat(game=game, side="red", position=0, user=rivals[n % 20]),
                    Seat(game=game, side="blue", position=1, user=rivals[(n % 20 + 1 + (n // 20) % 19) % 20]),
                )
            ],
            batch_size=4000,
        )

    # in ten slices, so that the archivist's games are spread among the others' (ids and dates)
    games: list[Game] = []
    for part in range(10):
        other_games(range(part * others_count // 10, (part + 1) * others_count // 10))
        games += archivist_games(range(part * count // 10, (part + 1) * count // 10))
    cup = Tournament.objects.create(name="Archive Cup")
    first = Participant.objects.create(tournament=cup, user=player, seed=1)
    seconds = {r.pk: Participant.objects.create(tournament=cup, user=r, seed=i + 2) for i, r in enumerate(rivals)}
    round_ = Round.objects.create(tournament=cup, number=1)
    Pairing.objects.bulk_create(
        Pairing(
            tournament=cup,
            round=round_,
            board=b + 1,
            first=first,
            second=seconds[rivals[(b * 50) % 20].pk],
            game=games[b * 50],
        )
        for b in range(min(100, count // 50))
    )
    from django.db import connection

    with connection.cursor() as cursor:  # fresh statistics for the planner, as autovacuum would give
        cursor.execute("ANALYZE games_game, games_seat, accounts_user, tournaments_pairing")
    print("filled %d games and %d of others in %.1f s" % (count, others_count, time.perf_counter() - started))
    return cup.pk


def measure(client, path: str, repeat: int) -> tuple[int, float, float, int, float]:
    """(queries, p50 ms, max ms, status, ms spent in SQL of the counted request)."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    client.get(path)  # warm-up
    reset_queries()  # the log keeps 9,000 queries at most: the fill's would hide these
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    sql_ms = 1000 * sum(float(q["time"]) for q in queries.captured_queries)
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(path)
        timings.append(1000 * (time.perf_counter() - started))
    return len(queries), statistics.median(timings), max(timings), response.status_code, sql_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=50_000, help="games between other players")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/maatasite_bench_archive")
    args = parser.parse_args()
    _common.ensure_database(args.database)
    _common.site_environment(args.database)
    _common.django_migrated()

    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from games.archive import games_archive, games_archive_shown
    from games.forms import ArchiveFilterForm

    setup_test_environment()  # the test client's host is allowed
    tournament = fill(args.games, args.others)
    today = timezone.localdate()
    values = {"tournament": tournament, "today": today, "month_ago": today - timedelta(days=30)}
    client = Client()
    from django.contrib.auth import get_user_model

    player = get_user_model().objects.get(username=PLAYER)
    print("archive of %s: %d games; %d timed requests each" % (PLAYER, args.games, args.repeat))
    print("times in ms; sql: the time of the counted request's queries; rows: the games the filter finds")
    head = ("filter", "page q", "p50", "max", "sql", "api q", "p50", "max", "sql", "rows")
    print("%-26s %6s %7s %7s %6s %6s %7s %7s %6s %6s" % head)
    for name, query in FILTERS:
        query = query.format(**values)
        page = measure(client, "/history/%s/?%s" % (PLAYER, query), args.repeat)
        api = measure(client, "/api/v1/players/%s/archive/?%s" % (PLAYER, query), args.repeat)
        form = ArchiveFilterForm(dict(p.split("=", 1) for p in query.split("&") if p and not p.startswith("page")))
        form.is_valid()
        rows = games_archive(player=player, filters=form.archive_filters()).count()
        assert page[3] == api[3] == 200, (page[3], api[3])  # a broken request's time would mean nothing
        print(
            "%-26s %6d %7.1f %7.1f %6.1f %6d %7.1f %7.1f %6.1f %6d"
            % (name, page[0], page[1], page[2], page[4], api[0], api[1], api[2], api[4], rows)
        )
    for name, query in (FILTERS[0], FILTERS[4], FILTERS[9]):
        form = ArchiveFilterForm(dict(p.split("=", 1) for p in query.split("&") if p))
        form.is_valid()
        filters = form.archive_filters()
        mains = {
            "the page's ids (games_archive_page)": games_archive(player=player, filters=filters).values_list(
                "pk", flat=True
            )[:50],
            "the API's page (games_archive_shown, by -id)": games_archive_shown(
                player=player, filters=filters
            ).order_by("-pk")[:21],
        }
        for what, qs in mains.items():
            sql, params = qs.query.sql_with_params()
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
                plan = [row[0] for row in cursor.fetchall()]
            print("\nEXPLAIN ANALYZE, %s, %s:" % (what, name))
            print("\n".join("  " + line for line in plan))


if __name__ == "__main__":
    main()
