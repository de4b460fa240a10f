"""The query shapes a million games depend on (issue 17, bench/scale.py): the sweeps read
what is due, not what exists, and the lookups the pages and sign-in make have an index.

The plan tests run on PostgreSQL only: each captures the queries of one action and asks
the planner for their plans with sequential scans priced out of reach
(``enable_seqscan = off``). A "Seq Scan" that is left means no index can answer the query:
at the full size it reads the whole table; so does an index scan without a condition on
an index that is not partial. Nothing here is about time.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import TurnMail
from correspondence import services as mail_services
from games import outages
from games.models import Alarm, Game, GameStatus
from tests.factories import make_user, start_game

pytestmark = pytest.mark.django_db

# The tables that grow with players, games, moves and alarms.
GROWING = ("accounts_user", "games_game", "games_seat", "games_move", "games_alarm", "ratings_rating")

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="plans are PostgreSQL's (set DATABASE_URL=postgres://...)"
)


def _whole_reads(plan: dict, partial: set[str]) -> list[str]:
    """The growing tables a JSON plan reads whole: a sequential scan, or an index scan with
    no condition on an index that is not partial (it walks the whole index)."""
    found = []
    relation = plan.get("Relation Name", "")
    if relation in GROWING:
        kind = plan["Node Type"]
        if kind == "Seq Scan":
            found.append(relation)
        elif kind in ("Index Scan", "Index Only Scan") and "Index Cond" not in plan:
            if plan.get("Index Name") not in partial:
                found.append(relation)
    for child in plan.get("Plans", []):
        found += _whole_reads(child, partial)
    return found


def plan_of(sql: str, *, priced_out: tuple[str, ...] = ("seqscan",)) -> dict:
    """PostgreSQL's plan (JSON, the top node) for ``sql`` with the ``priced_out`` plan kinds
    (``enable_<kind> = off``) made too dear to choose unless nothing else can answer."""
    with transaction.atomic(), connection.cursor() as cursor:
        for kind in priced_out:
            cursor.execute("SET LOCAL enable_%s = off" % kind)
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql.replace("%", "%%"))
        plan = cursor.fetchone()[0]
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]


def whole_table_scans(action) -> list[str]:
    """The growing tables some SELECT of ``action()`` can only read whole."""
    with CaptureQueriesContext(connection) as captured:
        action()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indpred IS NOT NULL"
        )
        partial = {name for (name,) in cursor.fetchall()}
    found = []
    for query in captured.captured_queries:
        sql = query["sql"]
        if not sql.startswith("SELECT"):
            continue
        plan = plan_of(sql)
        found += ["%s in: %s" % (relation, sql[:160]) for relation in _whole_reads(plan, partial)]
    return found


def _overdue(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))


def _running_count_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith('SELECT COUNT(*) AS "__count" FROM "games_game"')]


def test_a_sweep_with_few_games_due_does_not_count_the_running_games(settings, alice, bob):
    """Counting the running games reads them all; the share rule needs the count only when
    more games are due than a sweep may always time out."""
    settings.GAMES_TIMEOUT_MIN_UNCONFIRMED = 2
    settings.GAMES_TIMEOUT_MAX_SHARE = 0.10
    games = [start_game(alice, bob) for _ in range(4)]
    _overdue(games[0])
    with CaptureQueriesContext(connection) as captured:
        result = outages.games_sweep()
    assert result.timed_out == 1 and result.held == 0
    assert _running_count_queries(captured.captured_queries) == []
    assert Game.objects.get(pk=games[0].pk).status != GameStatus.ACTIVE


def test_a_sweep_with_many_due_still_holds_them_by_the_share_of_running_games(settings, alice, bob):
    settings.GAMES_TIMEOUT_MIN_UNCONFIRMED = 2
    settings.GAMES_TIMEOUT_MAX_SHARE = 0.10
    games = [start_game(alice, bob) for _ in range(4)]
    for game in games[:3]:
        _overdue(game)
    with CaptureQueriesContext(connection) as captured:
        result = outages.games_sweep()
    # 3 due > max(2, 10 % of 4 running): all held for staff, none timed out
    assert (result.timed_out, result.held) == (0, 3)
    assert len(_running_count_queries(captured.captured_queries)) == 1
    assert Game.objects.filter(status=GameStatus.ACTIVE).count() == 4


@postgres_only  # FOR UPDATE is PostgreSQL's (SQLite locks the whole database)
def test_the_alarm_sweep_claims_due_alarms_without_joining_players_or_games(alice, bob):
    """A join in the claim lets the planner read every account when it guesses many alarms
    due; the players and games come by primary key instead, in a constant number of queries."""

    def claim_queries(count: int) -> list[str]:
        for _ in range(count):
            start_game(alice, bob)
        with CaptureQueriesContext(connection) as captured:
            result = mail_services.alarms_queue_due(now=timezone.now())
        assert result.claimed == count
        return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]

    one, four = claim_queries(1), claim_queries(4)
    assert len(one) == len(four)
    claim = next(sql for sql in four if sql.startswith('SELECT "games_alarm"'))
    assert "JOIN" not in claim and "FOR UPDATE" in claim
    assert '"games_game"."sealed_state"' not in " ".join(four)  # the games without their state
    assert not Alarm.objects.filter(sent_at__isnull=True, due_at__lte=timezone.now(), kind="your_turn").exists()


@postgres_only
def test_the_sweeps_read_no_growing_table_whole(settings, alice, bob):
    settings.GAMES_TIMEOUT_MIN_UNCONFIRMED = 5
    games = [start_game(alice, bob) for _ in range(3)]
    _overdue(games[0])
    carol = make_user("carol")
    mail_services.mail_preferences_update(user=carol, turn_mail=TurnMail.DIGEST)
    now = timezone.now()
    assert whole_table_scans(outages.games_sweep) == []
    assert whole_table_scans(lambda: mail_services.alarms_queue_due(now=now)) == []
    assert whole_table_scans(lambda: mail_services.digests_queue_due(now=now)) == []


@postgres_only
def test_case_insensitive_account_lookups_have_an_index(alice):
    """A player's page and history, sign-in with a name or an address, sign-up: each finds
    the account through UPPER(username) or UPPER(email), indexed."""
    assert whole_table_scans(lambda: account_selectors.user_get_public(username="ALICE")) == []
    assert whole_table_scans(lambda: account_selectors.user_get_public(username="nobody")) == []

    def sign_in_by_address() -> None:
        with pytest.raises(Exception):  # noqa: B017 - the answer does not matter, the lookups do
            account_services.token_create_from_credentials(
                username="ALICE@example.org", password="wrong", name="t", scopes=["read"], client_address="10.0.0.1"
            )

    assert whole_table_scans(sign_in_by_address) == []


@postgres_only
def test_the_events_feed_reads_no_growing_table_whole(alice, bob):
    from games.events import Cursor, events_for_user
    from tests.factories import play

    play(start_game(alice, bob), 3)
    now = timezone.now() + timedelta(minutes=1)
    assert whole_table_scans(lambda: events_for_user(user=alice, after=None, now=now)) == []
    after = Cursor.of(timezone.now() - timedelta(minutes=5))
    assert whole_table_scans(lambda: events_for_user(user=alice, after=after, now=now)) == []


# ---------------------------------------------------------------- the lobby and the archive (issue 17)


def _seats_joined_to_games(action) -> list[str]:
    """The queries of ``action()`` that join the seats to the games table: with a player's
    many games the planner answers those by hashing the whole games table (bench/scale.py
    saw it at 10,000 games); the lists read the player's seats first, then games by key."""
    with CaptureQueriesContext(connection) as captured:
        action()
    return [
        q["sql"][:160]
        for q in captured.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "games_game"' in q["sql"] and 'JOIN "games_seat"' in q["sql"]
    ]


@pytest.fixture
def shelf(alice, bob, carol):
    """alice's games: running (hers to move and not), over (won, lost, aborted), one in a
    tournament; and games without her."""
    from games import services as game_services
    from tests.factories import play
    from tournaments.models import Pairing, Participant, Round, Tournament

    # Fixed deals (who moves first is dealt): alice is to move in one of them at least.
    play(start_game(alice, bob, seed=1), 1)
    start_game(bob, alice, seed=3)
    start_game(alice, carol, seed=2)
    lost = start_game(alice, bob, rated=True)
    game_services.game_resign(game_id=lost.pk, user=alice)
    won = start_game(alice, carol, rated=True)
    game_services.game_resign(game_id=won.pk, user=carol)
    aborted = start_game(carol, alice)
    game_services.game_abort(game_id=aborted.pk, user=alice)
    for _ in range(3):
        other = start_game(bob, carol)
        game_services.game_resign(game_id=other.pk, user=bob)
    cup = Tournament.objects.create(name="Winter Cup")
    first, second = (Participant.objects.create(tournament=cup, user=u, seed=n) for n, u in ((1, alice), (2, carol)))
    round_ = Round.objects.create(tournament=cup, number=1)
    Pairing.objects.create(tournament=cup, round=round_, board=1, first=first, second=second, game=won)
    return alice, cup


@postgres_only
def test_the_lobby_and_its_waiting_count_read_no_growing_table_whole(shelf):
    from games import selectors

    alice, _cup = shelf
    actions = {
        "lobby page": lambda: selectors.games_for_lobby_page(user=alice),
        "lobby page 2": lambda: selectors.games_for_lobby_page(user=alice, page=2, per_page=1),
        "all running games": lambda: selectors.games_for_lobby(user=alice),
        "waiting count": lambda: selectors.games_waiting_count(user=alice),
        "the lobby's history": lambda: selectors.games_history(user=alice, limit=10),
        "a player's running games": lambda: selectors.game_list_for_player(user=alice, finished=False),
    }
    for name, action in actions.items():
        assert whole_table_scans(action) == [], name
        assert _seats_joined_to_games(action) == [], name
    assert len(selectors.games_for_lobby(user=alice)) == 3
    assert selectors.games_waiting_count(user=alice) >= 1


@postgres_only
def test_the_waiting_count_reads_the_running_games_index_of_the_player(shelf):
    """Not the status index (every running game's entry) ANDed with the player's: the partial
    index ``games_game_waiting`` holds only running games, by the player to move."""
    from games import selectors

    alice, _cup = shelf
    with CaptureQueriesContext(connection) as captured:
        selectors.games_waiting_count(user=alice)
    (query,) = captured.captured_queries
    plan = json.dumps(plan_of(query["sql"]))
    assert "games_game_waiting" in plan
    assert "games_game_status" not in plan


@postgres_only
def test_the_lobby_page_reads_no_growing_table_whole(client, shelf):
    alice, _cup = shelf
    client.force_login(alice)
    assert whole_table_scans(lambda: client.get("/lobby/")) == []
    assert _seats_joined_to_games(lambda: client.get("/lobby/")) == []


@postgres_only
@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"kind": "onitama"},
        {"variant": "base"},
        {"result": "won"},
        {"result": "lost"},
        {"result": "drawn"},
        {"result": "aborted"},
        {"opponent": "car"},
        {"finished_from": "2000-01-01", "finished_to": "2100-01-01"},
        {"rated": True},
        {"tournament": "cup"},
        {"result": "won", "opponent": "CAR", "rated": True, "kind": "onitama", "tournament": "cup"},
    ],
)
def test_the_archive_reads_no_growing_table_whole_whatever_the_filters(client, shelf, filters):
    from datetime import date

    from rest_framework.test import APIClient

    from games import archive

    alice, cup = shelf
    values = dict(filters)
    if values.get("tournament") == "cup":
        values["tournament"] = cup.pk
    for key in ("finished_from", "finished_to"):
        if key in values:
            values[key] = date.fromisoformat(values[key])
    chosen = archive.ArchiveFilters(**values)
    anon = APIClient()
    query = {k: ("yes" if v is True else v) for k, v in values.items()}
    actions = {
        "page": lambda: archive.games_archive_page(player=alice, filters=chosen),
        "history page": lambda: client.get("/history/alice/", query),
        "API page": lambda: anon.get("/api/v1/players/alice/archive/", query),
    }
    for name, action in actions.items():
        assert whole_table_scans(action) == [], name
        assert _seats_joined_to_games(action) == [], name
    assert client.get("/history/alice/", query).status_code == 200
    assert anon.get("/api/v1/players/alice/archive/", query).status_code == 200


@postgres_only
@pytest.mark.parametrize("format", ["swiss", "knockout"])
def test_the_api_tournament_and_its_standings_read_no_growing_table_whole(
    client, django_capture_on_commit_callbacks, format
):
    """A page of the tournament's players and pairings, and of its standings: their players'
    accounts by key, never a join that lets the planner hash every account."""
    from tests.tournaments.conftest import started

    with django_capture_on_commit_callbacks(execute=True):
        tournament = started([make_user("t%d" % i) for i in range(6)], format=format)
    for path in ("/api/v1/tournaments/%d/", "/api/v1/tournaments/%d/standings/"):
        for query in ({}, {"page": 2, "page_size": 2}):
            url = path % tournament.pk
            assert whole_table_scans(lambda url=url, query=query: client.get(url, query)) == [], (url, query)
    detail = client.get("/api/v1/tournaments/%d/" % tournament.pk, {"page_size": 2}).json()
    assert len(detail["players"]) == 2 and len(detail["rounds"][0]["pairings"]) == 2


@postgres_only
@pytest.mark.parametrize("signed_in", [True, False])
def test_the_lobby_walks_the_newest_open_challenges_by_index_without_sorting_them_all(alice, bob, signed_in):
    """Open challenges grow with the site (2,000 open at 1,000,000 games): the lobby's newest
    ``LOBBY_CHALLENGES_SHOWN`` open to anyone come from the partial index in its order, so the
    plan stops at the page instead of sorting every open challenge (sorting is priced out of
    reach here: a plan that still sorts has no index to walk)."""
    from games import selectors
    from games.models import Challenge

    later = timezone.now() + timedelta(days=3)
    for number in range(3):
        Challenge.objects.create(challenger=bob, kind="onitama", expires_at=later, options={"n": number})
    viewer = alice if signed_in else None
    with CaptureQueriesContext(connection) as captured:
        shown = selectors.challenges_for_lobby(user=viewer)
    assert len(shown.open_to_all) == 3
    (query,) = [q["sql"] for q in captured.captured_queries if '"games_challenge"."opponent_id" IS NULL' in q["sql"]]
    plan = json.dumps(plan_of(query, priced_out=("seqscan", "sort")))
    assert "games_challenge_open_newest" in plan
    assert '"Sort"' not in plan and "Incremental Sort" not in plan, plan


def test_seats_and_moves_are_read_without_joining_the_games_table():
    """Their default order is by the game's key: ordering by "game" followed the game's own
    ordering and joined the games table to every read (each page's prefetch of seats)."""
    from games.models import Move, Seat

    for rows in (Seat.objects.filter(game_id=1), Move.objects.filter(game_id=1)):
        sql = str(rows.query)
        assert '"games_game"' not in sql and "ORDER BY" in sql
