"""Open game pages on one web process: what 1,000 idle sockets cost, and how long a move takes
to reach all of them.

    .venv/bin/python bench/live.py [--pages 1000] [--idle-seconds 30]
                                   [--redis redis://127.0.0.1:6379/4] [--prefix maatasite-live-bench]
                                   [--database postgres://postgres@127.0.0.1:5432/maatasite_bench]

Sets up its own database (created if missing, migrated) and serves the site as the Procfile
does (gunicorn, uvicorn's worker class) with ONE worker process, the push on
(LIVE_REDIS_URL=--redis, keys under --prefix). It makes one Onitama game of two players and
--pages signed-in viewers of it (the two players and spectators, each with a session of
their own), opens one socket per viewer (``/ws/games/<id>/``, the session cookie and the
site's Origin, as a browser's page does) and reads each one's first view.

Then it reports, for the worker process (from /proc): its resident memory before and with the
sockets open, per socket, and its CPU time while they sit idle for --idle-seconds. Last, one
player moves in this process (games.services.move_submit, committed and announced here, as a
move made by the Celery worker would be) and it reports the time from the call to each page's
update: p50, p99 and the last page (every page watching the game has it), and the web worker's
CPU time for it. A page has the update when its socket brings the page's new parts; with a
site whose socket only says that the game changed, when the page's fresh copy is fetched (as
the pages did before they were pushed their parts), so the two can be compared. Measured,
never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from _common import PING_PATH, ROOT, SERVER_COMMAND, django_migrated, ensure_database, free_port, site_environment

TICKS = os.sysconf("SC_CLK_TCK")


def worker_pid(master: int) -> int:
    """The one gunicorn worker: the master's child process."""
    for _ in range(100):
        children = Path("/proc/%d/task/%d/children" % (master, master)).read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.1)
    raise SystemExit("gunicorn started no worker")


def rss_mib(pid: int) -> float:
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS for %d" % pid)


def cpu_seconds(pid: int) -> float:
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def viewers(count: int):
    """Two players, ``count - 2`` spectators, one game; a session cookie for each."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from tests.factories import start_game

    users = get_user_model()
    run = "%x" % int(time.time())
    players = [users.objects.create_user(username="live-%s-%s" % (run, side), password=None) for side in "ab"]
    spectators = users.objects.bulk_create(
        users(username="live-%s-%d" % (run, i), email="live-%s-%d@example.org" % (run, i)) for i in range(count - 2)
    )
    game = start_game(players[0], players[1], "onitama", {"cards": "base"})
    cookies = []
    for user in [*players, *users.objects.filter(pk__in=[u.pk for u in spectators])]:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        cookies.append("%s=%s" % (settings.SESSION_COOKIE_NAME, session.session_key))
    return game, game.to_move_user, cookies, services


async def open_pages(base: str, game_id: int, cookies: list[str]):
    import websockets

    # As the game page opens it (static/games/live.js); a site before the page's parts were
    # pushed ignores the query and sends the game's view instead.
    url = base.replace("http://", "ws://") + "/ws/games/%d/?view=page&lang=en" % game_id
    sockets = []
    for start in range(0, len(cookies), 100):  # in batches: the accept queue stays short
        batch = [
            websockets.connect(
                url, additional_headers={"Cookie": cookie, "Origin": base}, max_size=None, open_timeout=60
            )
            for cookie in cookies[start : start + 100]
        ]
        sockets.extend(await asyncio.gather(*batch))
    await asyncio.gather(*(socket.recv() for socket in sockets))  # each one's first view
    return sockets


async def bench(args: argparse.Namespace, base: str, pid: int) -> None:
    import json

    from asgiref.sync import sync_to_async

    game, mover, cookies, services = await sync_to_async(viewers, thread_sensitive=True)(args.pages)
    before = rss_mib(pid)
    opened_at = time.perf_counter()
    sockets = await open_pages(base, game.pk, cookies)
    print("opened %d sockets (each read its first view) in %.1f s" % (len(sockets), time.perf_counter() - opened_at))
    await asyncio.sleep(2)
    with_pages = rss_mib(pid)
    cpu_start, idle_start = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(args.idle_seconds)
    idle_cpu = cpu_seconds(pid) - cpu_start
    idle_wall = time.perf_counter() - idle_start
    print(
        "web worker memory (RSS): %.1f MiB before, %.1f MiB with %d pages open: %.1f KiB per page"
        % (before, with_pages, len(sockets), (with_pages - before) * 1024 / len(sockets))
    )
    print(
        "web worker CPU while %d pages sit idle: %.2f s over %.0f s (%.2f%% of one core)"
        % (len(sockets), idle_cpu, idle_wall, 100 * idle_cpu / idle_wall)
    )

    text = await sync_to_async(
        lambda: services.rules_for("onitama").move_text(
            services.rules_for("onitama").legal_moves(services.game_state(game))[0]
        )
    )()
    arrivals: list[float] = []

    page_url = base + "/games/%d/" % game.pk
    fetchers = concurrent.futures.ThreadPoolExecutor(max_workers=8)
    loop = asyncio.get_running_loop()

    def fetch(cookie: str) -> None:
        request = urllib.request.Request(page_url, headers={"Cookie": cookie, "Accept": "text/html"})
        for attempt in range(5):  # a busy database server may refuse a connection now and then
            try:
                with urllib.request.urlopen(request, timeout=300) as response:
                    response.read()
                    return
            except urllib.error.HTTPError:
                time.sleep(0.2 * (attempt + 1))
        raise SystemExit("the page did not load")

    async def update(socket, cookie: str) -> None:
        while True:
            message = json.loads(await socket.recv())
            if message["type"] == "page" and message["ply"] == 1:  # the page's new parts, pushed
                arrivals.append(time.perf_counter())
                return
            if message["type"] == "game" and message["game"]["ply"] == 1:
                # A site whose pages refetch themselves on a push (before issue 15's fragments):
                # the update is on the page once its copy is fetched.
                await loop.run_in_executor(fetchers, fetch, cookie)
                arrivals.append(time.perf_counter())
                return

    waiting = [asyncio.ensure_future(update(socket, cookie)) for socket, cookie in zip(sockets, cookies, strict=True)]
    cpu_move = cpu_seconds(pid)
    started = time.perf_counter()
    await sync_to_async(services.move_submit)(game_id=game.pk, user=mover, move_text=text, expected_ply=0)
    committed = time.perf_counter() - started
    await asyncio.wait_for(asyncio.gather(*waiting), timeout=300)
    times = sorted((at - started) * 1000 for at in arrivals)
    print(
        "one move (committed in %.0f ms) reached %d pages: p50 %.0f ms, p99 %.0f ms, last %.0f ms; "
        "web worker CPU for it %.2f s"
        % (
            committed * 1000,
            len(times),
            statistics.median(times),
            times[int(0.99 * (len(times) - 1))],
            times[-1],
            cpu_seconds(pid) - cpu_move,
        )
    )
    await asyncio.gather(*(socket.close() for socket in sockets))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/4")
    parser.add_argument("--prefix", default="maatasite-live-bench")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/maatasite_bench")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.pages + 256)), hard))
    ensure_database(args.database)
    env = site_environment(args.database)
    env.update(LIVE_REDIS_URL=args.redis, LIVE_KEY_PREFIX=args.prefix)
    os.environ.update(LIVE_REDIS_URL=args.redis, LIVE_KEY_PREFIX=args.prefix)
    django_migrated()
    port = free_port()
    server = subprocess.Popen(
        [*SERVER_COMMAND, "--bind", "127.0.0.1:%d" % port, "--workers", "1", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = "http://127.0.0.1:%d" % port
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + PING_PATH, timeout=5):
                    break
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not answer")
        pid = worker_pid(server.pid)
        print(
            "bench/live.py: %d pages of one Onitama game on one gunicorn worker (uvicorn, pid %d), "
            "Redis channel layer, PostgreSQL, %d cores" % (args.pages, pid, os.cpu_count() or 0)
        )
        asyncio.run(bench(args, base, pid))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a worker still closing sockets after gunicorn's grace
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
