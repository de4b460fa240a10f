import json
import re
from html import unescape

import pytest
from django.test import Client
from django.utils.html import escape

import engine
from games import services
from games.models import Challenge, Game, GameStatus

from .conftest import first_legal, play, start_game

pytestmark = pytest.mark.django_db


def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Onitama" in response.content.decode() and "Maatatahay" in response.content.decode()


def test_lobby_needs_login_and_lists_my_turn_first(client, alice, bob, carol):
    assert client.get("/lobby/").status_code == 302
    waiting = play(start_game(alice, bob), 0)
    if waiting.to_move_user == alice:
        play(waiting, 1)
    mine = start_game(alice, carol)
    if mine.to_move_user != alice:
        mine = play(mine, 1)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    rows = re.findall(r'data-game="(\d+)"', html)
    assert rows.index(str(mine.pk)) < rows.index(str(waiting.pk))
    assert "Your turn" in html


def test_challenge_and_solo_forms(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/challenges/new/",
        {
            "challenge-kind": "onitama",
            "challenge-opponent": "bob",
            "challenge-days_per_move": "7",
            "challenge-rated": "0",
            "challenge-seat_choice": "red",
            "challenge-cards": "senseis_path",
        },
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.opponent, challenge.days_per_move, challenge.rated, challenge.options) == (
        bob,
        7,
        False,
        {"cards": "senseis_path"},
    )
    bad = client.post(
        "/challenges/new/",
        {
            "challenge-kind": "onitama",
            "challenge-opponent": "nobody",
            "challenge-days_per_move": "3",
            "challenge-rated": "1",
            "challenge-seat_choice": "wazu",
        },
    )
    assert bad.status_code == 400
    response = client.post(
        "/solo/new/", {"solo-kind": "onitama", "solo-level": "2", "solo-seat_choice": "blue", "solo-cards": "base"}
    )
    game = Game.objects.get(bot_level=2)
    assert response.status_code == 302 and response["Location"] == "/games/%d/" % game.pk
    client.force_login(bob)
    response = client.post("/challenges/%d/accept/" % challenge.pk)
    assert response.status_code == 302
    assert Challenge.objects.get().game is not None


@pytest.mark.parametrize(
    "kind, options",
    [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"}), ("maatatahay", {"variant": "standard"})],
)
def test_game_page_board_and_legal_moves(client, alice, bob, kind, options):
    game = play(start_game(alice, bob, kind, options), 4)
    client.force_login(game.to_move_user)
    html = client.get("/games/%d/" % game.pk).content.decode()
    assert "<svg" in html and 'data-square="c3"' in html
    rules = engine.get_game(kind)
    legal = rules.legal_moves(services.game_state(game))
    # The legal moves are data for the board's scripts (text and the engine's parts), not a list.
    data = move_data(html)
    assert [m["text"] for m in data["moves"]] == [rules.move_text(m) for m in legal]
    assert [m["parts"] for m in data["moves"]] == [rules.move_parts(m) for m in legal]
    assert data["side"] == game.to_move_side and 'type="radio"' not in html
    assert 'name="move_typed"' in html and 'href="/games/%d/moves/"' % game.pk in html
    assert 'name="expected_ply" value="%d"' % game.ply in html
    # The last move is named above the board and its squares are highlighted.
    last = game.moves.get(ply=game.ply)
    assert "<code>%s</code>" % last.text in html
    squares = [
        v
        for k, v in engine.get_game(kind).move_parts(rules.parse_move(replay_to(game, game.ply - 1), last.text)).items()
        if k in ("from", "to", "square")
    ]
    for square in squares:
        assert re.search(r'class="space last-move" data-square="%s"' % square, html)
    spectator = client.get("/games/%d/?ply=2" % game.pk)
    assert spectator.status_code == 200
    assert "position after ply 2" in spectator.content.decode()
    client.logout()
    anonymous = client.get("/games/%d/" % game.pk).content.decode()
    assert 'id="move-data"' not in anonymous and 'id="move-form"' not in anonymous


@pytest.mark.parametrize(
    "kind, options",
    [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"}), ("maatatahay", {"variant": "standard"})],
)
def test_the_last_move_is_highlighted_from_its_kept_parts_without_a_replay(
    client, alice, bob, kind, options, monkeypatch
):
    """Each move keeps the engine's parts as it was played, so the page names and highlights
    the last move without replaying the game; a move recorded before parts were kept (empty)
    is still read back by a replay."""
    from games import selectors

    game = play(start_game(alice, bob, kind, options), 4)
    rules = engine.get_game(kind)
    for record in game.moves.all():
        assert record.parts == rules.move_parts(rules.parse_move(replay_to(game, record.ply - 1), record.text))
    last = game.moves.get(ply=game.ply)
    squares = [v for k, v in last.parts.items() if k in ("from", "to", "square")]

    def no_replay(*args, **kwargs):
        raise AssertionError("the page replayed the game to find the last move")

    client.force_login(alice)
    with monkeypatch.context() as patched:
        patched.setattr(selectors, "replay", no_replay)
        page = selectors.game_for_viewer(game_id=game.pk, user=alice)
        assert page.last_move is not None and page.last_move.parts == last.parts
        html = client.get("/games/%d/" % game.pk).content.decode()
    assert "<code>%s</code>" % last.text in html
    for square in squares:
        assert re.search(r'class="space last-move" data-square="%s"' % square, html)
    game.moves.update(parts={})
    page = selectors.game_for_viewer(game_id=game.pk, user=alice)
    assert page.last_move is not None and page.last_move.parts == last.parts


def move_data(html: str) -> dict:
    found = re.search(r'<script id="move-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page holds no move data"
    return json.loads(found.group(1))


def replay_to(game, ply):
    from engine.core import replay
    from games.rules import game_secret

    return replay(
        engine.get_game(game.kind),
        game_secret(game)[1],
        game.options,
        [m.text for m in game.moves.order_by("ply")[:ply]],
        data_version=game.data_version or None,
    )


def test_the_legal_moves_page_lists_them_paged_for_the_player_to_move_only(client, alice, bob, carol):
    game = play(start_game(alice, bob, "maatatahay", {"variant": "standard"}), 4)
    rules = engine.get_game(game.kind)
    legal = [rules.move_text(m) for m in rules.legal_moves(services.game_state(game))]
    url = "/games/%d/moves/" % game.pk
    client.force_login(game.to_move_user)
    listed: list[str] = []
    page = 1
    while True:
        html = client.get(url, {"page": page}).content.decode()
        listed += [unescape(t) for t in re.findall(r'<tr class="legal-move-row">\s*<td><code>(.*?)</code>', html)]
        if 'rel="next"' not in html:
            break
        page += 1
    assert listed == legal and (len(legal) <= 50 or page > 1)
    # Choosing one goes back to the game page with it in the notation field.
    html = client.get("/games/%d/" % game.pk, {"move": legal[-1]}).content.decode()
    assert 'name="move_typed" value="%s"' % escape(legal[-1]) in html
    square = next(
        s
        for m in rules.legal_moves(services.game_state(game))
        for k, s in rules.move_parts(m).items()
        if k in ("from", "to", "square")
    )
    filtered = client.get(url, {"square": square}).content.decode()
    assert 0 < filtered.count('class="legal-move-row"') <= min(50, len(legal))
    client.force_login(carol)  # a spectator: no list, nor the moves of another player
    assert 'class="legal-move-row"' not in client.get(url).content.decode()
    client.force_login(game.seats.exclude(user=game.to_move_user).get().user)
    assert 'class="legal-move-row"' not in client.get(url).content.decode()


def test_move_by_post_and_409_on_a_stale_form(client, onitama_game):
    game = onitama_game
    mover = game.to_move_user
    client.force_login(mover)
    text = first_legal(game)
    response = client.post("/games/%d/move/" % game.pk, {"move": text, "expected_ply": "0"})
    assert response.status_code == 302
    again = client.post("/games/%d/move/" % game.pk, {"move": text, "expected_ply": "0"})
    assert again.status_code == 409
    assert "moved on" in again.content.decode()
    # The page has one answer: asking it for JSON gets the page (JSON clients use the API).
    json_again = client.post(
        "/games/%d/move/" % game.pk, {"move": text, "expected_ply": "0"}, HTTP_ACCEPT="application/json"
    )
    assert json_again.status_code == 409 and json_again["Content-Type"].startswith("text/html")
    assert "moved on" in json_again.content.decode()
    assert Game.objects.get(pk=game.pk).ply == 1


def test_illegal_move_by_post_shows_the_translated_message(client, onitama_game):
    game = onitama_game
    client.force_login(game.to_move_user)
    response = client.post("/games/%d/move/" % game.pk, {"move_typed": "tiger:a1a1", "expected_ply": "0"})
    assert response.status_code == 400
    assert 'data-code="' in response.content.decode()
    assert Game.objects.get(pk=game.pk).ply == 0


def test_resign_button(client, onitama_game, alice):
    client.force_login(alice)
    response = client.post("/games/%d/resign/" % onitama_game.pk)
    assert response.status_code == 302
    assert Game.objects.get(pk=onitama_game.pk).status == GameStatus.FINISHED
    page = client.get("/games/%d/" % onitama_game.pk).content.decode()
    assert "You lost: you resigned" in page  # the resigner's own result
    spectator = Client().get("/games/%d/" % onitama_game.pk).content.decode()
    assert "won: resignation" in spectator


def test_history_page(client, onitama_game, alice):
    services.game_resign(game_id=onitama_game.pk, user=alice)
    html = client.get("/history/alice/").content.decode()
    assert "/games/%d/" % onitama_game.pk in html and "lost" in html


def test_the_history_page_of_a_deleted_player_is_gone(client, onitama_game, alice, bob):
    """A deleted player has no public page: their history 404s like /players/<name>/."""
    from django.contrib.auth import get_user_model

    from privacy.services import account_delete

    services.game_resign(game_id=onitama_game.pk, user=alice)
    assert client.get("/history/alice/").status_code == 200
    assert client.get("/history/bob/").status_code == 200
    account_delete(user=alice, password="pw-alice-123456")
    deleted_name = get_user_model().objects.get(pk=alice.pk).username
    assert deleted_name.startswith("deleted-")
    assert client.get("/history/%s/" % deleted_name).status_code == 404
    assert client.get("/history/alice/").status_code == 404
    assert client.get("/history/bob/").status_code == 200  # the opponent's page stays


def test_player_page_lists_finished_games(client, onitama_game, alice):
    services.game_resign(game_id=onitama_game.pk, user=alice)
    from django.urls import reverse

    html = client.get(reverse("players:detail", args=["alice"])).content.decode()
    assert "/games/%d/" % onitama_game.pk in html


def test_status_endpoint_tells_the_ply_and_nothing_secret(client, onitama_game):
    data = client.get("/games/%d/status.json" % onitama_game.pk).json()
    assert data == {
        "id": onitama_game.pk,
        "ply": 0,
        "turn": 1,
        "status": "active",
        "to_move": onitama_game.to_move_side,
    }
    assert client.get("/games/999999/status.json").status_code == 404


def test_spectators_see_the_board_without_forms(client, onitama_game):
    html = client.get("/games/%d/" % onitama_game.pk).content.decode()
    assert "<svg" in html and 'id="move-form"' not in html and "/resign/" not in html
    assert client.post("/games/%d/resign/" % onitama_game.pk).status_code == 302  # to the login page
    assert Game.objects.get(pk=onitama_game.pk).status == GameStatus.ACTIVE


def test_admin_search_by_player(client, onitama_game):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123456")
    client.force_login(staff)
    response = client.get("/admin/games/game/?q=alice")
    assert response.status_code == 200 and "/admin/games/game/%d/change/" % onitama_game.pk in response.content.decode()


def test_the_game_page_says_the_bot_is_thinking_while_it_waits_for_its_move(client, alice, bob):
    """With a real worker the bot's move comes after the mover's request: the page says so and
    polls (data-poll, static/games/game.js). Here on_commit never fires, so the bot never plays."""
    client.force_login(alice)
    client.post(
        "/solo/new/", {"solo-kind": "onitama", "solo-level": "1", "solo-seat_choice": "blue", "solo-cards": "base"}
    )
    game = Game.objects.get(bot_level=1)
    if game.to_move_user == alice:
        game = play(game, 1)
    assert game.to_move_user is None and game.status == GameStatus.ACTIVE
    html = client.get("/games/%d/" % game.pk).content.decode()
    assert 'class="bot-thinking"' in html and "The bot is thinking" in html and 'data-poll="1"' in html
    human = start_game(alice, bob, "onitama", {"cards": "base"})
    if human.to_move_user == alice:
        human = play(human, 1)
    assert 'class="bot-thinking"' not in client.get("/games/%d/" % human.pk).content.decode()


def test_the_player_page_lists_the_players_finished_games_from_the_games_app(client, alice, bob):
    running = start_game(alice, bob)
    finished = start_game(alice, bob)
    services.game_resign(game_id=finished.pk, user=bob)
    html = client.get("/players/alice/").content.decode()
    section = html[html.index('class="player-games"') :]
    assert "/games/%d/" % finished.pk in section and "/games/%d/" % running.pk not in section
    assert "/history/alice/" in section


@pytest.mark.django_db
def test_a_pending_draw_offer_is_read_with_the_game_and_shown_to_both_players(alice, bob):
    """The page reads the offer in the game's own query (games.selectors.PENDING_DRAW_OFFER):
    the one asked sees the answers, the one who asked sees that it waits, and the API the same."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from api import services as api_services

    game = start_game(alice, bob, "onitama", {"cards": "base"})
    services.draw_offer(game_id=game.pk, user=alice)
    asked, asker = Client(), Client()
    asked.force_login(bob)
    asker.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        page = asked.get("/games/%d/" % game.pk)
    assert page.status_code == 200
    reads = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in reads if sql.startswith('SELECT "games_drawoffer"')]
    assert [sql for sql in reads if sql.startswith('SELECT "games_game"') and '"games_drawoffer"' in sql]
    html = page.content.decode()
    assert "/draw/accept/" in html and "/draw/decline/" in html
    mine = asker.get("/games/%d/" % game.pk).content.decode()
    assert "/draw/accept/" not in mine and "/draw/offer/" not in mine
    _token, secret = api_services.token_create(user=bob, name="app", scopes=["read"])
    detail = Client().get("/api/v1/games/%d/" % game.pk, HTTP_AUTHORIZATION="Bearer " + secret).json()
    alice_side = game.seats.get(user=alice).side
    assert detail["draw_offer"] == {"side": alice_side, "ply": game.ply, "to_you": True}
    services.draw_decline(game_id=game.pk, user=bob)
    assert "/draw/accept/" not in asked.get("/games/%d/" % game.pk).content.decode()


def test_the_move_list_links_every_ply_by_turn_and_marks_the_one_shown(client, alice, bob):
    """games.views._move_list_items: one item per turn with its side, a link per move to the
    position after it (its title names the ply, in the page's language), the shown one marked."""
    game = start_game(alice, bob)
    client.force_login(alice)
    empty = client.get("/games/%d/" % game.pk).content.decode()
    assert "No moves yet." in empty and '<ol class="turns">' not in empty
    game = play(game, 5)
    moves = list(game.moves.select_related("seat").order_by("ply"))

    def move_list(path: str, **headers: str) -> str:
        html = client.get(path, **headers).content.decode()
        found = re.search(r'<section class="move-list".*?</section>', html, re.S)
        assert found is not None
        return found.group(0)

    shown = move_list("/games/%d/?ply=2" % game.pk)
    links = re.findall(r'<a href="\?ply=(\d+)" class="(ply(?: current)?)" title="ply (\d+)">([^<]*)</a>', shown)
    assert [int(ply) for ply, _c, _t, _m in links] == [m.ply for m in moves]
    assert [int(title) for _p, _c, title, _m in links] == [m.ply for m in moves]
    assert [unescape(text) for _p, _c, _t, text in links] == [m.text for m in moves]
    assert [css for _p, css, _t, _m in links].count("ply current") == 1 and links[1][1] == "ply current"
    turns = re.findall(r'<li value="(\d+)"><span class="muted">([^<]*)</span>', shown)
    assert [int(turn) for turn, _side in turns] == sorted({m.turn for m in moves})
    assert "No moves yet." not in shown
    current = move_list("/games/%d/" % game.pk)  # the last ply shown
    assert re.findall(r'class="ply current" title="ply (\d+)"', current) == [str(game.ply)]
    arabic = move_list("/games/%d/?ply=1" % game.pk, HTTP_ACCEPT_LANGUAGE="ar")
    assert 'title="ply 1"' not in arabic and arabic.count('href="?ply=') == len(moves)
