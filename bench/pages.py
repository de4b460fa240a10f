"""The site's own pages under concurrent players, against PostgreSQL and gunicorn.

    .venv/bin/python bench/pages.py [--clients 4] [--moves 50] [--workers 2] [--seconds 120]
                                   [--lobby-games 10,100,1000]
                                   [--database postgres://postgres@127.0.0.1:5432/maatasite_bench]

Sets up its own database (created if missing, migrated), serves the site with gunicorn
on 127.0.0.1 (``--workers`` uvicorn workers, as in the Procfile), logs two players per client in through the
login page and runs, each with ``--clients`` threads (bounded loops: ``--moves`` moves
per client, at most ``--seconds`` per phase, fresh loopback connections):

* ``floor``: ``GET /floor/``, the trivial view (ops.views.floor: constant JSON through the
  middleware, no DRF, throttle, database or session): the server's floor, and every
  figure's ratio is to it;
* ``ping``: ``GET /api/v1/ping/``, the API's trivial endpoint (DRF, authentication, throttles);
* ``move POST (form)``: what a player's browser does, for Onitama and for Maatatahay:
  read the game page (``game page GET``), choose one of the legal moves (read from the
  API's game detail with the player's token, untimed, so the bench does not depend on
  the board's markup) and post the page's move form (CSRF token, ``expected_ply``);
  each client plays both sides of games of its own (a finished game is replaced), so
  clients never race each other. The POST is timed up to its redirect (the move is
  then committed);
* ``game status, 304``: the poll of an open game page (``status.json``) with the
  ``If-None-Match`` of its last answer;
* ``lobby GET``: the lobby of a player with each of ``--lobby-games`` games.

Prints p50, p99 and mean latency (ms) and throughput (completed operations per wall
second of the phase; in a move phase each client reads a page before every post).
Ends with a table of every phase's p50 beside its ratio to the floor.
Then the number of database queries of the lobby page for a player with each of
``--lobby-games`` games, counted in-process with CaptureQueriesContext against the same
database: it must not grow with the number of games. By default the site runs as in
production (DEBUG off, Redis cache): tasks are published to a Redis broker that no worker
drains (emptied at the end) and no mail is sent, so the numbers are the web tier's
(``--debug``: DEBUG on, tasks run in-process). Nothing here is asserted about time.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookies import SimpleCookie

from _common import (
    FLOOR_NAME,
    FLOOR_PATH,
    broker_purged,
    django_migrated,
    ensure_database,
    gunicorn,
    report,
    run_phase,
    site_mode,
    site_options,
    site_prepared,
    summary,
)

PASSWORD = "bench-password-123"
OPTIONS = {"onitama": {"cards": "base"}, "maatatahay": {"variant": "first"}}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a redirect is an answer to time, not to follow
        return None


class Session:
    """One browser: its own cookies, no redirects followed, a new connection per request."""

    def __init__(self, base: str, cookies: dict[str, str] | None = None) -> None:
        self.base = base
        self.cookies = dict(cookies or {})
        self.opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str, float]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        if self.cookies:
            request.add_header("Cookie", "; ".join("%s=%s" % item for item in self.cookies.items()))
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=60) as response:
                raw, status, headers = response.read(), response.status, response.headers
        except urllib.error.HTTPError as error:
            raw, status, headers = error.read(), error.code, error.headers
        elapsed = time.perf_counter() - start
        for header in headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        # names in lower case: HTTP's are case-insensitive, and uvicorn sends them so
        return status, {name.lower(): value for name, value in headers.items()}, raw.decode("utf-8", "replace"), elapsed

    def log_in(self, username: str) -> None:
        status, _headers, page, _ = self.request("GET", "/accounts/login/")
        status, headers, page, _ = self.request(
            "POST",
            "/accounts/login/",
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": CSRF.search(page).group(1)},
        )
        if status != 302:
            raise SystemExit("%s could not log in (HTTP %d)" % (username, status))


def bench_players(clients: int) -> tuple[list[tuple], dict[str, str]]:
    """Per client, two players with the bench password (new ones each run), and each
    player's API token (read scope: the bench reads the legal moves from the API)."""
    from django.contrib.auth import get_user_model

    from api import services as api_services

    run = os.urandom(3).hex()
    users = get_user_model().objects
    players = [
        tuple(
            users.create_user("h%s%s%d" % (run, side, index), "h%s%s%d@example.org" % (run, side, index), PASSWORD)
            for side in ("a", "b")
        )
        for index in range(clients)
    ]
    tokens = {
        user.username: api_services.token_create(user=user, name="bench", scopes=["read"])[1]
        for pair in players
        for user in pair
    }
    return players, tokens


def api_game(base: str, game_id: int, token: str) -> dict:
    """The API's game detail as ``token``'s player sees it (legal moves for the player to move)."""
    request = urllib.request.Request(
        base + "/api/v1/games/%d/" % game_id,
        headers={"Authorization": "Bearer " + token, "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def new_game(kind: str, first, second) -> tuple[int, dict]:
    """A fresh game of ``kind`` between the two players: its id and its users by side."""
    from engine import get_game
    from games import services

    sides = get_game(kind).players
    seats = dict(zip(sides, (first, second), strict=True))
    game = services.game_create(kind=kind, seats=seats, options=OPTIONS[kind], days_per_move=14)
    return game.pk, {side: user.username for side, user in seats.items()}


def lobby_player(games: int):
    """The player ``lobby<games>`` with ``games`` games, each against a player of its own:
    Onitama and Maatatahay in turn, every tenth finished (so the history shows too).
    Kept between runs; only missing games are made."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game

    users = get_user_model().objects
    name = "lobby%d" % games
    player = users.filter(username=name).first() or users.create_user(name, name + "@example.org", None)
    for index in range(Game.objects.filter(seats__user=player).count(), games):
        opponent_name = "%s_o%d" % (name, index)
        opponent = users.filter(username=opponent_name).first() or users.create_user(
            opponent_name, opponent_name + "@example.org", None
        )
        kind = ("onitama", "maatatahay")[index % 2]
        game_id, _sides = new_game(kind, player, opponent)
        if index % 10 == 9:
            services.game_resign(game_id=game_id, user=opponent)
    return player


def lobby_query_count(player) -> tuple[int, int]:
    """Queries of one lobby page for ``player`` (after a first request warms caches), and its game rows."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(player)
    client.get("/lobby/")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/lobby/")
    if response.status_code != 200:
        raise SystemExit("the lobby answered HTTP %d" % response.status_code)
    return len(queries), response.content.count(b'class="game-row')


def session_cookie(player) -> dict[str, str]:
    from django.conf import settings
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(player)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--moves", type=int, default=50, help="moves per client and game kind")
    parser.add_argument("--seconds", type=float, default=120.0, help="at most this long per phase")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument(
        "--lobby-games", default="10,100,1000", help="comma-separated numbers of games of the lobby players"
    )
    parser.add_argument(
        "--database", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maatasite_bench")
    )
    site_options(parser)
    args = parser.parse_args()
    lobby_sizes = [int(n) for n in args.lobby_games.split(",") if n.strip()]

    env = site_prepared(args)
    ensure_database(args.database)
    django_migrated()
    from django.db import connection

    players, tokens = bench_players(args.clients)
    lobby_players = [(size, lobby_player(size)) for size in lobby_sizes]

    with gunicorn(env, args.workers) as base:
        print(
            "bench/pages.py: %d clients x %d moves per game kind, gunicorn %d uvicorn workers, PostgreSQL, %s, %d cores"
            % (
                args.clients,
                args.moves,
                args.workers,
                site_mode(args),
                os.cpu_count() or 0,
            )
        )
        sessions = []
        for first, second in players:
            pair = {}
            for user in (first, second):
                pair[user.username] = Session(base)
                pair[user.username].log_in(user.username)
            sessions.append(pair)

        def trivial(path: str):
            def work(index: int, out: list[float]) -> None:
                client = Session(base)
                for _ in range(args.moves):
                    status, _headers, _body, elapsed = client.request("GET", path)
                    assert status == 200, status
                    out.append(elapsed)

            return work

        def moves(kind: str, page_reads: list[float]):
            def work(index: int, out: list[float]) -> None:
                chooser = random.Random(index)
                first, second = players[index]
                mine = sessions[index]
                any_session = mine[first.username]
                deadline = time.monotonic() + args.seconds
                game_id = None
                try:
                    for _ in range(args.moves):
                        if time.monotonic() > deadline:
                            break
                        state = {"status": "finished"}
                        for _attempt in range(3):
                            if game_id is None:
                                game_id, user_by_side = new_game(kind, first, second)
                            _status, _h, body, _ = any_session.request("GET", "/games/%d/status.json" % game_id)
                            state = json.loads(body)
                            if state["status"] == "active":
                                break
                            game_id = None
                        assert state["status"] == "active", state
                        mover = user_by_side[state["to_move"]]
                        session = mine[mover]
                        status, _h, page, elapsed = session.request("GET", "/games/%d/" % game_id)
                        page_reads.append(elapsed)
                        csrf = CSRF.search(page)
                        assert status == 200 and csrf and 'id="move-form"' in page, "no move form for the mover"
                        detail = api_game(base, game_id, tokens[mover])
                        legal = [move["text"] for move in detail["legal_moves"]]
                        assert legal and detail["ply"] == state["ply"], "no legal moves from the API"
                        status, headers, body, elapsed = session.request(
                            "POST",
                            "/games/%d/move/" % game_id,
                            {
                                "csrfmiddlewaretoken": html.unescape(csrf.group(1)),
                                "expected_ply": str(detail["ply"]),
                                "move": chooser.choice(legal),
                            },
                        )
                        assert status == 302 and "/games/%d/" % game_id in headers.get("location", ""), (
                            status,
                            body[:500],
                        )
                        out.append(elapsed)
                finally:
                    connection.close()  # this thread's own connection (it made games)

            return work

        def status_304(index: int, out: list[float]) -> None:
            first, second = players[index]
            game_id, _sides = new_game("onitama", first, second)
            connection.close()
            mine = sessions[index][first.username]
            status, headers, _body, _ = mine.request("GET", "/games/%d/status.json" % game_id)
            assert status == 200 and headers.get("etag"), headers
            client = Session(base, dict(mine.cookies))
            for _ in range(args.moves):
                status, _h, _body, elapsed = client.request(
                    "GET", "/games/%d/status.json" % game_id, headers={"If-None-Match": headers["etag"]}
                )
                assert status == 304, status
                out.append(elapsed)

        run_phase(FLOOR_NAME, args.clients, trivial(FLOOR_PATH))
        run_phase("ping (API, DRF)", args.clients, trivial("/api/v1/ping/"))
        for kind in ("onitama", "maatatahay"):
            page_reads: list[float] = []
            wall = run_phase("move POST (form), %s" % kind, args.clients, moves(kind, page_reads), unit="moves/s")
            if wall and page_reads:
                report("game page GET, %s" % kind, page_reads, wall, unit="pages/s")
        run_phase("game status, 304", args.clients, status_304)
        for size, player in lobby_players:
            client = Session(base, session_cookie(player))

            def lobby(index: int, out: list[float], client: Session = client) -> None:
                for _ in range(max(1, min(args.moves, 20))):
                    status, _headers, _body, elapsed = client.request("GET", "/lobby/")
                    assert status == 200, status
                    out.append(elapsed)

            run_phase("lobby GET, %d games" % size, 1, lobby)
        summary()
    if not args.debug:
        print("tasks published to the broker and dropped unrun: %d keys" % broker_purged(env))

    for size, player in lobby_players:
        count, rows = lobby_query_count(player)
        print("lobby page queries, %4d games: %3d  (%d running games listed)" % (size, count, rows))


if __name__ == "__main__":
    main()
