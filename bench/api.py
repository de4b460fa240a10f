"""REST API latency and throughput under concurrent clients, against PostgreSQL.

    .venv/bin/python bench/api.py [--clients 4] [--requests 100] [--workers 2]
                                  [--database postgres://postgres@127.0.0.1:5432/maatasite_bench_api]

Sets up its own database (created if missing, migrated, filled with players, tokens
and games), serves the site with gunicorn on 127.0.0.1 (``--workers`` uvicorn workers, as in the Procfile)
and runs three phases, each with ``--clients`` threads doing ``--requests`` requests
each (bounded loops, fresh connections):

* ``floor``: ``GET /floor/``, the trivial view (ops.views.floor: constant JSON, no DRF,
  throttle, database or session), the server's floor: the closing table gives every
  phase's p50 as a ratio to it;
* ``ping``: ``GET /api/v1/ping/``, the API's trivial endpoint (DRF, authentication, throttles);
* ``game detail``: ``GET /api/v1/games/{id}/`` of a running game, as its player to move
  (view, moves and legal moves built each time), Onitama and Maatatahay;
* ``move submit``: ``POST /api/v1/games/{id}/moves/`` with the ply and an Idempotency-Key;
  each client plays both sides of its own games (a finished game is replaced).

Prints p50, p99 and mean latency (ms) and throughput (requests/s) per phase. By default
as in production (DEBUG off, Redis cache): tasks are published to a Redis broker that no
worker drains and no mail is sent, so the numbers are the web tier's (``--debug``: DEBUG
on, tasks in-process).
"""

from __future__ import annotations

import argparse
import json
import os
import time
import urllib.error
import urllib.request
import uuid

from _common import (
    FLOOR_NAME,
    FLOOR_PATH,
    broker_purged,
    django_migrated,
    ensure_database,
    gunicorn,
    run_phase,
    site_mode,
    site_options,
    site_prepared,
    summary,
)


def prepare(clients: int) -> dict:
    """Migrate and create, per client, two players with tokens and games to read and play."""
    django_migrated()
    from django.contrib.auth import get_user_model
    from django.db import connections

    from api import services as api_services
    from games import services as game_services

    User = get_user_model()
    run = uuid.uuid4().hex[:6]
    setup = {"clients": []}
    for index in range(clients):
        players = []
        for side in ("a", "b"):
            user = User.objects.create_user(
                "b%s%s%d" % (run, side, index), "b%s%s%d@example.org" % (run, side, index), "bench-password-123"
            )
            _token, secret = api_services.token_create(user=user, name="bench", scopes=["read", "play"])
            players.append((user, secret))
        (a, a_token), (b, b_token) = players
        detail_games = []
        for kind, options, plies in (("onitama", {"cards": "base"}, 4), ("maatatahay", {"variant": "standard"}, 12)):
            challenge = game_services.challenge_create(
                challenger=a, opponent=b, kind=kind, options=options, days_per_move=14
            )
            game = game_services.challenge_accept(challenge_id=challenge.pk, user=b)
            rules = game_services.rules_for(kind)
            for _ in range(plies):
                game.refresh_from_db()
                if not game.is_active:
                    break
                text = rules.move_text(rules.legal_moves(game_services.game_state(game))[0])
                game_services.move_submit(
                    game_id=game.pk, user=game.to_move_user, move_text=text, expected_ply=game.ply
                )
            game.refresh_from_db()
            assert game.is_active, "the set-up game ended early"
            detail_games.append((kind, game.pk, a_token if game.to_move_user_id == a.pk else b_token))
        setup["clients"].append(
            {"tokens": {a.username: a_token, b.username: b_token}, "opponent": b.username, "detail": detail_games}
        )
    connections.close_all()
    return setup


class Client:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self, method: str, path: str, token: str | None = None, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, dict | None, float]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                raw, status = response.read(), response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        elapsed = time.perf_counter() - start
        return status, (json.loads(raw) if raw else None), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=100, help="requests per client and phase")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maatasite_bench_api"),
    )
    site_options(parser)
    args = parser.parse_args()

    env = site_prepared(args)
    ensure_database(args.database)
    setup = prepare(args.clients)

    with gunicorn(env, args.workers) as base:
        client = Client(base)
        print(
            "bench/api.py: %d clients x %d requests per phase, gunicorn %d uvicorn workers, PostgreSQL, %s, %d cores"
            % (
                args.clients,
                args.requests,
                args.workers,
                site_mode(args),
                os.cpu_count() or 0,
            )
        )

        def trivial(path: str):
            def work(index: int, out: list[float]) -> None:
                for _ in range(args.requests):
                    status, _body, elapsed = client.call("GET", path)
                    assert status == 200, status
                    out.append(elapsed)

            return work

        def detail(kind: str):
            def work(index: int, out: list[float]) -> None:
                _kind, game_id, token = next(d for d in setup["clients"][index]["detail"] if d[0] == kind)
                for _ in range(args.requests):
                    status, body, elapsed = client.call("GET", "/api/v1/games/%d/" % game_id, token)
                    assert status == 200 and body["legal_moves"], status
                    out.append(elapsed)

            return work

        def detail_304(index: int, out: list[float]) -> None:
            _kind, game_id, token = setup["clients"][index]["detail"][1]
            request = urllib.request.Request(
                base + "/api/v1/games/%d/" % game_id, headers={"Authorization": "Bearer " + token}
            )
            with urllib.request.urlopen(request) as response:
                etag = response.headers["ETag"]
            for _ in range(args.requests):
                status, _body, elapsed = client.call(
                    "GET", "/api/v1/games/%d/" % game_id, token, headers={"If-None-Match": etag}
                )
                assert status == 304, status
                out.append(elapsed)

        def moves(kind: str, options: dict):
            def work(index: int, out: list[float]) -> None:
                mine = setup["clients"][index]
                tokens = mine["tokens"]
                first, second = list(tokens)
                game = None
                for _ in range(args.requests):
                    if game is None or game["status"] != "active":
                        status, made, _ = client.call(
                            "POST",
                            "/api/v1/challenges/",
                            tokens[first],
                            {"kind": kind, "opponent": second, "options": options, "days_per_move": 14},
                        )
                        assert status == 201, made
                        status, game, _ = client.call(
                            "POST", "/api/v1/challenges/%d/accept/" % made["id"], tokens[second]
                        )
                        assert status == 201, game
                    mover = game["to_move_username"]
                    status, game, _ = client.call("GET", "/api/v1/games/%d/" % game["id"], tokens[mover])
                    text = game["legal_moves"][0]["text"]
                    status, answer, elapsed = client.call(
                        "POST",
                        "/api/v1/games/%d/moves/" % game["id"],
                        tokens[mover],
                        {"move": text, "ply": game["ply"]},
                        headers={"Idempotency-Key": uuid.uuid4().hex},
                    )
                    assert status == 201, answer
                    out.append(elapsed)
                    game = answer["game"]

            return work

        run_phase(FLOOR_NAME, args.clients, trivial(FLOOR_PATH))
        run_phase("ping (API, DRF)", args.clients, trivial("/api/v1/ping/"))
        run_phase("game detail, onitama", args.clients, detail("onitama"))
        run_phase("game detail, maatatahay", args.clients, detail("maatatahay"))
        run_phase("game detail, 304 (ETag)", args.clients, detail_304)
        run_phase("move submit, onitama", args.clients, moves("onitama", {"cards": "base"}))
        run_phase("move submit, maatatahay", args.clients, moves("maatatahay", {"variant": "standard"}))
        summary()
    if not args.debug:
        print("tasks published to the broker and dropped unrun: %d keys" % broker_purged(env))


if __name__ == "__main__":
    main()
