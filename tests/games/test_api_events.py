"""The events feed: your turn, challenges, draw offers, game over, with a stable cursor."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.events import Cursor, events_for_user
from games.models import Alarm, Move

from .conftest import play, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

EVENTS = "/api/v1/events/"


def kinds(page):
    return [(e["kind"], e["game_id"] or e["challenge_id"]) for e in page["events"]]


def test_a_challenge_a_game_and_its_turns_appear_once_each(alice_api, bob_api, alice, bob):
    start = bob_api.get(EVENTS).json()
    assert start["events"] == [] and start["cursor"]
    made = alice_api.post(
        "/api/v1/challenges/", {"kind": "onitama", "opponent": "bob", "options": {"cards": "base"}}, format="json"
    ).json()
    page = bob_api.get(EVENTS, {"after": start["cursor"]}).json()
    assert kinds(page) == [("challenge_received", made["id"])]
    assert page["events"][0]["data"] == {"kind": "onitama", "challenger": "alice"}
    assert bob_api.get(EVENTS, {"after": page["cursor"]}).json()["events"] == []
    alice_cursor = alice_api.get(EVENTS).json()["cursor"]
    game_id = bob_api.post("/api/v1/challenges/%d/accept/" % made["id"]).json()["id"]
    answered = alice_api.get(EVENTS, {"after": alice_cursor}).json()
    assert [e["kind"] for e in answered["events"]] == ["challenge_answered", "game_started"]
    assert answered["events"][0]["data"] == {"status": "accepted"}
    game = services.Game.objects.get(pk=game_id)
    mover = game.to_move_user
    waiting = bob if mover == alice else alice
    waiting_api = bob_api if mover == alice else alice_api
    started = answered["events"][1]["data"]["your_turn"]
    assert started is (mover == alice)
    cursor = waiting_api.get(EVENTS).json()["cursor"]
    play(game, 1)
    turn = waiting_api.get(EVENTS, {"after": cursor}).json()
    assert kinds(turn) == [("your_turn", game_id)] and turn["events"][0]["data"]["ply"] == 1
    # The player who moved gets no event for their own move.
    mover_api = alice_api if mover == alice else bob_api
    assert "your_turn" not in [e["kind"] for e in mover_api.get(EVENTS, {"after": cursor}).json()["events"]]
    services.game_resign(game_id=game_id, user=waiting)
    over = mover_api.get(EVENTS, {"after": cursor}).json()["events"]
    assert over[-1]["kind"] == "game_over" and over[-1]["data"]["reason"] == "resign"


def test_draw_offers_and_declined_challenges(alice_api, bob_api, alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    cursor = bob_api.get(EVENTS).json()["cursor"]
    alice_api.post("/api/v1/games/%d/draw/offer/" % game.pk)
    assert kinds(bob_api.get(EVENTS, {"after": cursor}).json()) == [("draw_offered", game.pk)]
    cursor = alice_api.get(EVENTS).json()["cursor"]
    made = alice_api.post("/api/v1/challenges/", {"kind": "onitama", "opponent": "bob"}, format="json").json()
    bob_api.post("/api/v1/challenges/%d/decline/" % made["id"])
    page = alice_api.get(EVENTS, {"after": cursor}).json()
    assert kinds(page) == [("challenge_answered", made["id"])] and page["events"][0]["data"]["status"] == "declined"


def test_paging_with_a_small_limit_sees_every_event_once(alice_api, alice, bob):
    game = play(start_game(alice, bob, "maatatahay", {"variant": "first"}), 30)
    everything = events_for_user(user=alice, after=None, limit=100).events
    seen, cursor = [], None
    for _ in range(100):
        page = alice_api.get(EVENTS, {"limit": 2, **({"after": cursor} if cursor else {})}).json()
        seen += [e["cursor"] for e in page["events"]]
        cursor = page["cursor"]
        if not page["has_more"]:
            break
    assert seen == [e.cursor.text() for e in everything] and len(seen) == len(set(seen)) > 2
    assert game.ply >= 20


def test_the_settle_delay_holds_back_the_newest_events(settings, alice, bob):
    settings.API_EVENTS_SETTLE_SECONDS = 60
    start_game(alice, bob, "onitama", {"cards": "base"})
    assert events_for_user(user=alice, after=None).events == []
    later = events_for_user(user=alice, after=None, now=timezone.now() + timedelta(seconds=61))
    assert [e.kind for e in later.events] == ["challenge_answered", "game_started"]


def test_cursors_order_and_bad_cursors(alice_api, anon):
    assert Cursor(5, 1, 9) < Cursor(5, 2, 1) < Cursor(6)
    assert Cursor.parse(Cursor(123, 4, 5).text()) == Cursor(123, 4, 5)
    for bad in ("x", "1-2", "-1-2-3", "1-2-3-4"):
        answer = alice_api.get(EVENTS, {"after": bad})
        assert answer.status_code == 400 and answer.json()["code"] == "bad_cursor"
    assert alice_api.get(EVENTS, {"limit": "many"}).status_code == 400
    assert anon.get(EVENTS).status_code == 401
    first = alice_api.get(EVENTS)
    assert alice_api.get(EVENTS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code in (200, 304)


@pytest.mark.parametrize(
    "kind, options, plies", [("maatatahay", {"variant": "first"}, 24), ("onitama", {"cards": "base"}, 4)]
)
def test_your_turn_events_are_the_turns_the_your_turn_alarms_were_scheduled_for(alice, bob, kind, options, plies):
    """One derivation: the feed's turn starts are the turns games.services numbered and
    scheduled a "your turn" alarm for (turn 1 is the game_started event's). While the game
    runs, no alarm has been dropped from the mail's queue yet."""
    game = play(start_game(alice, bob, kind, options), plies)
    assert game.is_active and game.ply == plies
    for user in (alice, bob):
        events = [e for e in events_for_user(user=user, after=None, limit=100).events if e.kind == "your_turn"]
        turns = sorted(Move.objects.get(pk=e.row).turn + 1 for e in events)
        alarms = sorted(
            Alarm.objects.filter(game=game, user=user, kind=Alarm.Kind.YOUR_TURN, turn__gt=1).values_list(
                "turn", flat=True
            )
        )
        assert turns == alarms and turns, (user, turns, alarms)
        assert all(e.data["by_side"] != game.seats.get(user=user).side for e in events)
    if kind == "maatatahay":  # its turns hold several decisions: fewer turns than decisions
        assert game.turn < game.ply


def test_a_turn_that_started_stays_in_the_feed_after_the_game_ends(alice, bob):
    """The feed never changes its past: a turn that started is still an event once the game
    is over (it used to vanish when the game ended before the player moved)."""
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    mover = game.to_move_user
    waiting = bob if mover == alice else alice
    play(game, 1)
    before = [e.as_dict() for e in events_for_user(user=waiting, after=None).events if e.kind == "your_turn"]
    assert mover is not None
    services.game_resign(game_id=game.pk, user=mover)
    after = [e.as_dict() for e in events_for_user(user=waiting, after=None).events if e.kind == "your_turn"]
    assert len(before) == 1 and after == before


# the token, the seats, the games' times, then the six sources (challenges received and
# answered, games started, turns, draw offers, games over); the last one, games over, is
# not asked here, where no game ended
FEED_QUERIES = 1 + 2 + 5 + 1  # + chat's messages (chat.events), the feed's sixth source


def test_the_feed_costs_the_same_queries_for_few_and_many_games_and_moves(alice_api, alice, bob):
    """Each source is one query, whatever the user's games and their moves (counted, never timed)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def counted(params: dict) -> tuple[int, dict]:
        alice_api.get(EVENTS, params)
        with CaptureQueriesContext(connection) as queries:
            response = alice_api.get(EVENTS, params)
        assert response.status_code == 200
        return len(queries), response.json()

    play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)
    cursor = alice_api.get(EVENTS).json()["cursor"]
    few_first, _ = counted({})
    few_polled, _ = counted({"after": cursor})
    for _ in range(6):
        play(start_game(alice, bob, "maatatahay", {"variant": "first"}), 12)
    many_first, everything = counted({})
    many_polled, _ = counted({"after": cursor})
    assert len(everything["events"]) > 20
    # a source with no game where its events could be is not asked at all: at most one
    # query per source, and the two that read the user's games and their times
    assert few_first == many_first == FEED_QUERIES, (few_first, many_first)
    assert few_polled <= many_polled == FEED_QUERIES, (few_polled, many_polled)


def test_a_poll_reads_no_move_of_the_games_that_did_not_move_since(alice, bob):
    """The "your turn" source reads the moves of the games whose turn started inside the
    window only: a poll after the last cursor reads none of a long game that has not moved
    since (EXPLAIN ANALYZE's rows, with sequential scans priced out; nothing is timed)."""
    import json

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from games.models import Game

    still = play(start_game(alice, bob, "maatatahay", {"variant": "first"}), 30)
    long_ago = timezone.now() - timedelta(days=3)
    Move.objects.filter(game=still).update(created_at=long_ago)
    Game.objects.filter(pk=still.pk).update(turn_started_at=long_ago, created_at=long_ago)
    moving = play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)
    after = Cursor.of(timezone.now() - timedelta(hours=1))
    with CaptureQueriesContext(connection) as captured:
        page = events_for_user(user=alice, after=after, now=timezone.now() + timedelta(minutes=1))
    assert {e.game_id for e in page.events if e.kind == "your_turn"} <= {moving.pk}
    sql = next(q["sql"] for q in captured.captured_queries if q["sql"].startswith('SELECT "games_move"'))

    def move_rows(plan: dict) -> int:
        own = 0
        if plan.get("Relation Name") == "games_move" and plan.get("Parent Relationship") != "SubPlan":
            own = plan.get("Actual Rows", 0) * plan.get("Actual Loops", 1) + plan.get("Rows Removed by Filter", 0)
        return own + sum(move_rows(child) for child in plan.get("Plans", []))

    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql.replace("%", "%%"))
            plan = cursor.fetchone()[0]
            plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]
        # the moving game's moves and the probe of each one's next ply; none of the 30 others
        assert move_rows(plan) <= 2 * moving.ply < still.ply, plan
