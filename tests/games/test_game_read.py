"""games.selectors.game_row and game_seats read a game's row and its seats through SQL built
once per process (maatasite.sql_once): what they give is the ORM's, field by field, with the
same annotations and related objects, on PostgreSQL and SQLite alike."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import prefetch_related_objects
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from games import selectors, services
from games.models import Challenge, Game
from maatasite import sql_once
from tests.factories import make_user, play, start_game, to_move
from tests.helpers import fields_of

pytestmark = pytest.mark.django_db
RULES = engine.get_game("onitama")


def counted(queries) -> list[str]:
    """The queries made, but for the feature check Django makes once per connection at its first
    query with JSON on SQLite (``SELECT JSON(...)`` in a savepoint)."""
    probe = ("SAVEPOINT", "RELEASE SAVEPOINT", "SELECT JSON(")
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(probe)]


def orm_game(game_id: int, *, with_draw_offer: bool) -> Game:
    rows = Game.objects.all()
    if with_draw_offer:
        rows = rows.annotate(pending_draw_offer=selectors.PENDING_DRAW_OFFER)
    return rows.get(pk=game_id)


@pytest.fixture
def game():
    alice, bob = make_user("alice"), make_user("bob")
    return start_game(alice, bob, "onitama")


def test_the_game_row_is_the_orms_with_and_without_its_draw_offer(game):
    other = start_game(make_user("carol"), make_user("dave"), "maatatahay", options={"variant": "first"})
    mover = to_move(game)
    waiter = next(seat.user for seat in game.seats.all() if seat.user != mover)
    for name in ("game_row", "game_row:draw_offer", "game_row:locked", "game_row:locked:draw_offer"):
        sql_once.forget(name)
    for step in range(3):
        if step == 1:  # a pending offer: read in the game's own query
            services.draw_offer(game_id=game.pk, user=mover)
        if step == 2:  # declined: none pending again
            services.draw_decline(game_id=game.pk, user=waiter)
        for read in (game, other):
            for with_draw_offer in (False, True):
                with CaptureQueriesContext(connection) as queries:
                    found = selectors.game_row(game_id=read.pk, with_draw_offer=with_draw_offer)
                assert len(counted(queries)) == 1
                expected = orm_game(read.pk, with_draw_offer=with_draw_offer)
                assert fields_of(found) == fields_of(expected)
                assert found.options == expected.options and isinstance(found.options, dict)
                assert found._state.adding is False and found._state.db == "default"
                if with_draw_offer:
                    assert getattr(found, "pending_draw_offer") == getattr(expected, "pending_draw_offer")  # noqa: B009
                else:
                    assert not hasattr(found, "pending_draw_offer")
                with transaction.atomic():
                    locked = selectors.game_row(game_id=read.pk, lock=True, with_draw_offer=with_draw_offer)
                    assert fields_of(locked) == fields_of(expected)
    offer = getattr(selectors.game_row(game_id=game.pk, with_draw_offer=True), "pending_draw_offer")  # noqa: B009
    assert offer is None
    services.draw_offer(game_id=game.pk, user=mover)
    offer = getattr(selectors.game_row(game_id=game.pk, with_draw_offer=True), "pending_draw_offer")  # noqa: B009
    assert set(offer) == {"id", "seat_id", "ply"} and offer["ply"] == game.ply
    assert sql_once.kept("game_row:locked:draw_offer") == [("default", connection.vendor)]


def test_an_unknown_game_is_not_found(game):
    with pytest.raises(Game.DoesNotExist):
        selectors.game_row(game_id=10**12)
    with pytest.raises(Game.DoesNotExist):
        selectors.game_row(game_id=-7_001_005)  # the placeholder the SQL is built with
    assert selectors.game_row(game_id=game.pk).pk == game.pk


@pytest.mark.django_db(transaction=True)
def test_a_locked_read_needs_a_transaction(game):
    sql_once.forget("game_row:locked")
    with pytest.raises(TransactionManagementError):
        selectors.game_row(game_id=game.pk, lock=True)
    with transaction.atomic():
        assert selectors.game_row(game_id=game.pk, lock=True).pk == game.pk
    # a locked read outside a transaction fails even when its SQL was built earlier
    with pytest.raises(TransactionManagementError):
        selectors.game_row(game_id=game.pk, lock=True)


def seat_fields(seats) -> list[tuple]:
    return [
        (
            fields_of(seat),
            fields_of(seat.user) if seat.user is not None else None,
            getattr(seat, "has_conditional_lines"),  # noqa: B009  # an annotation
        )
        for seat in seats
    ]


def test_the_seats_are_the_orms_prefetch_with_users_and_queued_lines(game):
    alice = make_user("erin")
    solo = services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    mover = to_move(game)
    waiter = next(seat.user for seat in game.seats.all() if seat.user != mover)
    state = services.game_state(game)
    first = RULES.move_text(RULES.legal_moves(state)[0])  # the mover's move, then the waiter's answer
    answer = RULES.move_text(RULES.legal_moves(RULES.apply(state, RULES.parse_move(state, first)))[0])
    services.conditional_lines_set(game_id=game.pk, user=waiter, lines=[[first, answer]])  # one seat has lines
    sql_once.forget(selectors.GAME_SEATS_SQL)
    for read in (game, solo):
        fresh = Game.objects.get(pk=read.pk)
        with CaptureQueriesContext(connection) as queries:
            seats = selectors.game_seats(fresh)
            again = selectors.game_seats(fresh)  # kept on the game: no query more
            users = [seat.user for seat in seats]  # with the seats: no query more
            back = [seat.game for seat in seats]  # the way back is the game itself
            kept_count = fresh.seats.all().count()  # the kept queryset answers
        assert len(counted(queries)) == 1
        assert all(other is fresh for other in back)
        expected = Game.objects.get(pk=read.pk)
        prefetch_related_objects([expected], selectors.SEATS_WITH_USERS)
        assert seat_fields(seats) == seat_fields(expected.seats.all())
        assert seat_fields(again) == seat_fields(seats)
        assert [seat.position for seat in seats] == sorted(seat.position for seat in seats)
        assert kept_count == len(seats)
        if read is solo:
            assert None in users and any(seat.is_bot for seat in seats)
        else:
            assert sorted(getattr(seat, "has_conditional_lines") for seat in seats) == [False, True]  # noqa: B009
    assert sql_once.kept(selectors.GAME_SEATS_SQL) == [("default", connection.vendor)]


def test_seats_already_prefetched_are_not_read_again(game):
    fresh = Game.objects.prefetch_related(selectors.SEATS_WITH_USERS).get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        seats = selectors.game_seats(fresh)
    assert len(queries) == 0 and len(seats) == 2


def test_a_page_and_a_move_read_the_game_and_its_seats_once(game):
    mover = to_move(game)
    with CaptureQueriesContext(connection) as queries:
        page = selectors.game_for_viewer(game_id=game.pk, user=mover)
    game_reads = [q["sql"] for q in queries.captured_queries if 'FROM "games_game"' in q["sql"]]
    seat_reads = [q["sql"] for q in queries.captured_queries if 'FROM "games_seat"' in q["sql"]]
    assert len(game_reads) == 1 and len(seat_reads) == 1
    assert page.viewer_seat is not None and page.viewer_seat.user == mover and page.my_turn
    text = page.legal_moves[0].text
    with CaptureQueriesContext(connection) as queries:
        services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=game.ply)
    locked = [q for q in queries.captured_queries if 'FROM "games_game"' in q["sql"] and "FOR UPDATE" in q["sql"]]
    if connection.features.has_select_for_update:
        assert len(locked) == 1
    assert Game.objects.get(pk=game.pk).ply == game.ply + 1


def test_the_moves_are_the_orms_with_their_seats_and_game(game):
    assert selectors.game_moves(game) == []
    played = play(game, 4)
    sql_once.forget(selectors.GAME_MOVES_SQL)
    with CaptureQueriesContext(connection) as queries:
        moves = selectors.game_moves(played)
        seats = [move.seat for move in moves]  # with the moves: no query more
        games = [move.game for move in moves]  # the game given
    assert len(counted(queries)) == 1
    expected = list(played.moves.select_related("seat").order_by("ply"))
    assert [fields_of(move) for move in moves] == [fields_of(move) for move in expected]
    assert [fields_of(seat) for seat in seats] == [fields_of(move.seat) for move in expected]
    assert all(other is played for other in games)
    assert [move.ply for move in moves] == list(range(1, played.ply + 1))
    assert isinstance(moves[0].parts, dict)  # JSON read as the ORM reads it
    assert sql_once.kept(selectors.GAME_MOVES_SQL) == [("default", connection.vendor)]


def test_the_waiting_count_is_the_orms_for_none_one_and_several():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for _ in range(3):
        start_game(alice, bob)
    start_game(alice, carol)
    sql_once.forget(selectors.WAITING_COUNT_SQL)
    for user in (alice, bob, carol, make_user("dave")):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            counted_now = selectors.games_waiting_count(user=user)
        assert len(counted(queries)) == 1
        expected = Game.objects.filter(status="active", to_move_user=user).count()
        assert counted_now == expected and isinstance(counted_now, int)
    assert {selectors.games_waiting_count(user=u) for u in (alice, bob, carol)} != {0}
    assert sql_once.kept(selectors.WAITING_COUNT_SQL) == [("default", connection.vendor)]


def test_the_lobbys_challenges_read_through_sql_built_once_are_the_orms():
    """games.selectors.challenges_for_lobby for a signed-in player (no ``now``: the database's
    time) gives the ORM's challenges field by field, with their players: to them, by them, open
    to anyone but their own; expired and declined ones left out."""
    dora, eve, finn = make_user("dora"), make_user("eve"), make_user("finn")
    services.challenge_create(challenger=eve, kind="onitama", opponent=dora)
    services.challenge_create(challenger=dora, kind="maatatahay", opponent=finn, options={"variant": "first"})
    services.challenge_create(challenger=finn, kind="onitama")  # open to anyone
    services.challenge_create(challenger=dora, kind="onitama")  # dora's own open one: hers, not "open"
    declined = services.challenge_create(challenger=finn, kind="onitama", opponent=dora)
    services.challenge_decline(challenge_id=declined.pk, user=dora)
    expired = services.challenge_create(challenger=eve, kind="onitama", opponent=dora)
    Challenge.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    for name in ("incoming", "outgoing", "open_to_all"):
        sql_once.forget("lobby_challenges:%s:%d" % (name, selectors.LOBBY_CHALLENGES_SHOWN))
    for user in (dora, eve, finn):
        with CaptureQueriesContext(connection) as queries:
            read = selectors.challenges_for_lobby(user=user)
            players = [(c.challenger.username, c.opponent.username if c.opponent else None) for c in read.incoming]
        assert len(counted(queries)) == 3
        expected = selectors.challenges_for_lobby(user=user, now=timezone.now())  # the ORM's
        for name in ("incoming", "outgoing", "open_to_all"):
            got, want = getattr(read, name), getattr(expected, name)
            assert [fields_of(c) for c in got] == [fields_of(c) for c in want], (user, name)
            assert [(fields_of(c.challenger), c.opponent and fields_of(c.opponent)) for c in got] == [
                (fields_of(c.challenger), c.opponent and fields_of(c.opponent)) for c in want
            ]
        if user == dora:
            assert players == [("eve", "dora")]
            assert len(read.outgoing) == 2 and [c.challenger for c in read.open_to_all] == [finn]


def test_a_players_page_reads_its_position_and_who_has_moved_in_one_round_trip(game):
    """game_for_viewer reads the view, the move before, the legal moves and the sides that have
    moved (whether the game may be aborted) in one cache round trip; each answer is right
    before and after each side's first move, fresh or from the cache."""
    mover = to_move(game)
    other = next(seat.user for seat in game.seats.all() if seat.user != mover)
    for step in range(3):
        for user in (mover, other):
            for _ in range(2):  # the first read may fill the cache; the second reads it
                with mock.patch.object(selectors, "_sides_moved", side_effect=AssertionError("a read of its own")):
                    with mock.patch.object(cache, "get_many", wraps=cache.get_many) as get_manys:
                        page = selectors.game_for_viewer(game_id=game.pk, user=user)
                assert get_manys.call_count == 1
                assert page.can_abort == services.game_can_abort(Game.objects.get(pk=game.pk)), (step, user)
        if step < 2:
            game = play(game, 1)
            mover, other = other, mover


def test_a_game_page_reads_its_board_move_list_and_count_with_the_position(client, game):
    """The game page's board, move list and the header's count of games waiting come from the
    position's one cache round trip (games.views._page_kept_keys): a page seen before reads no
    other key, a page never seen draws them, and both draw the same, for each player, a
    spectator, an earlier position and another language; after a move, the new ones show."""
    mover = to_move(game)
    other = next(seat.user for seat in game.seats.all() if seat.user != mover)
    game = play(game, 2)
    mover = to_move(game)

    def page_of(user, path: str, language: str) -> tuple[str, list[str], int]:
        client.logout()
        if user is not None:
            client.force_login(user)
        with (
            mock.patch.object(cache, "get", wraps=cache.get) as gets,
            mock.patch.object(cache, "get_many", wraps=cache.get_many) as get_manys,
            mock.patch.object(cache, "set", wraps=cache.set) as sets,
            mock.patch.object(cache, "set_many", wraps=cache.set_many) as set_manys,
        ):
            html = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        drawn_keys = [":board:", "games:move-list:"]
        kept_together = [
            call.args[0] for call in set_manys.call_args_list if any(part in str(call.args[0]) for part in drawn_keys)
        ]
        in_set_many = {key for call in set_manys.call_args_list for key in call.args[0]}  # (local: a set per key)
        alone = [call.args[0] for call in sets.call_args_list if call.args[0] not in in_set_many]
        assert not [key for key in alone if any(part in key for part in drawn_keys)]
        assert len(kept_together) <= 1  # what the page drew, kept in one round trip
        drawn_kept = sum(1 for key in (kept_together[0] if kept_together else {}) if any(p in key for p in drawn_keys))
        assert get_manys.call_count == 1
        together = set(get_manys.call_args.args[0])  # (the local cache's get_many calls get per key)
        keys = [call.args[0] for call in gets.call_args_list if "session" not in call.args[0]]
        keys = [key for key in keys if key not in together]
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html), keys, drawn_kept

    for user in (mover, other, None):
        for path, language in (("/games/%d/" % game.pk, "en"), ("/games/%d/?ply=1" % game.pk, "ar")):
            cache.clear()
            drawn, _keys, drawn_kept = page_of(user, path, language)
            assert drawn_kept == 2  # the board and the move list, both kept at once
            kept, keys, kept_again = page_of(user, path, language)
            assert keys == [] and kept == drawn and kept_again == 0, (user, path)
            assert drawn.count('<ol class="turns">') == 1 and ("ply=2" in drawn) and "<svg" in drawn
            if user is not None:
                waiting = 1 if user == mover and "?ply" not in path else None
                if waiting is not None:
                    assert "Your move in 1 game" in kept
    before, _, _ = page_of(mover, "/games/%d/" % game.pk, "en")
    game = play(game, 1)
    after, _, _ = page_of(mover, "/games/%d/" % game.pk, "en")
    assert "ply=3" in after and "ply=3" not in before
    assert "Your move in 1 game" in before and "Your move in 0 games" in after
