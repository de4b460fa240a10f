"""The lists of games come a page at a time, in a number of queries that does not grow
with a player's games: the lobby ("your turn" games first, then the rest, paged), the
history page, and the API's game lists. The game page itself and its status poll cost a
constant number of queries too. Queries are counted, never timed."""

from __future__ import annotations

import re
from html import unescape
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.formats import date_format

from chat import services as chat_services
from engine import fair, get_game
from games import selectors, services
from games.models import Game, GameStatus
from tests.factories import to_move

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<li class="game-row( my-turn)?" data-game="(\d+)"')


def give_running(player, count: int, prefix: str) -> list[int]:
    """``count`` running Onitama games against new players, ``player`` on either side in
    turn (the deal decides who moves first: deal ``index`` is fixed, so every run, and every
    player given games here, gets the same games). Their ids, oldest first."""
    ids = []
    first, second = get_game("onitama").players
    for index in range(count):
        other = make_user("%s%d" % (prefix, index))
        seats = {first: player, second: other} if index % 2 == 0 else {first: other, second: player}
        with mock.patch.object(fair, "new_seed", return_value=1000 + index):
            game = services.game_create(kind="onitama", seats=seats, options={"cards": "base"}, days_per_move=3)
        ids.append(game.pk)
    return ids


def give_finished(player, count: int, prefix: str) -> None:
    for game_id in give_running(player, count, prefix):
        services.game_resign(game_id=game_id, user=player)


def counted(client, path: str) -> tuple[int, str]:
    client.get(path)  # warm per-process caches (content types, translations) out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(queries), response.content.decode()


def test_the_lobby_lists_your_turn_games_first_a_page_at_a_time_in_constant_queries(client):
    few, many = make_user("few"), make_user("many")
    give_running(few, 4, "f")
    many_ids = give_running(many, selectors.LOBBY_PAGE_SIZE + 10, "m")

    client.force_login(few)
    few_count, few_html = counted(client, "/lobby/")
    client.force_login(many)
    many_count, many_html = counted(client, "/lobby/")
    second_count, second_html = counted(client, "/lobby/?page=2")

    assert len(ROW.findall(few_html)) == 4
    first_rows, second_rows = ROW.findall(many_html), ROW.findall(second_html)
    assert len(first_rows) == selectors.LOBBY_PAGE_SIZE and len(second_rows) == 10
    # every running game once over the two pages, "your turn" ones all before the rest
    assert sorted(int(pk) for _turn, pk in first_rows + second_rows) == sorted(many_ids)
    turns = [bool(turn) for turn, _pk in first_rows + second_rows]
    waiting = selectors.games_waiting_count(user=many)
    assert 0 < waiting < len(many_ids) and turns.count(True) == waiting
    assert turns == sorted(turns, reverse=True)
    assert 'rel="next"' in many_html and 'rel="prev"' in second_html
    assert many_count == few_count == second_count, (few_count, many_count, second_count)


def test_a_bad_lobby_page_number_shows_a_page_not_an_error(client):
    player = make_user("pager")
    give_running(player, 3, "p")
    client.force_login(player)
    for page in ("0", "-1", "abc", "99999999999999999999", "2"):
        response = client.get("/lobby/", {"page": page})
        assert response.status_code == 200
        assert len(ROW.findall(response.content.decode())) == 3


def test_the_history_page_is_paged_in_constant_queries(client):
    few, many = make_user("few"), make_user("many")
    give_finished(few, 3, "f")
    give_finished(many, selectors.HISTORY_PAGE_SIZE + 5, "m")

    few_count, few_html = counted(client, "/history/few/")
    many_count, many_html = counted(client, "/history/many/")
    last_count, last_html = counted(client, "/history/many/?page=2")

    rows = re.compile(r'<a href="/games/(\d+)/">')
    assert len(rows.findall(few_html)) == 3
    assert len(rows.findall(many_html)) == selectors.HISTORY_PAGE_SIZE and len(rows.findall(last_html)) == 5
    assert not set(rows.findall(many_html)) & set(rows.findall(last_html))
    assert many_count == few_count == last_count, (few_count, many_count, last_count)


def test_the_game_page_and_its_status_cost_the_same_queries_in_a_short_and_a_long_game(client):
    """The page reads the game, its seats and its moves once each, whatever their number
    (a query per move or per seat would grow here)."""
    player, other = make_user("long"), make_user("short")
    short = start_game(player, other, seed=11)
    long = play(start_game(player, other, seed=11), 8)
    assert long.is_active and long.ply == 8 and long.to_move_user == short.to_move_user
    client.force_login(long.to_move_user)
    short_count, _ = counted(client, "/games/%d/" % short.pk)
    long_count, long_html = counted(client, "/games/%d/" % long.pk)
    assert len(re.findall(r'class="ply( current)?"', long_html)) == 8
    assert short_count == long_count, (short_count, long_count)
    # a page seen before: the user, the game (with whether its chat has messages: none here, so
    # they are not read) and its seats (with the blocks between its players:
    # chat.selectors.conversation_for reads them there)
    assert long_count == 3, long_count
    chat_services.message_create(game_id=long.pk, author=player, text="good luck")
    with_chat, chat_html = counted(client, "/games/%d/" % long.pk)
    assert with_chat == 4 and "good luck" in chat_html, with_chat  # ... and then the chat's messages
    status_short, _ = counted(client, "/games/%d/status.json" % short.pk)
    status_long, _ = counted(client, "/games/%d/status.json" % long.pk)
    # the poll reads the game's row only: not the session or the user (accounts.middleware.reads_no_user)
    assert status_short == status_long == 1


def test_the_api_game_lists_cost_the_same_queries_for_few_and_many_games(client):
    few, many = make_user("few"), make_user("many")
    give_running(few, 3, "f")
    give_running(many, 30, "m")
    give_finished(many, 5, "mf")
    # Each has games on its turn (an empty page skips its prefetches, which a random deal once
    # gave "few" and its count dropped) and games on the other's.
    for player in (few, many):
        turns = {g.to_move_user == player for g in Game.objects.filter(seats__user=player, status=GameStatus.ACTIVE)}
        assert turns == {True, False}, player
    counts = []
    for player in (few, many):
        client.force_login(player)
        for path in ("/api/v1/games/?mine=true", "/api/v1/games/?my_turn=true", "/api/v1/players/%s/games/" % player):
            count, _body = counted(client, path)
            counts.append((path.replace(str(player), "<player>"), count))
    few_counts, many_counts = counts[:3], counts[3:]
    assert [c for _p, c in few_counts] == [c for _p, c in many_counts], counts


def test_the_status_poll_answers_304_to_its_etag_until_the_game_moves(client):
    game = start_game(make_user("st1"), make_user("st2"), seed=5)
    first = client.get("/games/%d/status.json" % game.pk)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get("/games/%d/status.json" % game.pk, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert client.get("/games/%d/status.json" % game.pk, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    play(game, 1)
    moved = client.get("/games/%d/status.json" % game.pk, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved.json()["ply"] == 1 and moved["ETag"] != etag
    # the body is the game row's, read through its SQL built once: the ORM's values
    row = Game.objects.get(pk=game.pk)
    expected = {"id": row.pk, "ply": row.ply, "turn": row.turn, "status": row.status, "to_move": row.to_move_side}
    assert moved.json() == expected and expected["to_move"]
    services.game_resign(game_id=game.pk, user=to_move(row))
    ended = client.get("/games/%d/status.json" % game.pk).json()
    assert ended["status"] != "active" and ended["to_move"] is None  # no side to move: null, not ""
    assert client.get("/games/%d/status.json" % (game.pk + 1000)).status_code == 404


def test_the_status_poll_of_a_signed_in_player_answers_in_the_browsers_language_without_reading_the_user(client):
    """The poll skips the user's saved preferences (it reads no user): its answer is the same
    for everyone, and an unknown game's message comes in the language the browser asks for."""
    player = make_user("st3")
    player.language = "ar"
    player.save(update_fields=["language"])
    client.force_login(player)
    game = start_game(player, make_user("st4"), seed=5)
    assert client.get("/games/%d/status.json" % game.pk).json()["id"] == game.pk
    missing = client.get("/games/%d/status.json" % (game.pk + 1000), HTTP_ACCEPT_LANGUAGE="en")
    assert missing.status_code == 404
    # a page that does read the user still takes its saved language
    assert 'lang="ar"' in client.get("/games/%d/" % game.pk, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_game_page_shows_the_position_after_each_move_and_a_resignation(client):
    """The position read from the cache is the game's current one: a move, and a
    resignation at the same ply, each show at once."""
    white, black = make_user("cw"), make_user("cb")
    game = start_game(white, black, seed=7)
    client.force_login(game.to_move_user)
    before = client.get("/games/%d/" % game.pk).content.decode()
    assert 'id="move-form"' in before and 'data-ply="0"' in before
    game = play(game, 1)
    after = client.get("/games/%d/" % game.pk).content.decode()
    assert 'data-ply="1"' in after and 'id="move-form"' not in after
    services.game_resign(game_id=game.pk, user=white)
    ended = client.get("/games/%d/" % game.pk).content.decode()
    assert 'data-status="finished"' in ended and 'id="move-form"' not in ended


def test_the_lobby_shows_the_newest_challenges_only_in_constant_queries(client, monkeypatch):
    """However many challenges a player receives or sends, the lobby reads a bounded number
    of each (the newest), in the same queries."""
    monkeypatch.setattr(selectors, "LOBBY_CHALLENGES_SHOWN", 3)
    player = make_user("wanted")
    client.force_login(player)

    def challenge(count: int, prefix: str) -> None:
        for index in range(count):
            services.challenge_create(challenger=make_user("%s%d" % (prefix, index)), kind="onitama", opponent=player)
            services.challenge_create(challenger=player, kind="onitama", opponent=make_user("%so%d" % (prefix, index)))

    challenge(1, "a")
    few_count, few_html = counted(client, "/lobby/")
    challenge(6, "b")
    many_count, many_html = counted(client, "/lobby/")
    incoming = re.compile(r"(\w+) challenges you to")
    assert incoming.findall(few_html) == ["a0"]
    assert incoming.findall(many_html) == ["b5", "b4", "b3"]  # the newest first
    assert few_count == many_count, (few_count, many_count)


def test_a_move_reads_the_games_seats_once_and_its_api_answer_reads_the_game_no_more(client):
    """A move's checks, its turn change, the webhooks' nudge and the API's answer share one
    read of the seats (games.selectors.game_seats), and the answer does not read the game's
    row again after the move wrote it."""
    from api import services as api_services

    white, black = make_user("sw"), make_user("sb")
    game = start_game(white, black, seed=7)
    for path in ("form", "api"):
        game.refresh_from_db()
        mover = game.to_move_user
        text = selectors.game_for_viewer(game_id=game.pk, user=mover).legal_moves[0].text
        client.force_login(mover)
        token = api_services.token_create(user=mover, name="t", scopes=["read", "play"])[1]
        with CaptureQueriesContext(connection) as queries:
            if path == "form":
                response = client.post("/games/%d/move/" % game.pk, {"expected_ply": game.ply, "move": text})
                assert response.status_code == 302
            else:
                response = client.post(
                    "/api/v1/games/%d/moves/" % game.pk,
                    {"move": text, "ply": game.ply},
                    content_type="application/json",
                    HTTP_AUTHORIZATION="Bearer " + token,
                )
                assert response.status_code == 201, response.content
                assert response.json()["game"]["ply"] == game.ply + 1
        sqls = [q["sql"] for q in queries.captured_queries]
        assert len([q for q in sqls if 'FROM "games_seat"' in q]) == 1, (path, sqls)
        assert len([q for q in sqls if q.startswith('SELECT "games_game"')]) == 1, (path, sqls)


def test_a_lobby_row_says_the_game_variant_opponent_side_turn_and_time_left(client):
    """games.views._lobby_rows_html: each row links its game and names its variant, the
    opponent, the player's side, whose turn it is and the time left (its deadline as a title),
    in the page's language."""
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, "maatatahay", options={"variant": "first"})
    game.refresh_from_db()
    my_side = next(seat.side for seat in game.seats.all() if seat.user_id == alice.pk)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    row = re.search(r'<li class="game-row[^"]*" data-game="%d">(.*?)</li>' % game.pk, html, re.S)
    assert row is not None
    text = row.group(1)
    assert '<a href="/games/%d/">Maatatahay #%d</a>' % (game.pk, game.pk) in text
    assert '<span class="variant">(First Game)</span>' in text
    assert "against %s" % next(seat.player_name for seat in game.seats.all() if seat.user_id == bob.pk) in text
    assert "(you play %s)" % my_side.capitalize() in text
    mine = game.to_move_user_id == alice.pk
    assert ('<strong class="badge">Your turn</strong>' in text) is mine
    assert ('<span class="muted">Waiting for the opponent</span>' in text) is not mine
    title = re.search(r'<span class="time-left" title="([^"]*)">([^<]*)</span>', text)
    assert title is not None
    assert unescape(title.group(1)) == date_format(timezone.localtime(game.deadline), "DATETIME_FORMAT")
    assert re.fullmatch(r"\d+ days?, \d+ hours?", title.group(2))
    arabic = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert (
        "Your turn" not in arabic and "Waiting for the opponent" not in arabic and 'data-game="%d"' % game.pk in arabic
    )


def test_lobby_rows_that_share_labels_read_as_each_row_drawn_alone():
    """_lobby_rows_html looks each label up once for the rows that share it: the rows drawn
    together read exactly as each drawn alone, in English and Arabic, and two times left with
    one key (_timeleft_key) read the same."""
    from datetime import timedelta

    from django.utils import translation

    from games.templatetags.games_tags import timeleft
    from games.views import _lobby_rows_html, _timeleft_key

    now = timezone.now()
    shapes = [
        ("onitama", {"cards": "base"}, "red", True, timedelta(days=3, hours=2, minutes=5)),
        ("onitama", {"cards": "base"}, "blue", False, timedelta(days=3, hours=2, minutes=50)),
        ("onitama", {"cards": "senseis_path"}, "red", False, timedelta(minutes=30)),
        ("maatatahay", {"variant": "first"}, "wazu", True, timedelta(hours=5)),
        ("maatatahay", {"variant": "standard"}, "balan", False, timedelta(seconds=-5)),
        ("maatatahay", {"variant": "first"}, "balan", True, None),
    ]
    rows = [
        selectors.LobbyGame(
            game=Game(pk=100 + n, kind=kind, options=options, deadline=None if left is None else now + left),
            my_side=side,
            my_turn=mine,
            opponent="rival <%d>" % n,
            time_left=left,
        )
        for n, (kind, options, side, mine, left) in enumerate(shapes)
    ]
    for language in ("en", "ar"):
        with translation.override(language):
            together = _lobby_rows_html(rows)
            assert together == "".join(_lobby_rows_html([row]) for row in rows)
            assert together.count('class="game-row') == 6 and "rival &lt;0&gt;" in together
    for seconds in range(-120, 3 * 86400, 97):
        a, b = timedelta(seconds=seconds), timedelta(seconds=seconds + 7)
        if _timeleft_key(a) == _timeleft_key(b):
            assert timeleft(a) == timeleft(b), seconds


HISTORY = re.compile(
    r'<li><a href="/games/(\d+)/">([^<]+) #\d+</a>\s*([^:]*):\s*(\S+) <span class="muted">\(([^)]*)\)</span></li>'
)


def test_the_lobbys_recent_games_say_the_opponent_the_result_and_why_as_the_player_saw_them(client):
    """The lobby's recent finished games (drawn by games.views._lobby_history_html): latest
    first, each with its link, the opponents' names, the result for this player and
    why the game ended, in the player's language."""
    dora = make_user("dora")
    rivals = {name: make_user(name) for name in ("won", "lost", "drawn", "aborted")}
    finished = {}
    for name, rival in rivals.items():
        game = start_game(dora, rival, "onitama")
        if name == "won":
            services.game_resign(game_id=game.pk, user=rival)
        elif name == "lost":
            services.game_resign(game_id=game.pk, user=dora)
        elif name == "drawn":
            game = play(game, 2)
            offerer = to_move(game)
            services.draw_offer(game_id=game.pk, user=offerer)
            services.draw_accept(game_id=game.pk, user=rival if offerer == dora else dora)
        else:
            services.game_abort(game_id=game.pk, user=dora)
        finished[name] = Game.objects.get(pk=game.pk)
    client.force_login(dora)
    rows = HISTORY.findall(client.get("/lobby/").content.decode())
    latest_first = sorted(finished.values(), key=lambda g: (g.finished_at or timezone.now(), g.pk), reverse=True)
    assert [int(row[0]) for row in rows] == [g.pk for g in latest_first]
    by_id = {int(row[0]): row for row in rows}
    expected = {"won": "won", "lost": "lost", "drawn": "draw", "aborted": "aborted"}
    for name, game in finished.items():
        _pk, kind, against, result, reason = by_id[game.pk]
        assert kind == "Onitama" and result == expected[name], name
        assert unescape(against) == "against %s" % rivals[name].get_username(), name
        assert reason and reason == unescape(reason), name
    arabic = HISTORY.findall(client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="ar").content.decode())
    assert len(arabic) == 4 and all(row[3] not in ("won", "lost", "draw", "aborted") for row in arabic)
