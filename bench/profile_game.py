"""Where the time of a game page and of a move goes: cProfile (or pyinstrument) over in-process requests.

    .venv/bin/python bench/profile_game.py [--requests 50] [--top 25] [--kind onitama|maatatahay|both]
                                          [--queries] [--templates] [--cold] [--lobby GAMES] [--floor]
                                          [--profiler cprofile|pyinstrument]
                                          [--database postgres://postgres@127.0.0.1:5432/maatasite_bench]

Sets up its own database (created if missing, migrated), makes a game per kind between two
new players and, with Django's test client in this process (the whole middleware stack,
no network), as production runs (DEBUG off, Redis cache and broker; ``--debug`` as
locally), profiles ``--requests`` requests of each of: the game page GET of the player
to move, the move POST (form; each plays one of the legal moves, a finished game is
replaced), the API's game detail and the API's move. Prints, per request kind, the
profile's top entries by own time and by cumulative time, and the queries per request.
``--profiler pyinstrument`` samples the same requests with pyinstrument instead (in the dev
lock): its top functions by own time, as shares of the total, then its call tree down to
frames of at least 2 % (sampling inflates Python's share less than cProfile's tracing).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import time

from _common import broker_purged, django_migrated, ensure_database, site_options, site_prepared

PROJECT_CODE = r"/(accounts|api|chat|correspondence|engine|fairplay|games|ladder|maatasite|ops|ratings)/"
OPTIONS = {"onitama": {"cards": "base"}, "maatatahay": {"variant": "first"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--profiler", default="cprofile", choices=["cprofile", "pyinstrument"])
    parser.add_argument("--kind", default="both", choices=["onitama", "maatatahay", "both"])
    parser.add_argument(
        "--database", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maatasite_bench")
    )
    parser.add_argument("--queries", action="store_true", help="also print the SQL of the last request of each kind")
    parser.add_argument(
        "--templates",
        action="store_true",
        help="also print each template's render time per request (inclusive of what it includes)",
    )
    parser.add_argument(
        "--lobby",
        type=int,
        default=0,
        metavar="GAMES",
        help="profile the lobby of a player with this many games (bench/pages.py's lobby player) instead",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="each game page GET shows a position nobody has seen (a move is played before it, unprofiled), "
        "as in bench/pages.py, where the page follows a move",
    )
    parser.add_argument(
        "--floor", action="store_true", help="also profile the trivial view and the API's ping, the floor of the others"
    )
    site_options(parser)
    args = parser.parse_args()
    env = site_prepared(args)
    ensure_database(args.database)
    django_migrated()

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from api import services as api_services
    from engine import get_game
    from games import services
    from games.models import Game
    from games.selectors import game_for_viewer

    run = os.urandom(3).hex()
    users = get_user_model().objects
    first = users.create_user("p%sa" % run, "p%sa@example.org" % run, None)
    second = users.create_user("p%sb" % run, "p%sb@example.org" % run, None)
    tokens = {u.pk: api_services.token_create(user=u, name="p", scopes=["read", "play"])[1] for u in (first, second)}
    clients = {}
    for user in (first, second):
        clients[user.pk] = Client(HTTP_HOST="127.0.0.1")
        clients[user.pk].force_login(user)
    # one client for the API (a new test client loads the middleware again: whitenoise scans the files)
    api_client = Client(HTTP_HOST="127.0.0.1")
    chooser = random.Random(1)
    kinds = ["onitama", "maatatahay"] if args.kind == "both" else [args.kind]

    def fresh(kind: str) -> Game:
        seats = dict(zip(get_game(kind).players, (first, second), strict=True))
        return services.game_create(kind=kind, seats=seats, options=OPTIONS[kind], days_per_move=14)

    def live(kind: str, game: Game | None) -> Game:
        if game is not None:
            game.refresh_from_db()
        return game if game is not None and game.is_active else fresh(kind)

    def legal(game: Game) -> list[str]:
        page = game_for_viewer(game_id=game.pk, user=game.to_move_user)
        return [m.text for m in page.legal_moves]

    template_times: dict[str, float] = {}
    if args.templates:
        from django.template import base as template_base

        plain_render = template_base.Template._render

        def timed_render(self, context):  # noqa: ANN001, ANN202
            start = time.perf_counter()
            try:
                return plain_render(self, context)
            finally:
                name = self.origin.template_name if self.origin else "?"
                template_times[name] = template_times.get(name, 0.0) + time.perf_counter() - start

        template_base.Template._render = timed_render  # type: ignore[method-assign]

    def profiled(name: str, step) -> None:
        for _ in range(3):  # warm caches and imports
            step()()
        profile = cProfile.Profile()
        sampler = None
        if args.profiler == "pyinstrument":
            from pyinstrument import Profiler

            sampler = Profiler(interval=0.0005)  # start and stop add to one session
        queries = 0
        last_sql: list[str] = []
        template_times.clear()
        for _ in range(args.requests):
            request = step()  # the set-up of one request, not profiled
            with CaptureQueriesContext(connection) as captured:
                if sampler is not None:
                    sampler.start()
                    request()
                    sampler.stop()
                else:
                    profile.enable()
                    request()
                    profile.disable()
            queries += len(captured)
            last_sql = [query["sql"] for query in captured.captured_queries]
        rendered = sorted(template_times.items(), key=lambda item: -item[1])
        template_times.clear()
        plain = []  # the same requests without the profiler: what they cost in this process
        cpu = []  # and this process's CPU time alone (not waiting on the database, nor other processes)
        for _ in range(args.requests):
            request = step()
            start, start_cpu = time.perf_counter(), time.process_time()
            request()
            plain.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        rendered_plain = dict(template_times)
        template_times.clear()
        if sampler is not None:
            session = sampler.last_session
            total = session.duration if session is not None else 0.0
        else:
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out)
            total = stats.total_tt  # type: ignore[attr-defined]
        print("=" * 100)
        print(
            "%s: %d requests, %.1f ms per request profiled, median %.1f ms unprofiled (CPU %.1f ms), "
            "%.1f queries per request"
            % (
                name,
                args.requests,
                total * 1000 / args.requests,
                statistics.median(plain) * 1000,
                statistics.median(cpu) * 1000,
                queries / args.requests,
            )
        )
        if sampler is not None:
            flat = sampler.output_text(flat=True, time="percent_of_total").strip().splitlines()
            body = [line for line in flat if "%" in line]
            print("pyinstrument, top functions by own time (share of the requests' time):")
            print("\n".join(body[: args.top]))
            print("pyinstrument, call tree (frames of at least 2 %):")
            tree = sampler.output_text(time="percent_of_total", processor_options={"filter_threshold": 0.02})
            print("\n".join(line for line in tree.splitlines() if "%" in line))
        else:
            stats.sort_stats("tottime").print_stats(args.top)
            stats.sort_stats("cumulative").print_stats(args.top)
            # the site's own functions (not Django's, DRF's or the driver's), by cumulative time
            stats.sort_stats("cumulative").print_stats(PROJECT_CODE, args.top)
            text = out.getvalue()
            print("\n".join(line for line in text.splitlines() if line.strip() and "function calls" not in line))
        if rendered:
            print(
                "templates, ms per request, profiled and unprofiled (inclusive of what each includes and its queries):"
            )
            for template_name, seconds in rendered[:25]:
                print(
                    "  %7.2f  %7.2f  %s"
                    % (
                        seconds * 1000 / args.requests,
                        rendered_plain.get(template_name, 0.0) * 1000 / args.requests,
                        template_name,
                    )
                )
        if args.queries:
            print("the queries of the last request:")
            for number, sql in enumerate(last_sql, 1):
                print("  %2d. %s" % (number, sql[:400]))

    if args.floor:  # what every request pays: the trivial view, and the API's trivial endpoint
        floor_client = Client(HTTP_HOST="127.0.0.1")

        def trivial(path: str):
            def step():
                def request() -> None:
                    response = floor_client.get(path)
                    assert response.status_code == 200, response.status_code

                return request

            return step

        profiled("floor GET /floor/", trivial("/floor/"))
        profiled("ping GET /api/v1/ping/", trivial("/api/v1/ping/"))

    if args.lobby:
        from pages import lobby_player  # bench/pages.py: the same player, kept between runs

        player = lobby_player(args.lobby)
        lobby_client = Client(HTTP_HOST="127.0.0.1")
        lobby_client.force_login(player)

        def lobby_get():
            def request() -> None:
                response = lobby_client.get("/lobby/")
                assert response.status_code == 200, response.status_code

            return request

        profiled("lobby GET, %d games" % args.lobby, lobby_get)
        kinds = []
    holders: dict[str, Game | None] = {}
    for kind in kinds:
        holders[kind] = None

        def page_get(kind: str = kind):
            game = holders[kind] = live(kind, holders[kind])
            if args.cold:  # a new position, as after the opponent's move
                services.move_submit(
                    game_id=game.pk,
                    user=game.to_move_user,
                    move_text=chooser.choice(legal(game)),
                    expected_ply=game.ply,
                )
                game = holders[kind] = live(kind, game)
            client = clients[game.to_move_user_id]

            def request() -> None:
                response = client.get("/games/%d/" % game.pk)
                assert response.status_code == 200, response.status_code

            return request

        def move_post(kind: str = kind):
            game = holders[kind] = live(kind, holders[kind])
            client = clients[game.to_move_user_id]
            form = {"expected_ply": game.ply, "move": chooser.choice(legal(game))}

            def request() -> None:
                response = client.post("/games/%d/move/" % game.pk, form)
                assert response.status_code == 302, response.status_code

            return request

        def api_get(kind: str = kind):
            game = holders[kind] = live(kind, holders[kind])
            client, token = api_client, tokens[game.to_move_user_id]

            def request() -> None:
                response = client.get("/api/v1/games/%d/" % game.pk, HTTP_AUTHORIZATION="Bearer " + token)
                assert response.status_code == 200, response.status_code

            return request

        def api_move(kind: str = kind):
            game = holders[kind] = live(kind, holders[kind])
            client, token = api_client, tokens[game.to_move_user_id]
            body = {"move": chooser.choice(legal(game)), "ply": game.ply}

            def request() -> None:
                response = client.post(
                    "/api/v1/games/%d/moves/" % game.pk,
                    body,
                    content_type="application/json",
                    HTTP_AUTHORIZATION="Bearer " + token,
                    HTTP_IDEMPOTENCY_KEY=os.urandom(8).hex(),
                )
                assert response.status_code == 201, (response.status_code, response.content[:300])

            return request

        def api_get_304(kind: str = kind):
            game = holders[kind] = live(kind, holders[kind])
            client, token = api_client, tokens[game.to_move_user_id]
            path = "/api/v1/games/%d/" % game.pk
            etag = client.get(path, HTTP_AUTHORIZATION="Bearer " + token).headers["ETag"]

            def request() -> None:
                response = client.get(path, HTTP_AUTHORIZATION="Bearer " + token, HTTP_IF_NONE_MATCH=etag)
                assert response.status_code == 304, response.status_code

            return request

        profiled("game page GET, %s" % kind, page_get)
        profiled("move POST (form), %s" % kind, move_post)
        profiled("API game detail, %s" % kind, api_get)
        profiled("API game detail, 304 (ETag), %s" % kind, api_get_304)
        profiled("API move, %s" % kind, api_move)
    if not args.debug:
        print("tasks published to the broker and dropped unrun: %d keys" % broker_purged(env))


if __name__ == "__main__":
    main()
