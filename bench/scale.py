"""A million games on one PostgreSQL: fill, sizes, figures with their plans, a write burst, memory.

    .venv/bin/python bench/scale.py [--scale 0.01] [--small-games 1000] [--rounds 2] [--keep]
                                   [--burst-rate 120] [--burst-seconds 30]
                                   [--memory-requests 10000] [--bot-moves 1000]
                                   [--server postgres://postgres@127.0.0.1:5432]
                                   [--redis redis://127.0.0.1:6379] [--debug]

``--scale 1`` is the full size: 200,000 players and 1,000,000 games (100,000 running), with
the move rows, alarms, ratings, rating changes, challenges, ladders, tournaments, done
outbox mail and digest rows such a site holds (proportions in ``Shape``). ``--scale 0.01``
runs in about a minute. The same run also fills a site of ``--small-games`` games, so
every figure is measured at both sizes, side by side.

Steps:

1. prints the free disk space of the database's volume and the estimated size of both
   fills (bytes per row, ``BYTES_PER_ROW``, measured on a filled database, indexes
   included); refuses to start when they would not fit with 20 % to spare;
2. per size, in a child process of its own (one database each, ``<--prefix>_<size>``,
   dropped and made again): migrates, fills every table with COPY in the column order
   Django's ``_meta`` gives (no hand-written schema), prints the fill time and each table's
   rows, table and index sizes;
3. once both sizes are filled (and a CHECKPOINT has written them out), measures each size in
   a fresh process, the two sizes one after the other, ``--rounds`` times (each figure: the
   median of its rounds' p50), in-process with Django's test client: move submission
   (API), a game page, the lobby of a busy player, the events feed (API), the games
   time-out sweep and the mail sweep (each with the same 5 rows due at both sizes), a
   leaderboard, a player's history and a ladder page. For each figure: median and p90 of
   the repetitions, its query count, and every distinct query with its EXPLAIN ANALYZE
   summary (writes explained inside a transaction that is rolled back), flagging
   sequential scans on the tables that grow with players, games, moves or alarms;
4. against the big database only: gunicorn (the Procfile's server, 2 workers) takes a
   burst of ``--burst-rate`` API moves per second for ``--burst-seconds`` (open loop: each
   move starts at its own time, at most 16 in flight), reporting p50/p99 and whether it
   kept up; then the resident memory of one web worker after ``--memory-requests``
   requests, and of a real Celery worker (the bench's Redis broker, solo pool) after
   ``--bot-moves`` bot moves, each against its size after a warm-up;
5. prints the two sizes side by side, the ratio big/small of each figure, and drops the
   databases (``--keep`` keeps them).

Steps 3 and 4 run the site as production does, like bench/pages.py and bench/api.py: DEBUG
off (after ``collectstatic``), the cache in Redis (database 14 of ``--redis``) and the tasks
published to a Redis broker (database 15) that no worker drains, emptied after the burst, so
a move costs its publishing and not its tasks' work (the mail pictures, about 100 ms).
``--debug`` runs them as locally (DEBUG on, tasks in-process).

Nothing here is asserted: the numbers are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from _common import broker_purged, free_port, report, site_options, site_prepared  # noqa: E402

PASSWORD = "bench-password-123"
FULL_PLAYERS = 200_000
FULL_GAMES = 1_000_000
RUNNING_SHARE = 0.10
# A small site still runs this many games, so that it measures what the big one does: the busy
# player's 60 running games (a quarter of the running ones at most) and, for each of the
# time-out sweep's (repeat + 3) runs, 5 games of other players to time out. With 10 % of 1,000
# games, the busy player had 25 running games and the sweep ran out of games to time out.
RUNNING_FLOOR = 400
# ... and has this many players, so that its leaderboard shows the same 100 established
# players as the big one's (about a fifth of the players are established: 200 players made
# a leaderboard of 42, and the 1.56x compared 42 rows with 100).
PLAYERS_FLOOR = 600
# Tables that grow with players, games, moves or alarms: a sequential scan on one of them
# at the full size reads the whole site.
GROWING = {
    "accounts_user",
    "accounts_outgoingmail",
    "games_game",
    "games_seat",
    "games_move",
    "games_alarm",
    "games_challenge",
    "ratings_rating",
    "ratings_ratingchange",
    "ladder_laddermember",
    "ladder_ladderchallenge",
    "ladder_ladderevent",
    "tournaments_participant",
    "tournaments_pairing",
    "tournaments_round",
    "tournaments_tournament",
    "correspondence_digestalarm",
    "api_apitoken",
}
# Bytes per row, table and indexes together (measured at --scale 0.01 and rounded up).
BYTES_PER_ROW = {
    "users": 700,
    "games": 1300,
    "seats": 140,
    "moves": 190,
    "alarms": 200,
    "ratings": 180,
    "rating_changes": 220,
    "challenges": 300,
    "other": 300,
}


@dataclass
class Shape:
    """How many rows a site of ``games`` games holds (the full size at 1,000,000)."""

    games: int

    @property
    def players(self) -> int:
        return max(PLAYERS_FLOOR, self.games * FULL_PLAYERS // FULL_GAMES)

    @property
    def running(self) -> int:
        return min(self.games, max(RUNNING_FLOOR, int(self.games * RUNNING_SHARE)))

    # mean decisions of a finished game, and of a running one so far
    FINISHED_PLIES = 24
    RUNNING_PLIES = 12

    def estimate_rows(self) -> dict[str, int]:
        finished = self.games - self.running
        moves = finished * self.FINISHED_PLIES + self.running * self.RUNNING_PLIES
        return {
            "users": self.players,
            "games": self.games,
            "seats": 2 * self.games,
            "moves": moves,
            "alarms": moves + 2 * finished + 2 * self.running,
            "ratings": int(self.players * 1.5),
            "rating_changes": int(finished * 0.45 * 2),
            "challenges": int(self.games * 0.5),
            "other": int(self.games * 0.4),
        }

    def estimate_bytes(self) -> int:
        return sum(BYTES_PER_ROW[name] * rows for name, rows in self.estimate_rows().items())


def human(size: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(size) < 1024 or unit == "TB":
            return "%.1f %s" % (size, unit)
        size /= 1024
    return "%.1f TB" % size


# ============================================================================ the fill


class Rows:
    """COPY rows into one model's table, columns in ``_meta`` order, defaults filled in."""

    def __init__(self, _cursor, model) -> None:
        import psycopg
        from django.db.models import JSONField
        from psycopg.types.json import Jsonb

        # A connection of its own: one COPY at a time per connection, and several tables
        # fill at once. Foreign keys are deferred, checked when close() commits (close the
        # referenced table first).
        self.connection = psycopg.connect(os.environ["DATABASE_URL"])
        cursor = self.connection.cursor()

        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.index = {f.attname: i for i, f in enumerate(self.fields)}
        self.json = {i for i, f in enumerate(self.fields) if isinstance(f, JSONField)}
        self.jsonb = Jsonb
        base = []
        for f in self.fields:
            if f.has_default():
                base.append(f.get_default())
            elif f.null:
                base.append(None)
            elif getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
                base.append(NOW)
            elif f.get_internal_type() in ("CharField", "TextField", "EmailField"):
                base.append("")
            else:
                base.append(None)
        self.base = base
        columns = ", ".join('"%s"' % f.column for f in self.fields)
        self.copy = cursor.copy('COPY "%s" (%s) FROM STDIN' % (model._meta.db_table, columns))
        self.writer = self.copy.__enter__()
        self.count = 0

    def add(self, **values) -> None:
        row = list(self.base)
        for name, value in values.items():
            row[self.index[name]] = value
        for i in self.json:
            if row[i] is not None:
                row[i] = self.jsonb(row[i])
        self.writer.write_row(row)
        self.count += 1

    def close(self) -> int:
        self.copy.__exit__(None, None, None)
        self.connection.commit()
        self.connection.close()
        return self.count


NOW = datetime.now(UTC).replace(microsecond=0)
OPTIONS = {"onitama": {"cards": "base"}, "maatatahay": {"variant": "first"}}
REASONS = ["master_captured", "temple_reached", "resign", "timeout", "score", "more_warriors"]
BUSY_RUNNING, BUSY_FINISHED = 60, 240  # the busy player's games, the same at every size
LADDER_MEMBERS = 150  # per ladder, the same at every size
TOURNAMENT_PLAYERS, TOURNAMENT_ROUNDS = 16, 4


def templates() -> dict[str, dict]:
    """Per game kind, a real game's sealed state and seed (made by games.services and
    deleted): every filler game of that kind starts from them, so they open and play."""
    from django.contrib.auth import get_user_model

    from engine import get_game
    from games import services
    from games.models import Game

    User = get_user_model()
    a = User.objects.create_user("template-a", "template-a@example.org", PASSWORD)
    b = User.objects.create_user("template-b", "template-b@example.org", PASSWORD)
    out = {}
    for kind in OPTIONS:
        sides = get_game(kind).players
        game = services.game_create(kind=kind, seats=dict(zip(sides, (a, b), strict=True)), options=OPTIONS[kind])
        out[kind] = {
            "sides": sides,
            "options": game.options,
            "sealed_state": game.sealed_state,
            "sealed_seed": game.sealed_seed,
            "seed_commitment": game.seed_commitment,
            "data_version": game.data_version,
        }
    Game.objects.all().delete()
    User.objects.filter(pk__in=[a.pk, b.pk]).delete()
    return out


def fill(games: int, seed: int = 1) -> dict[str, int]:
    """Fill the migrated database with a site of ``games`` games; returns rows per table."""
    from django.contrib.auth.hashers import make_password
    from django.db import connection

    from accounts.models import OutgoingMail, User
    from correspondence.models import DigestAlarm
    from games.models import Alarm, Challenge, Game, Move, Seat
    from ladder.models import Ladder, LadderChallenge, LadderEvent, LadderMember
    from ratings.models import Rating, RatingChange
    from tournaments.models import Pairing, Participant, Round, Tournament

    rng = random.Random(seed)
    shape = Shape(games)
    kinds = templates()
    password = make_password(PASSWORD)
    players = shape.players
    span = timedelta(days=3 * 365)
    start = NOW - span
    counts: dict[str, int] = {}
    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor  # psycopg's own, for COPY

        # ---------------------------------------------------------------- players
        rows = Rows(cursor, User)
        for uid in range(1, players + 1):
            digest = rng.random() < 0.05
            rows.add(
                id=uid,
                username="busy" if uid == 1 else "p%07d" % uid,
                email="p%07d@example.org" % uid,
                password=password,
                is_active=True,
                email_confirmed=True,
                date_joined=start + span * (uid / players) * 0.9,
                last_login=NOW - timedelta(hours=rng.random() * 24 * 30),
                turn_mail="digest" if digest else "each",
            )
        counts["accounts_user"] = rows.close()

        def player() -> int:
            # a few players play a lot: a skewed choice (user 1, "busy", has its own games)
            return 2 + int((players - 2) * rng.random() ** 2)

        # ---------------------------------------------------------------- games
        g_rows, s_rows, m_rows = Rows(cursor, Game), Rows(cursor, Seat), Rows(cursor, Move)
        a_rows = Rows(cursor, Alarm)
        seat_id = move_id = alarm_id = 0
        rated_games: list[tuple[int, str, int, int, str, datetime]] = []
        casual_games: list[tuple[int, str, int, int, datetime]] = []
        running = shape.running
        busy_running = min(BUSY_RUNNING, running // 4)
        busy_finished = min(BUSY_FINISHED, (games - running) // 2)
        kind_of: dict[int, str] = {}
        seats_of: dict[int, tuple[int, int]] = {}
        for gid in range(1, games + 1):
            active = gid > games - running
            kind = "onitama" if rng.random() < 0.5 else "maatatahay"
            template = kinds[kind]
            first, second = template["sides"]
            busy = (active and gid - (games - running) <= busy_running) or (not active and gid <= busy_finished)
            u1 = 1 if busy else player()
            u2 = player()
            while u2 == u1:
                u2 = player()
            if rng.random() < 0.5:
                u1, u2 = u2, u1
            bot = not busy and rng.random() < 0.10
            bot_level = rng.randint(1, 5) if bot else None
            users = (u1, None if bot else u2)
            created = (NOW - timedelta(days=rng.random() * 40)) if active else start + span * (gid / games) * 0.98
            days = rng.choice((1, 2, 3, 3, 3, 5, 7, 14))
            if active:
                plies = rng.randint(0, 2 * Shape.RUNNING_PLIES)
            else:
                plies = max(2, int(rng.gauss(Shape.FINISHED_PLIES, 8)))
            end = NOW - timedelta(hours=rng.random() * days * 24) if active else created + timedelta(days=plies * 0.7)
            status = "active" if active else ("aborted" if rng.random() < 0.02 else "finished")
            to_move = plies % 2
            # a running bot game waits for its human (a bot's turn takes seconds)
            if active and bot:
                to_move = 0
            to_move_user = users[to_move] if active else None
            turn_started = end
            deadline = turn_started + timedelta(days=days) if active else None
            rated = not bot and rng.random() < 0.5
            g_rows.add(
                id=gid,
                kind=kind,
                options=template["options"],
                status=status,
                days_per_move=days,
                rated=rated,
                bot_level=bot_level,
                sealed_state=template["sealed_state"],
                data_version=template["data_version"],
                ply=plies,
                turn=plies + 1,
                to_move_side=(first, second)[to_move] if active else "",
                to_move_user_id=to_move_user,
                turn_started_at=turn_started if active else None,
                deadline=deadline,
                seed_commitment=template["seed_commitment"],
                sealed_seed=template["sealed_seed"],
                winner_side="" if active or status == "aborted" else rng.choice((first, second)),
                result_reason="" if active else ("aborted" if status == "aborted" else rng.choice(REASONS)),
                created_at=created,
                finished_at=None if active else end,
            )
            seat_ids = []
            for position, (side, uid) in enumerate(zip((first, second), users, strict=True)):
                seat_id += 1
                seat_ids.append(seat_id)
                s_rows.add(
                    id=seat_id,
                    game_id=gid,
                    side=side,
                    position=position,
                    user_id=uid,
                    bot_level=bot_level if uid is None else None,
                )
            step = (end - created) / (plies + 1)
            for ply in range(1, plies + 1):
                mover = (ply - 1) % 2
                move_id += 1
                at = created + step * ply
                m_rows.add(
                    id=move_id,
                    game_id=gid,
                    ply=ply,
                    turn=ply,
                    seat_id=seat_ids[mover],
                    user_id=users[mover],
                    text="card%d:%s%d%s%d" % (ply % 5, "abcde"[ply % 5], 1 + ply % 5, "abcde"[(ply + 1) % 5], 1),
                    created_at=at,
                )
                nxt = users[1 - mover]
                if nxt is not None and (active or ply < plies):
                    alarm_id += 1
                    a_rows.add(
                        id=alarm_id,
                        game_id=gid,
                        user_id=nxt,
                        kind="your_turn",
                        turn=ply + 1,
                        due_at=at,
                        sent_at=at,
                        outcome="queued",
                    )
            if active and to_move_user is not None:
                for kind_name, share in (("reminder", 0.8), ("last_call", 0.95)):
                    alarm_id += 1
                    a_rows.add(
                        id=alarm_id,
                        game_id=gid,
                        user_id=to_move_user,
                        kind=kind_name,
                        turn=plies + 1,
                        due_at=turn_started + timedelta(days=days) * share,
                    )
            if not active:
                for uid in users:
                    if uid is not None:
                        alarm_id += 1
                        a_rows.add(
                            id=alarm_id,
                            game_id=gid,
                            user_id=uid,
                            kind="game_over",
                            turn=0,
                            due_at=end,
                            sent_at=end,
                            outcome="queued",
                        )
            kind_of[gid] = kind
            if not bot:
                seats_of[gid] = (u1, u2)
                if status == "finished" and rated:
                    rated_games.append((gid, kind, u1, u2, rng.choice(("1", "0", "0.5")), end))
                elif not rated:
                    casual_games.append((gid, kind, u1, u2, created))
        counts["games_game"] = g_rows.close()
        counts["games_seat"] = s_rows.close()
        counts["games_move"] = m_rows.close()
        counts["games_alarm"] = a_rows.close()

        # ---------------------------------------------------------------- ratings
        r_rows = Rows(cursor, Rating)
        rid = 0
        for uid in range(1, players + 1):
            for kind in ("onitama", "maatatahay"):
                if kind == "maatatahay" and rng.random() < 0.5:
                    continue
                rid += 1
                r_rows.add(
                    id=rid,
                    user_id=uid,
                    kind=kind,
                    rating=rng.gauss(1500, 200),
                    deviation=rng.uniform(45, 350),
                    games_played=rng.randint(1, 60),
                    last_played_at=NOW - timedelta(days=rng.random() * 60),
                )
        counts["ratings_rating"] = r_rows.close()
        c_rows = Rows(cursor, RatingChange)
        cid = 0
        for gid, kind, u1, u2, score, at in rated_games:
            for me, other, points in ((u1, u2, score), (u2, u1, str(1 - float(score)))):
                cid += 1
                before = rng.gauss(1500, 200)
                c_rows.add(
                    id=cid,
                    user_id=me,
                    opponent_id=other,
                    game_id=gid,
                    kind=kind,
                    score=float(points),
                    rating_before=before,
                    rating_after=before + rng.uniform(-20, 20),
                    deviation_before=120.0,
                    deviation_after=115.0,
                    volatility_after=0.06,
                    opponent_rating=rng.gauss(1500, 200),
                    created_at=at,
                )
        counts["ratings_ratingchange"] = c_rows.close()

        # ---------------------------------------------------------------- challenges (lobby-made casual games)
        ch_rows = Rows(cursor, Challenge)
        chid = 0
        for gid, kind, u1, u2, created in casual_games:
            chid += 1
            ch_rows.add(
                id=chid,
                challenger_id=u1,
                opponent_id=u2,
                kind=kind,
                options=OPTIONS[kind],
                status="accepted",
                created_at=created - timedelta(hours=3),
                expires_at=created + timedelta(days=14),
                responded_at=created,
                accepted_by_id=u2,
                game_id=gid,
            )
        for _ in range(max(5, games // 500)):
            chid += 1
            kind = rng.choice(list(OPTIONS))
            ch_rows.add(
                id=chid,
                challenger_id=player(),
                opponent_id=None,
                kind=kind,
                options=OPTIONS[kind],
                status="open",
                created_at=NOW - timedelta(days=rng.random() * 10),
                expires_at=NOW + timedelta(days=4),
            )
        counts["games_challenge"] = ch_rows.close()

        # ---------------------------------------------------------------- ladders (rated games of 150 members)
        # the migrations make a ladder per game; more at the bigger sizes
        ladder_ids = sorted(Ladder.objects.values_list("pk", flat=True))
        l_rows = Rows(cursor, Ladder)
        for n in range(len(ladder_ids), max(2, games // 50_000)):
            lid = (ladder_ids[-1] if ladder_ids else 0) + 1
            ladder_ids.append(lid)
            l_rows.add(id=lid, name="Ladder %d" % lid, kind=("onitama", "maatatahay")[n % 2], created_at=start)
        l_rows.close()
        counts["ladder_ladder"] = len(ladder_ids)
        lm_rows = Rows(cursor, LadderMember)
        members: dict[int, list[int]] = {}
        mid = 0
        for lid in ladder_ids:
            chosen = rng.sample(range(2, players + 1), min(LADDER_MEMBERS, players - 1))
            if lid == ladder_ids[0]:
                chosen[0] = 1
            members[lid] = chosen
            for position, uid in enumerate(chosen, start=1):
                mid += 1
                lm_rows.add(id=mid, ladder_id=lid, user_id=uid, position=position, joined_at=start)
        counts["ladder_laddermember"] = lm_rows.close()
        lc_rows, le_rows = Rows(cursor, LadderChallenge), Rows(cursor, LadderEvent)
        lcid = leid = 0
        ladder_games = [g for g in rated_games if rng.random() < 0.1]
        for gid, _kind, u1, u2, _score, at in ladder_games:
            lid = rng.choice(ladder_ids)
            lcid += 1
            lc_rows.add(
                id=lcid,
                ladder_id=lid,
                challenger_id=u1,
                defender_id=u2,
                game_id=gid,
                challenger_position=rng.randint(2, LADDER_MEMBERS),
                defender_position=1,
                state="done",
                outcome=rng.choice(("climbed", "defended")),
                created_at=at - timedelta(days=15),
                finished_at=at,
            )
            leid += 1
            le_rows.add(
                id=leid, ladder_id=lid, kind="climbed", user_id=u1, other_id=u2, challenge_id=lcid, created_at=at
            )
        counts["ladder_ladderchallenge"] = lc_rows.close()
        counts["ladder_ladderevent"] = le_rows.close()

        # ---------------------------------------------------------------- tournaments (16 players, 4 Swiss rounds)
        per = TOURNAMENT_PLAYERS * TOURNAMENT_ROUNDS // 2
        tournaments = max(1, games // 30_000)
        t_rows, p_rows, rd_rows = Rows(cursor, Tournament), Rows(cursor, Participant), Rows(cursor, Round)
        pairs_later = []
        pid = rdid = 0
        pool = [g for g in rated_games if rng.random() < 0.15]
        for tid in range(1, tournaments + 1):
            t_rows.add(id=tid, name="Cup %d" % tid, status="finished", created_at=start, format="swiss")
            entrants = []
            for uid in rng.sample(range(2, players + 1), min(TOURNAMENT_PLAYERS, players - 1)):
                pid += 1
                entrants.append(pid)
                p_rows.add(id=pid, tournament_id=tid, user_id=uid, registered_at=start)
            for number in range(1, TOURNAMENT_ROUNDS + 1):
                rdid += 1
                rd_rows.add(id=rdid, tournament_id=tid, number=number, created_at=start, completed_at=start)
                for board in range(1, len(entrants) // 2 + 1):
                    game = pool.pop() if pool else None
                    pairs_later.append((tid, rdid, board, entrants[2 * board - 2], entrants[2 * board - 1], game))
        counts["tournaments_tournament"] = t_rows.close()
        counts["tournaments_participant"] = p_rows.close()
        counts["tournaments_round"] = rd_rows.close()
        pa_rows = Rows(cursor, Pairing)
        used = {g[0] for g in ladder_games}
        paid = 0
        for tid, rdid, board, first, second, game in pairs_later[: per * tournaments]:
            paid += 1
            gid = game[0] if game is not None and game[0] not in used else None
            pa_rows.add(
                id=paid,
                tournament_id=tid,
                round_id=rdid,
                board=board,
                first_id=first,
                second_id=second,
                game_id=gid,
                result="1-0" if gid else "1F-0F",
            )
        counts["tournaments_pairing"] = pa_rows.close()

        # ---------------------------------------------------------------- the outbox's done mail, digests
        o_rows = Rows(cursor, OutgoingMail)
        for oid in range(1, games // 5 + 1):
            at = NOW - timedelta(days=rng.random() * 7)
            o_rows.add(
                id=oid,
                kind="alarm",
                user_id=player(),
                object_id=rng.randint(1, max(1, alarm_id)),
                due_at=at,
                created_at=at,
                done_at=at,
                outcome="sent",
                attempts=1,
            )
        counts["accounts_outgoingmail"] = o_rows.close()
        d_rows = Rows(cursor, DigestAlarm)
        cursor.execute("SELECT id, digest_hour FROM accounts_user WHERE turn_mail = 'digest'")
        for did, (uid, hour) in enumerate(cursor.fetchall(), start=1):
            d_rows.add(
                id=did, user_id=uid, due_at=NOW + timedelta(hours=1 + rng.random() * 23), hour=hour, time_zone=""
            )
        counts["correspondence_digestalarm"] = d_rows.close()

        # identity sequences follow the ids written, then fresh statistics
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND is_identity = 'YES'"
        )
        for table, column in cursor.fetchall():
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, %s), "
                f'GREATEST(1, (SELECT COALESCE(MAX("{column}"), 0) FROM "{table}")))',
                ('"%s"' % table, column),
            )
    with connection.cursor() as c:
        c.execute("ANALYZE")
    return counts


def sizes() -> list[tuple[str, int, int, int]]:
    """(table, rows, table bytes, index bytes) of every table with rows, biggest first."""
    from django.db import connection

    with connection.cursor() as c:
        c.execute(
            "SELECT c.relname, c.reltuples::bigint, pg_table_size(c.oid), pg_indexes_size(c.oid) "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC"
        )
        return [row for row in c.fetchall() if row[1] > 0]


# ============================================================================ the figures


def plan_summary(plan: dict) -> tuple[str, list[str]]:
    """A plan's nodes in one line (node, relation, index), and the growing tables it scans whole."""
    parts, seq = [], []

    def walk(node: dict, depth: int) -> None:
        label = node["Node Type"]
        if "Relation Name" in node:
            label += " " + node["Relation Name"]
        if "Index Name" in node:
            label += " [%s]" % node["Index Name"]
        if node.get("Actual Rows") is not None and node["Node Type"] not in ("Limit",):
            label += " (%d)" % node["Actual Rows"]
        parts.append(label)
        if node["Node Type"] == "Seq Scan" and node.get("Relation Name") in GROWING:
            seq.append(node["Relation Name"])
        for child in node.get("Plans", []):
            walk(child, depth + 1)

    walk(plan["Plan"], 0)
    return " > ".join(parts), seq


def explain(sql: str) -> tuple[float, str, list[str]] | None:
    """EXPLAIN ANALYZE one captured query inside a transaction that is rolled back."""
    from django.db import connection, transaction

    head = sql.lstrip().split(None, 1)[0].upper()
    if head not in ("SELECT", "UPDATE", "DELETE", "INSERT", "WITH"):
        return None
    try:
        with transaction.atomic():
            with connection.cursor() as c:
                c.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql.replace("%", "%%"))
                plan = c.fetchone()[0][0]
            transaction.set_rollback(True)
    except Exception as error:  # a query that needs its transaction's earlier writes
        return (0.0, "not explained: %s" % str(error).splitlines()[0][:80], [])
    summary, seq = plan_summary(plan)
    return plan.get("Execution Time", 0.0), summary, seq


def query_shape(sql: str) -> str:
    """A query without its literals, so that the same query with other values counts once."""
    import re

    return re.sub(r"'[^']*'|\b\d+\b", "?", sql)[:6000]


def measure(name: str, action, repeat: int, prepare=None) -> dict:
    """Time ``action`` ``repeat`` times (after ``prepare``, untimed), then capture the
    queries of one more run and explain each distinct one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for i in range(repeat + 2):
        if prepare is not None:
            prepare()
        started = time.perf_counter()
        action()
        if i >= 2:  # two warm-up runs
            times.append(time.perf_counter() - started)
    if prepare is not None:
        prepare()
    with CaptureQueriesContext(connection) as captured:
        action()
    queries = [q["sql"] for q in captured.captured_queries]
    explained = []
    seen: dict[str, dict] = {}
    for sql in queries:
        shape = query_shape(sql)
        if shape in seen:
            seen[shape]["times"] += 1
            continue
        result = explain(sql)
        if result is not None:
            seen[shape] = {"sql": sql, "ms": result[0], "plan": result[1], "seq": result[2], "times": 1}
            explained.append(seen[shape])
    times.sort()
    return {
        "name": name,
        "p50_ms": statistics.median(times) * 1000,
        "p90_ms": times[min(len(times) - 1, int(0.9 * len(times)))] * 1000,
        "queries": len(queries),
        "explained": explained,
    }


def figures(repeat: int) -> list[dict]:
    """Every figure of the issue, in-process against the filled database."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from api import services as api_services
    from correspondence import services as mail_services
    from correspondence.models import DigestAlarm
    from games import outages
    from games import services as game_services
    from games.models import Alarm, Game, GameStatus
    from games.rules import game_state, rules_for
    from ladder.models import Ladder, LadderMember

    User = get_user_model()
    busy = User.objects.get(username="busy")
    busy.set_password(PASSWORD)
    busy.save(update_fields=["password"])
    run = uuid.uuid4().hex[:6]
    a = User.objects.create_user("m%sa" % run, "m%sa@example.org" % run, PASSWORD, email_confirmed=True)
    b = User.objects.create_user("m%sb" % run, "m%sb@example.org" % run, PASSWORD, email_confirmed=True)
    tokens = {}
    for user in (a, b, busy):
        tokens[user.pk] = api_services.token_create(user=user, name="bench", scopes=["read", "play"])[1]
    clients = {}
    for user in (a, b, busy):
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        clients[user.pk] = client
    api = Client(HTTP_HOST="127.0.0.1")

    def legal_or_said(kind: str, game: Game) -> list:
        """The legal moves of a running game; none is a fault of the site, said here so that
        the run goes on with another game (seen once, in a run at full size)."""
        state = game_state(game)
        legal = list(rules_for(kind).legal_moves(state))
        if not legal:
            print(
                "!! FAULT: %s game %d is running at ply %d (to move: %s) with no legal move; engine outcome %r"
                % (kind, game.pk, game.ply, game.to_move_side, rules_for(kind).outcome(state)),
                flush=True,
            )
        return legal

    def new_game(kind: str) -> Game:
        sides = rules_for(kind).players
        game = game_services.game_create(
            kind=kind, seats=dict(zip(sides, (a, b), strict=True)), options=OPTIONS[kind], days_per_move=14
        )
        # a few decisions in, as a page is usually seen
        for _ in range(6):
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE:
                break
            mover = a if game.to_move_user_id == a.pk else b
            legal = legal_or_said(kind, game)
            if not legal:
                break
            text = rules_for(kind).move_text(random.choice(legal))
            game_services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=game.ply)
        game.refresh_from_db()
        return game

    out = []
    state: dict[str, Game] = {}
    for kind in OPTIONS:
        state[kind] = new_game(kind)

        def prepare_move(kind=kind) -> None:
            game = state[kind]
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE or game.to_move_user_id is None:
                state[kind] = game = new_game(kind)
            legal = legal_or_said(kind, game)
            while not legal:
                state[kind] = game = new_game(kind)
                legal = legal_or_said(kind, game)
            state[kind + "_next"] = (game.to_move_user_id, rules_for(kind).move_text(random.choice(legal)), game.ply)

        def move(kind=kind) -> None:
            user_id, text, ply = state[kind + "_next"]
            response = api.post(
                "/api/v1/games/%d/moves/" % state[kind].pk,
                {"move": text, "ply": ply},
                content_type="application/json",
                HTTP_AUTHORIZATION="Bearer " + tokens[user_id],
                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
            )
            assert response.status_code == 201, response.content[:300]

        out.append(measure("move submission (API), %s" % kind, move, repeat, prepare_move))

        def page(kind=kind) -> None:
            game = state[kind]
            viewer = game.to_move_user_id or a.pk
            response = clients[viewer].get("/games/%d/" % game.pk)
            assert response.status_code == 200, response.status_code

        out.append(measure("game page, %s" % kind, page, repeat))

    def lobby() -> None:
        assert clients[busy.pk].get("/lobby/").status_code == 200

    out.append(measure("lobby, busy player (%d running)" % BUSY_RUNNING, lobby, repeat))

    def events() -> None:
        response = api.get("/api/v1/events/", HTTP_AUTHORIZATION="Bearer " + tokens[busy.pk])
        assert response.status_code == 200, response.content[:300]

    out.append(measure("events feed, busy player", events, repeat))

    def events_polled() -> None:
        # a client that polls: its cursor from a minute ago
        after = "%d-0-0" % ((time.time() - 60) * 10**6)
        response = api.get("/api/v1/events/", {"after": after}, HTTP_AUTHORIZATION="Bearer " + tokens[busy.pk])
        assert response.status_code == 200, response.content[:300]

    out.append(measure("events feed, busy player, polled", events_polled, repeat))

    # the sweeps: the same 5 rows due at every size
    def due_games() -> None:
        now = timezone.now()
        ids = list(
            Game.objects.filter(status=GameStatus.ACTIVE, deadline__gt=now, to_move_user__isnull=False)
            .exclude(seats__user__in=[a, b, busy])
            .order_by("?")
            .values_list("pk", flat=True)[:5]
        )
        if len(ids) < 5:
            print("  (only %d games left to time out: this figure is not comparable)" % len(ids))
        Game.objects.filter(pk__in=ids).update(deadline=now - timedelta(minutes=1))

    def sweep() -> None:
        outages.games_sweep()

    out.append(measure("games time-out sweep (5 due)", sweep, repeat, due_games))

    # Alarms and digests the fill dated near its start fell due while it ran (about 1,000 at
    # full size): move them past the measurement, so that each size has the same rows due.
    later = timezone.now() + timedelta(hours=2)
    settled = Alarm.objects.filter(sent_at__isnull=True, due_at__lt=later).update(due_at=later)
    settled += DigestAlarm.objects.filter(due_at__lt=later).update(due_at=later)
    print("  (alarms and digests moved past the measurement: %d)" % settled, flush=True)

    def due_alarms() -> None:
        now = timezone.now()
        ids = list(
            Alarm.objects.filter(sent_at__isnull=True, due_at__gt=now, kind="reminder")
            .order_by("?")
            .values_list("pk", flat=True)[:5]
        )
        Alarm.objects.filter(pk__in=ids).update(due_at=now - timedelta(minutes=1))
        digests = list(DigestAlarm.objects.filter(due_at__gt=now).order_by("?").values_list("pk", flat=True)[:5])
        if len(ids) < 5 or len(digests) < 5:
            print("  (only %d alarms and %d digests left to fall due: not comparable)" % (len(ids), len(digests)))
        DigestAlarm.objects.filter(pk__in=digests).update(due_at=now - timedelta(minutes=1))

    def mail_sweep() -> None:
        now = timezone.now()
        mail_services.alarms_queue_due(now=now)
        mail_services.digests_queue_due(now=now)
        mail_services.vacations_expire(now=now)

    out.append(measure("mail sweep (5 alarms and 5 digests due)", mail_sweep, repeat, due_alarms))

    def leaderboard() -> None:
        assert clients[a.pk].get("/ratings/onitama/").status_code == 200

    out.append(measure("leaderboard, onitama", leaderboard, repeat))

    def history() -> None:
        assert clients[a.pk].get("/history/busy/").status_code == 200

    out.append(measure("history, busy player (%d games)" % BUSY_FINISHED, history, repeat))

    ladder = Ladder.objects.order_by("pk").first()
    assert ladder is not None
    assert LadderMember.objects.filter(ladder=ladder, user=busy).exists()

    def ladder_page() -> None:
        assert clients[busy.pk].get("/ladders/%d/" % ladder.pk).status_code == 200

    out.append(measure("ladder page (%d members)" % LADDER_MEMBERS, ladder_page, repeat))

    from tournaments.models import Tournament

    tournament = Tournament.objects.order_by("-pk").first()
    assert tournament is not None

    def tournament_pages() -> None:
        for path in ("/tournaments/", "/tournaments/%d/" % tournament.pk, "/tournaments/%d/rounds/1/" % tournament.pk):
            assert clients[a.pk].get(path).status_code == 200, path

    out.append(measure("tournament list, page and round", tournament_pages, repeat))
    return out


def print_figures(label: str, results: list[dict]) -> None:
    print("\n== figures at %s ==" % label)
    for fig in results:
        print(
            "%-42s p50 %8.2f ms  p90 %8.2f ms  %3d queries"
            % (fig["name"], fig["p50_ms"], fig["p90_ms"], fig["queries"])
        )
        for q in fig["explained"]:
            flag = "  SEQ SCAN on %s" % ", ".join(sorted(set(q["seq"]))) if q["seq"] else ""
            sql = " ".join(q["sql"].split())
            times = " x%d" % q["times"] if q["times"] > 1 else ""
            print("    %7.3f ms%s  %s%s" % (q["ms"], times, sql[:150] + ("..." if len(sql) > 150 else ""), flag))
            print("               plan: %s" % q["plan"][:300])


def child_fill(args) -> None:
    site_prepared(args)
    from _common import django_migrated

    started = time.perf_counter()
    django_migrated()
    print("[%s] migrated in %.1f s" % (args.label, time.perf_counter() - started))
    started = time.perf_counter()
    counts = fill(args.games)
    fill_time = time.perf_counter() - started
    print("[%s] filled %s rows in %.1f s" % (args.label, f"{sum(counts.values()):,}", fill_time))
    table = sizes()
    print("%-34s %12s %10s %10s" % ("table", "rows", "table", "indexes"))
    for name, rows, tbytes, ibytes in table:
        print("%-34s %12s %10s %10s" % (name, f"{rows:,}", human(tbytes), human(ibytes)))
    total = sum(t + i for _n, _r, t, i in table)
    print("%-34s %12s %21s" % ("total", "", human(total)))
    Path(args.json).write_text(json.dumps({"label": args.label, "fill_s": fill_time, "counts": counts, "bytes": total}))


def child_measure(args) -> None:
    """The figures against a filled database, in a process of its own: not the one that
    filled it (its heap held the fill), and at a time next to the other size's."""
    site_prepared(args)
    import django

    django.setup()
    results = figures(args.repeat)
    print_figures(args.label, results)
    Path(args.json).write_text(json.dumps({"figures": results}))


# ============================================================================ burst and memory (big database)


def burst_setup(games: int) -> dict:
    """Players with tokens, and running Onitama games between them for the burst."""
    from django.contrib.auth import get_user_model

    from api import services as api_services
    from games import services as game_services

    User = get_user_model()
    run = uuid.uuid4().hex[:6]
    users = [
        User.objects.create_user("w%s%d" % (run, i), "w%s%d@example.org" % (run, i), PASSWORD, email_confirmed=True)
        for i in range(20)
    ]
    tokens = {u.pk: api_services.token_create(user=u, name="bench", scopes=["read", "play"])[1] for u in users}
    ids = []
    for i in range(games):
        a, b = users[i % 20], users[(i + 7) % 20]
        ids.append(
            game_services.game_create(
                kind="onitama", seats={"red": a, "blue": b}, options=OPTIONS["onitama"], days_per_move=14
            ).pk
        )
    return {"tokens": tokens, "games": ids, "users": users}


def next_move(game_id: int) -> tuple[int, str, int] | None:
    """(user to move, a random legal decision, ply) of a running game, read in-process."""
    from games.models import Game, GameStatus
    from games.rules import game_state, rules_for

    game = Game.objects.get(pk=game_id)
    if game.status != GameStatus.ACTIVE or game.to_move_user_id is None:
        return None
    rules = rules_for(game.kind)
    return game.to_move_user_id, rules.move_text(random.choice(rules.legal_moves(game_state(game)))), game.ply


@dataclass
class Server:
    base: str
    process: subprocess.Popen


def serve(env: dict, workers: int) -> Server:
    from _common import PING_PATH, SERVER_COMMAND

    port = free_port()
    process = subprocess.Popen(
        [*SERVER_COMMAND, "--bind", "127.0.0.1:%d" % port, "--workers", str(workers), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = "http://127.0.0.1:%d" % port
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + PING_PATH, timeout=5) as response:
                if response.status == 200:
                    return Server(base, process)
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.1)
    raise SystemExit("gunicorn did not answer")


def stop(server: Server) -> None:
    os.killpg(server.process.pid, signal.SIGTERM)
    server.process.wait(timeout=30)


def call(base: str, method: str, path: str, token: str | None = None, body: dict | None = None, session: str = ""):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
        request.add_header("Idempotency-Key", uuid.uuid4().hex)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if session:
        request.add_header("Cookie", "sessionid=" + session)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, time.perf_counter() - started


def burst(base: str, setup: dict, rate: float, seconds: float, in_flight: int = 16) -> None:
    """Open loop: move i starts at t0 + i/rate; at most ``in_flight`` at once (bounded)."""
    import queue
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    total = int(rate * seconds)
    free_games: queue.Queue[int] = queue.Queue()
    for gid in setup["games"]:
        free_games.put(gid)
    latencies: list[float] = []
    lags: list[float] = []
    errors: list[str] = []
    slots = threading.Semaphore(in_flight)
    lock = threading.Lock()

    # The legal moves are read in this process by one thread (one database connection),
    # so that the clients' threads hold no connection of their own.
    picker = ThreadPoolExecutor(max_workers=1)

    def one(scheduled: float) -> None:
        try:
            try:
                gid = free_games.get(timeout=10)
            except queue.Empty:
                errors.append("no free game")
                return
            move = picker.submit(next_move, gid).result()
            if move is None:
                errors.append("game %d over" % gid)
                return
            user_id, text, ply = move
            lag = time.perf_counter() - scheduled
            status, elapsed = call(
                base, "POST", "/api/v1/games/%d/moves/" % gid, setup["tokens"][user_id], {"move": text, "ply": ply}
            )
            with lock:
                if status == 201:
                    latencies.append(elapsed)
                    lags.append(lag)
                else:
                    errors.append("HTTP %d" % status)
            if picker.submit(next_move, gid).result() is not None:
                free_games.put(gid)
        finally:
            slots.release()

    threads = []
    t0 = time.perf_counter()
    for i in range(total):
        scheduled = t0 + i / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        if not slots.acquire(timeout=5):
            errors.append("in-flight bound reached")
            continue
        thread = threading.Thread(target=one, args=(scheduled,))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0
    picker.submit(lambda: connection.close()).result()  # the picker's own connection
    picker.shutdown()
    if not latencies:
        print("burst FAILED: %s" % "; ".join(errors[:5]))
        return
    report("burst move POST (API)", latencies, wall, "moves/s")
    late = sorted(lags)
    kept = len(latencies) >= 0.98 * total and wall <= seconds * 1.1 and late[int(0.99 * (len(late) - 1))] < 1.0
    print(
        "burst: %d of %d moves at %.0f/s asked, %.1f/s done in %.1f s; start lag p99 %.0f ms; "
        "errors %d (%s); kept up: %s"
        % (
            len(latencies),
            total,
            rate,
            len(latencies) / wall,
            wall,
            late[int(0.99 * (len(late) - 1))] * 1000,
            len(errors),
            ", ".join(sorted(set(errors))[:3]),
            "yes" if kept else "NO",
        )
    )


def rss_kb(pid: int) -> int:
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    path = Path("/proc/%d/task/%d/children" % (pid, pid))
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def web_memory(env: dict, setup: dict, requests: int) -> None:
    """One web worker: RSS after a warm-up (a tenth of the requests), then after ``requests`` more."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games.models import Game

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore  # the site's own session engine

    User = get_user_model()
    busy = User.objects.get(username="busy")
    store = SessionStore()
    store["_auth_user_id"] = str(busy.pk)
    store["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
    store["_auth_user_hash"] = busy.get_session_auth_hash()
    store.create()
    session = store.session_key
    from ladder.models import Ladder
    from tournaments.models import Tournament

    ladder_id = Ladder.objects.order_by("pk").values_list("pk", flat=True)[0]
    tournament_id = Tournament.objects.exclude(status="draft").order_by("-pk").values_list("pk", flat=True)[0]
    user = setup["users"][0]
    token = setup["tokens"][user.pk]
    games = list(Game.objects.filter(seats__user=user).values_list("pk", flat=True)[:20])
    busy_games = list(Game.objects.filter(seats__user=busy, status="active").values_list("pk", flat=True)[:20])
    paths = []
    for i in range(64):
        paths.append(("GET", "/api/v1/ping/", None, ""))
        paths.append(("GET", "/api/v1/games/%d/" % games[i % len(games)], token, ""))
        paths.append(("GET", "/games/%d/" % busy_games[i % len(busy_games)], None, session))
        paths.append(("GET", "/games/%d/status.json" % busy_games[i % len(busy_games)], None, session))
        if i % 8 == 0:
            paths.append(("GET", "/lobby/", None, session))
            paths.append(("GET", "/history/busy/", None, session))
            paths.append(("GET", "/ratings/onitama/", None, session))
            paths.append(("GET", "/ladders/%d/" % ladder_id, None, session))
            paths.append(("GET", "/tournaments/", None, session))
            paths.append(("GET", "/tournaments/%d/" % tournament_id, None, session))
            paths.append(("GET", "/tournaments/%d/rounds/1/" % tournament_id, None, session))
            paths.append(("GET", "/api/v1/events/", token, ""))
            paths.append(("GET", "/api/v1/ladders/%d/standings/" % ladder_id, token, ""))
    server = serve(env, 1)
    try:
        worker = children(server.process.pid)[0]

        def run(count: int) -> float:
            done = [0]
            errors = []
            lock = threading.Lock()

            def client(index: int) -> None:
                i = index
                while True:
                    with lock:
                        if done[0] >= count:
                            return
                        done[0] += 1
                    method, path, tok, sess = paths[i % len(paths)]
                    i += 4
                    status, _ = call(server.base, method, path, tok, session=sess)
                    if status != 200:
                        errors.append("%s %d" % (path, status))

            threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if errors:
                print("web memory: %d errors, e.g. %s" % (len(errors), errors[:3]))
            return time.perf_counter() - started

        warm = max(200, requests // 10)
        run(warm)
        before = rss_kb(worker)
        wall = run(requests)
        after = rss_kb(worker)
        print(
            "web worker RSS: %s after %d warm-up requests, %s after %d more (%.0f s): growth %+.1f %%"
            % (human(before * 1024), warm, human(after * 1024), requests, wall, 100.0 * (after - before) / before)
        )
    finally:
        stop(server)


def celery_memory(env: dict, database: str, moves: int) -> None:
    """A real Celery worker (solo pool) playing bot moves: a human move in a game against a
    level-1 bot enqueues the bot's turn after commit; the worker plays it. The broker is the
    bench's Redis, emptied first (a filesystem broker, polled once a second, under --debug)."""
    from django.contrib.auth import get_user_model

    from games.models import Game, GameStatus, Move

    broker = None
    if env.get("CELERY_BROKER_URL", "").startswith("redis"):
        broker_purged(env)
        worker_env = dict(env)
    else:
        broker = Path(tempfile.mkdtemp(prefix="scale-broker-"))
        worker_env = dict(env, CELERY_BROKER_URL="filesystem://%s" % broker)
    worker = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/celery"),
            "-A",
            "maatasite",
            "worker",
            "--pool",
            "solo",
            "-Q",
            "celery",
            "--loglevel",
            "ERROR",
        ],
        cwd=ROOT,
        env=worker_env,
        start_new_session=True,
    )
    # This process enqueues through the same broker: run the human side in a child with the env.
    User = get_user_model()
    run = uuid.uuid4().hex[:6]
    human_user = User.objects.create_user("c%s" % run, "c%s@example.org" % run, PASSWORD, email_confirmed=True)
    try:
        time.sleep(3)
        code = "import sys; sys.path.insert(0, %r); import scale; scale.bot_driver(%d, %d)" % (
            str(HERE),
            human_user.pk,
            moves,
        )
        driver = subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, env=worker_env, stdout=subprocess.PIPE, text=True
        )
        marks = {}
        assert driver.stdout is not None
        for line in driver.stdout:
            if line.startswith("BOTMOVES"):
                count = int(line.split()[1])
                marks[count] = rss_kb(worker.pid)
            else:
                print(line, end="")
        driver.wait()
        if len(marks) >= 2:
            (c0, r0), (c1, r1) = sorted(marks.items())[0], sorted(marks.items())[-1]
            print(
                "celery worker RSS: %s after %d warm-up bot moves, %s after %d: growth %+.1f %%"
                % (human(r0 * 1024), c0, human(r1 * 1024), c1, 100.0 * (r1 - r0) / r0)
            )
        bots = Move.objects.filter(game__seats__user=human_user, user__isnull=True).count()
        print(
            "bot moves played by the worker: %d; games: %d"
            % (bots, Game.objects.filter(seats__user=human_user, status=GameStatus.ACTIVE).count())
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        if broker is not None:
            shutil.rmtree(broker, ignore_errors=True)
        else:
            broker_purged(env)


def bot_driver(user_id: int, moves: int) -> None:
    """(In a child with the broker set.) Play human moves against level-1 bots; after each,
    wait for the worker's reply. Prints BOTMOVES <n> after the warm-up and at the end."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import GameStatus, Move

    user = get_user_model().objects.get(pk=user_id)
    warm = max(50, moves // 10)
    played = 0
    game = None
    marks = {warm, warm + moves}
    deadline = time.time() + 60 * 30
    while played < warm + moves and time.time() < deadline:
        if game is None or game.status != GameStatus.ACTIVE:
            game = services.game_create_solo(
                user=user, kind="onitama", bot_level=1, side="red", options=OPTIONS["onitama"]
            )
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            continue
        if game.to_move_user_id != user.pk:
            time.sleep(0.01)
            continue
        move = next_move(game.pk)
        if move is None:
            game = None
            continue
        before = Move.objects.filter(game=game, user__isnull=True).count()
        services.move_submit(game_id=game.pk, user=user, move_text=move[1], expected_ply=move[2])
        waited = time.time()
        while time.time() - waited < 60:
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE or Move.objects.filter(game=game, user__isnull=True).count() > before:
                break
            time.sleep(0.01)
        played += Move.objects.filter(game=game, user__isnull=True).count() - before
        for mark in sorted(marks):
            if played >= mark:
                print("BOTMOVES %d" % mark, flush=True)
                marks.discard(mark)


def child_load(args) -> None:
    env = site_prepared(args)
    # Under ASGI each request runs in a thread of its own: a persistent connection would be
    # left open per thread (Django's documentation: no persistent connections under ASGI),
    # and a burst would exhaust the server's connections.
    env["DATABASE_CONN_MAX_AGE"] = "0"
    os.environ["DATABASE_CONN_MAX_AGE"] = "0"
    import django

    django.setup()
    setup = burst_setup(games=max(100, int(args.burst_rate * args.burst_seconds / 30)))
    server = serve(env, 2)
    try:
        print(
            "\n== write burst beside the big site: %.0f moves/s for %.0f s, gunicorn 2 workers =="
            % (args.burst_rate, args.burst_seconds)
        )
        burst(server.base, setup, args.burst_rate, args.burst_seconds)
    finally:
        stop(server)
        print("tasks published to the broker and dropped unrun: %d keys" % broker_purged(env))
    if args.memory_requests:
        print("\n== memory ==")
        web_memory(env, setup, args.memory_requests)
    if args.bot_moves:
        celery_memory(env, args.database, args.bot_moves)


# ============================================================================ the parent


def child_run(kind: str, database: str, label: str, options: list[str]) -> dict:
    """Run this script's ``--child kind`` against ``database``; what it wrote to its JSON file."""
    out = Path(tempfile.mkstemp(prefix="scale-", suffix=".json")[1])
    try:
        command = [sys.executable, __file__, "--child", kind, "--database", database, "--label", label]
        subprocess.run([*command, "--json", str(out), *options], check=True)
        return json.loads(out.read_text())
    finally:
        out.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.01, help="share of the full size (1 = 1,000,000 games)")
    parser.add_argument("--small-games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=15, help="timed repetitions per figure")
    parser.add_argument(
        "--rounds", type=int, default=2, help="times each size's figures are measured, the sizes alternating"
    )
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--burst-rate", type=float, default=120)
    parser.add_argument("--burst-seconds", type=float, default=30)
    parser.add_argument("--memory-requests", type=int, default=10_000)
    parser.add_argument("--bot-moves", type=int, default=1000)
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument(
        "--prefix",
        default="maatasite_scale",
        help="the databases' names start with this (<prefix>_template, <prefix>_<games>): "
        "two runs on one server need two prefixes",
    )
    site_options(parser)
    parser.add_argument("--child", choices=["fill", "measure", "load"], help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "fill":
        return child_fill(args)
    if args.child == "measure":
        return child_measure(args)
    if args.child == "load":
        return child_load(args)
    # the children serve and measure the site as production runs it (DEBUG off, the cache in
    # Redis, tasks published to a broker no worker drains), unless --debug
    mode_args = ["--redis", args.redis, *(["--debug"] if args.debug else [])]

    import psycopg

    big = Shape(int(FULL_GAMES * args.scale))
    small = Shape(args.small_games)
    with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
        try:
            data_dir = conn.execute("SHOW data_directory").fetchone()[0]
        except psycopg.Error:
            data_dir = "/"
    place = data_dir if os.path.exists(data_dir) else "/"
    free = shutil.disk_usage(place).free
    need = big.estimate_bytes() + small.estimate_bytes()
    print(
        "free disk at %s: %s; the fill needs about %s (%s games, %s players; %s estimated rows)"
        % (
            place,
            human(free),
            human(need),
            f"{big.games:,}",
            f"{big.players:,}",
            f"{sum(big.estimate_rows().values()):,}",
        )
    )
    if need * 1.2 > free:
        raise SystemExit("refusing to start: the fill would not fit (with 20 %% to spare) in %s free" % human(free))

    results = {}
    urls: dict[str, str] = {}  # each size's database, by its label
    template = "%s_template" % args.prefix
    databases = [template]
    try:
        # migrate once, into a template both sizes are copied from
        with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % template)
            conn.execute('CREATE DATABASE "%s"' % template)
        started = time.perf_counter()
        env = dict(os.environ, DATABASE_URL="%s/%s" % (args.server, template))
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        print("migrated the template database in %.1f s" % (time.perf_counter() - started))
        for label, shape in (("%d games" % small.games, small), ("%s games" % f"{big.games:,}", big)):
            name = "%s_%d" % (args.prefix, shape.games)
            url = "%s/%s" % (args.server, name)
            with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
                conn.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)
                conn.execute('CREATE DATABASE "%s" TEMPLATE "%s"' % (name, template))
            databases.append(name)
            urls[label] = url
            print("\n######## %s (database %s)" % (label, name))
            results[label] = child_run("fill", url, label, ["--games", str(shape.games), *mode_args])
        # The figures, once both sizes are filled and written out (CHECKPOINT): each size in
        # a fresh process, the two sizes one after the other, ``--rounds`` times, so that the
        # machine's drift (writeback after an 11 GB fill, a noisy neighbour) weighs on both.
        with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        rounds: dict[str, list[list[dict]]] = {label: [] for label in results}
        for number in range(1, args.rounds + 1):
            for label, url in urls.items():
                print("\n######## figures at %s, round %d of %d" % (label, number, args.rounds))
                measured = child_run("measure", url, label, ["--repeat", str(args.repeat), *mode_args])
                rounds[label].append(measured["figures"])
        for label, measured in rounds.items():
            # each figure: the median of its rounds' p50 (the last round's queries and plans)
            merged = []
            for per_round in zip(*measured, strict=True):
                merged.append(
                    dict(
                        per_round[-1],
                        p50_ms=statistics.median(f["p50_ms"] for f in per_round),
                        rounds_ms=[f["p50_ms"] for f in per_round],
                    )
                )
            results[label]["figures"] = merged
        if args.burst_seconds > 0 or args.memory_requests or args.bot_moves:
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    "load",
                    "--database",
                    "%s/%s" % (args.server, databases[-1]),
                    "--burst-rate",
                    str(args.burst_rate),
                    "--burst-seconds",
                    str(args.burst_seconds),
                    "--memory-requests",
                    str(args.memory_requests),
                    "--bot-moves",
                    str(args.bot_moves),
                    *mode_args,
                ],
                check=True,
            )
        (small_label, small_r), (big_label, big_r) = results.items()
        print("\n== side by side (p50, ms; queries) ==")
        print(
            "(the median of %d rounds' p50, each size measured next to the other; the rounds in brackets)" % args.rounds
        )
        print("%-42s %18s %18s %7s  %s" % ("figure", small_label, big_label, "ratio", "seq scans at the big size"))
        for s_fig, b_fig in zip(small_r["figures"], big_r["figures"], strict=True):
            seq = sorted({t for q in b_fig["explained"] for t in q["seq"]})
            print(
                "%-42s %10.2f (%3d q) %10.2f (%3d q) %6.2fx  %s  [%s | %s]"
                % (
                    b_fig["name"],
                    s_fig["p50_ms"],
                    s_fig["queries"],
                    b_fig["p50_ms"],
                    b_fig["queries"],
                    b_fig["p50_ms"] / s_fig["p50_ms"],
                    ", ".join(seq) or "-",
                    " ".join("%.1f" % ms for ms in s_fig["rounds_ms"]),
                    " ".join("%.1f" % ms for ms in b_fig["rounds_ms"]),
                )
            )
        print(
            "fill: %s in %.1f s (%s rows, %s on disk); %s in %.1f s"
            % (
                big_label,
                big_r["fill_s"],
                "{:,}".format(sum(big_r["counts"].values())),
                human(big_r["bytes"]),
                small_label,
                small_r["fill_s"],
            )
        )
    finally:
        if not args.keep:
            with psycopg.connect(args.server + "/postgres", autocommit=True) as conn:
                for name in databases:
                    conn.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)


if __name__ == "__main__":
    main()
