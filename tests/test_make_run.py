"""`make run` end to end: the launcher (ops/management/commands/run_local.py) started for real
on a free port, with its own SQLite file and broker folder, played through HTTP.

It shows the correspondence loop a newcomer should see: a bot's move is played by the worker,
not inside the mover's request; the opponent's "your turn" mail is printed on the console with
links to the chosen port; and SIGINT stops every process the launcher started.

Needs no PostgreSQL, Redis or browser (so it is not marked ``services``); it takes about half
a minute and runs in every run (the engine's ``slow`` marker, which skips, is another thing).
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from accounts.management.commands.seed_demo import DEMO_PASSWORD
from tests.conftest import free_port
from tests.helpers import matched

ROOT = Path(__file__).resolve().parent.parent
# What the launcher must not inherit from a developer's or CI's shell: it gets its own files.
FOREIGN_ENV = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_KEY_PREFIX",
    "CACHE_URL",
    "SITE_URL",
    "HOST",
    "PORT",
    "EMAIL_URL",
    "BEAT_SCHEDULE_FILE",
    "CELERY_BEAT_SWEEP_SECONDS",
    "CORRESPONDENCE_SWEEP_SECONDS",
    "OPS_HEARTBEAT_SECONDS",
    "LOG_FORMAT",
    "LOG_LEVEL",
)
MAIL_SEPARATOR = "\n" + "-" * 79 + "\n"
# How long a newcomer may wait for the "your turn" mail (the issue: within a minute).
MAIL_WAIT_SECONDS = 60


class Launcher:
    """The running `manage.py run_local`, its console output and its children's process groups."""

    def __init__(self, tmp_path: Path, *, port: int | None = None, args: tuple[str, ...] = ()):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / "console.log"
        env = {key: value for key, value in os.environ.items() if key not in FOREIGN_ENV}
        env.update(
            {
                "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                "CELERY_BROKER_URL": f"filesystem://{tmp_path / 'broker'}",
                "BEAT_SCHEDULE_FILE": str(tmp_path / "beat-schedule"),
                "PYTHONUNBUFFERED": "1",
                "DJANGO_SETTINGS_MODULE": "maatasite.settings",
            }
        )
        with open(self.log_path, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "run_local", "--port", str(self.port), *args],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, what, timeout: float, describe: str):
        """Poll ``what()`` until it returns something truthy; fail with the console's tail."""
        deadline = time.monotonic() + timeout
        while True:
            found = what()
            if found:
                return found
            if self.process.poll() is not None:
                pytest.fail(
                    f"run_local exited with {self.process.returncode} while waiting for {describe}:\n"
                    + self.output()[-6000:],
                    pytrace=False,
                )
            if time.monotonic() > deadline:
                pytest.fail(f"no {describe} within {timeout:.0f} s:\n" + self.output()[-6000:], pytrace=False)
            time.sleep(0.25)

    def groups(self) -> dict[str, int]:
        return {
            name: int(pgid)
            for name, pgid in re.findall(r"run_local: started (\w+) \(process group (\d+)\)", self.output())
        }

    def kill_everything(self) -> None:
        """Clean-up after a failure: SIGKILL the launcher's and its children's groups."""
        for pgid in [self.process.pid, *self.groups().values()]:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(10)


def processes_in_groups(pgids: set[int]) -> dict[int, str]:
    """{pid: state} of the live (not zombie) processes whose process group is one of ``pgids``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (command) ": state, ppid, pgrp, ...
        if int(fields[2]) in pgids and fields[0] != "Z":
            found[int(entry.name)] = fields[0]
    return found


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] != "Z"


def api(launcher: Launcher, method: str, path: str, body=None, token: str | None = None):
    """One JSON API call: (status, body, headers)."""
    request = urllib.request.Request(
        launcher.base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


def serving(launcher: Launcher) -> bool:
    try:
        return api(launcher, "GET", "/api/v1/ping/")[0] == 200
    except OSError:
        return False


def token_for(launcher: Launcher, username: str) -> str:
    status, body, _ = api(
        launcher,
        "POST",
        "/api/v1/auth/token/",
        {"username": username, "password": DEMO_PASSWORD, "name": "make-run-test", "scopes": ["read", "play"]},
    )
    assert status == 201, body
    return body["token"]


def game(launcher: Launcher, game_id: int, token: str) -> dict:
    status, body, _ = api(launcher, "GET", f"/api/v1/games/{game_id}/", token=token)
    assert status == 200, body
    return body


def printed_mails(output: str) -> list[email.message.EmailMessage]:
    """The mails Django's console backend printed (each ends with a line of 79 dashes); log
    lines of the other processes may come before a mail's headers."""
    mails = []
    for chunk in output.split(MAIL_SEPARATOR):
        start = re.search(r"^Content-Type: [^\n]*\nMIME-Version: 1\.0$", chunk, re.M)
        if start:
            mails.append(email.message_from_string(chunk[start.start() :], policy=email.policy.default))
    return mails


def mail_text(message: email.message.EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None, "the mail has no text/plain part"
    return body.get_content()


def worker_log_lines(output: str, task: str, game_id: int) -> list[str]:
    return [
        line
        for line in output.splitlines()
        if "logger=maatasite.tasks" in line and f"task={task}" in line and f"game_id={game_id} " in line
    ]


def test_make_run_plays_bots_in_the_worker_prints_your_turn_mail_and_stops_everything(tmp_path):
    launcher = Launcher(tmp_path)
    try:
        launcher.wait_for(lambda: serving(launcher), 120, "answer from the web server")
        groups = launcher.wait_for(
            lambda: len(launcher.groups()) == 2 and launcher.groups(), 10, "web and worker process groups"
        )
        alice, bob = token_for(launcher, "alice"), token_for(launcher, "bob")

        # (a) A level 1 bot: the mover's request only enqueues its turn; the worker plays it.
        status, made, _ = api(
            launcher,
            "POST",
            "/api/v1/games/solo/",
            {"kind": "onitama", "level": 1, "side": "blue", "options": {"cards": "base"}},
            token=alice,
        )
        assert status == 201, made
        solo = launcher.wait_for(
            lambda: (g := game(launcher, made["id"], alice))["your_turn"] and g, 60, "turn of alice against the bot"
        )
        status, played, headers = api(
            launcher,
            "POST",
            f"/api/v1/games/{solo['id']}/moves/",
            {"move": solo["legal_moves"][0]["text"], "ply": solo["ply"]},
            token=alice,
        )
        assert status == 201, played
        request_id = headers["X-Request-ID"]
        launcher.wait_for(
            lambda: api(launcher, "GET", f"/games/{solo['id']}/status.json")[1]["ply"] > solo["ply"] + 1 or None,
            60,
            "bot's move on the status URL the game page polls",
        )

        # The move's request logged its answer from the web server; the bot's turn ran in a process
        # of the worker's group, as a task sent by that request.
        # The task logs its SUCCESS line just after the move commits: wait for the line too.
        def bot_runs_logged():
            return [
                line
                for line in worker_log_lines(launcher.output(), "games.tasks.bot_turn_play", solo["id"])
                if f"request_id={request_id} " in line and "SUCCESS" in line
            ]

        bot_runs = launcher.wait_for(bot_runs_logged, 30, "worker's log line of the bot's turn")
        output = launcher.output()
        workers = processes_in_groups({groups["worker"]})
        web = processes_in_groups({groups["web"]})
        pids = {int(matched(r" process=(\d+) ", line).group(1)) for line in bot_runs}
        assert pids <= set(workers) and not pids & set(web)
        answered = [
            line
            for line in output.splitlines()
            if "logger=maatasite.requests" in line and f"request_id={request_id} " in line
        ]
        assert answered and all(int(matched(r" process=(\d+) ", line).group(1)) in web for line in answered)

        # (b) Two players: the waiting one's "your turn" mail is printed within a minute, linking to our port.
        status, challenge, _ = api(
            launcher,
            "POST",
            "/api/v1/challenges/",
            {"kind": "onitama", "opponent": "bob", "options": {"cards": "base"}},
            token=alice,
        )
        assert status == 201, challenge
        status, started, _ = api(launcher, "POST", f"/api/v1/challenges/{challenge['id']}/accept/", token=bob)
        assert status in (200, 201), started
        game_id = started["id"]
        alice_moves = started["to_move_username"] == "alice"
        mover, waiting, waiting_email = (
            (alice, "bob", "bob@example.com") if alice_moves else (bob, "alice", "alice@example.com")
        )
        before = game(launcher, game_id, mover)
        status, played, _ = api(
            launcher,
            "POST",
            f"/api/v1/games/{game_id}/moves/",
            {"move": before["legal_moves"][0]["text"], "ply": before["ply"]},
            token=mover,
        )
        assert status == 201 and played["game"]["to_move_username"] == waiting, played
        subject = f"Onitama #{game_id} with ...: your turn"
        stem = f"Onitama #{game_id} with "

        def your_turn_mail():
            return next(
                (
                    m
                    for m in printed_mails(launcher.output())
                    if m["To"] == waiting_email
                    and m["Subject"].startswith(stem)
                    and m["Subject"].endswith(": your turn")
                ),
                None,
            )

        mail = launcher.wait_for(your_turn_mail, MAIL_WAIT_SECONDS, f"'{subject}' mail on the console")
        links = re.findall(r"https?://[^\s<>\"]+", mail_text(mail))
        assert links and all(link.startswith(launcher.base + "/") for link in links), links

        # (c) SIGINT (Ctrl-C) stops every process of every group, and the launcher itself.
        started_processes = processes_in_groups(set(groups.values()))
        # runserver's reloader and its server; the worker, its two pool processes and beat.
        assert len(processes_in_groups({groups["web"]})) >= 2 and len(processes_in_groups({groups["worker"]})) >= 4
        os.kill(launcher.process.pid, signal.SIGINT)
        assert launcher.process.wait(60) == 0, launcher.output()[-4000:]
        assert "run_local: all stopped." in launcher.output()
        assert processes_in_groups(set(groups.values())) == {}
        assert [pid for pid in started_processes if alive(pid)] == []
    finally:
        launcher.kill_everything()


def test_make_run_stops_everything_when_one_of_its_processes_dies(tmp_path):
    """runserver cannot bind a port that is taken: the launcher stops the worker too, says
    why and fails, instead of leaving a worker without a site (or a site without a worker)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        launcher = Launcher(tmp_path, port=taken.getsockname()[1], args=("--no-seed",))
        try:
            assert launcher.process.wait(90) == 1, launcher.output()[-4000:]
            output = launcher.output()
            groups = launcher.groups()
            assert set(groups) == {"web", "worker"}, output[-4000:]
            assert "run_local: web exited with 1; stopping the others." in output
            assert processes_in_groups(set(groups.values())) == {}
        finally:
            launcher.kill_everything()


def test_the_web_process_is_runserver_and_uvicorn_when_push_is_on():
    """Without Redis `make run` serves with runserver and the pages poll; with LIVE_REDIS_URL,
    which runserver cannot serve (no WebSocket), uvicorn serves maatasite.asgi."""
    from ops.management.commands.run_local import Command

    plain = Command._web_command("manage.py", "127.0.0.1", 8101, {})
    assert plain[1:] == ["manage.py", "runserver", "127.0.0.1:8101"]
    live = Command._web_command("manage.py", "127.0.0.1", 8101, {"LIVE_REDIS_URL": "redis://127.0.0.1:6379/4"})
    assert live[1:4] == ["-m", "uvicorn", "maatasite.asgi:application"]
    assert live[live.index("--port") + 1] == "8101" and "--reload" in live
