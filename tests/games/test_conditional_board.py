"""Conditional lines entered on the board (issue 19): the position a line being entered leads
to, played by the engine from the game's position, for the player who may queue lines only."""

from __future__ import annotations

import pytest

import engine
from games import services
from games.models import ConditionalLines
from tests.factories import start_game, to_move

from .test_conditional_moves import after, legal

pytestmark = pytest.mark.django_db

RULES = engine.get_game("onitama")


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.fixture
def mover(game):
    return to_move(game)


@pytest.fixture
def waiter(game, alice, bob, mover):
    return bob if mover == alice else alice


def position(client, game, line: str = ""):
    return client.get("/games/%d/conditional/position.json" % game.pk, {"line": line})


def test_each_step_is_the_engine_position_with_its_moves(game, mover, waiter, client):
    client.force_login(waiter)
    state = services.game_state(game)
    start = position(client, game)
    assert start.status_code == 200 and start["Cache-Control"] == "private, no-store"
    body = start.json()
    mover_side = game.seats.get(user=mover).side
    waiter_side = game.seats.get(user=waiter).side
    assert body["line"] == [] and body["side"] == waiter_side and body["to_move"] == mover_side
    assert [move["text"] for move in body["moves"]] == legal(state)
    assert body["board"].startswith("<svg") and 'class="onitama-cards"' in body["extras"]
    assert "last-move" not in body["board"] and not body["over"] and not body["full"]

    theirs = next(t for t in legal(state) if RULES.move_parts(RULES.parse_move(state, t))["type"] == "move")
    step = position(client, game, theirs).json()
    parts = RULES.move_parts(RULES.parse_move(state, theirs))
    assert step["line"] == [theirs] and step["to_move"] == waiter_side
    assert [move["text"] for move in step["moves"]] == legal(after(state, theirs))
    assert 'class="space last-move" data-square="%s"' % parts["from"] in step["board"]
    assert 'class="space last-move" data-square="%s"' % parts["to"] in step["board"]

    line = [theirs]
    while len(line) < 6:
        line.append(legal(after(state, *line))[0])
    full = position(client, game, " ".join(line)).json()
    assert full["line"] == line and full["full"] and full["moves"] == []
    assert not ConditionalLines.objects.exists()  # nothing is kept of a line being entered


def test_a_bad_line_is_refused_naming_the_ply(game, waiter, client):
    client.force_login(waiter)
    theirs = legal(services.game_state(game))[0]
    bad = position(client, game, "%s boar:z9z9" % theirs)
    assert bad.status_code == 400 and bad.json()["error"] == "conditional_illegal"
    assert "Line 1, ply 2" in bad.json()["message"]
    too_long = position(client, game, " ".join([theirs] * 7))
    assert too_long.status_code == 400 and too_long.json()["error"] == "conditional_too_long"


def test_only_the_player_who_may_queue_lines_now(game, mover, waiter, carol, client):
    client.force_login(mover)  # to move: the line would start from nowhere
    assert position(client, game).status_code == 409
    client.force_login(carol)
    assert position(client, game).status_code == 403
    client.logout()
    assert position(client, game).status_code == 403
    client.force_login(waiter)
    assert client.get("/games/%d/conditional/position.json" % (game.pk + 999)).status_code == 404
    maata = start_game(mover, waiter, "maatatahay", {"variant": "first"})
    client.force_login(to_move(maata))
    refused = client.get("/games/%d/conditional/position.json" % maata.pk)
    assert refused.status_code == 400 and refused.json()["error"] == "conditional_not_available"
    services.game_resign(game_id=game.pk, user=mover)
    client.force_login(waiter)
    assert position(client, game).status_code == 409


def test_the_page_offers_the_board_only_to_the_player_who_may_queue(game, mover, waiter, client):
    client.force_login(waiter)
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert "games/conditional.js" in page and 'id="conditional-data"' in page
    assert "/games/%d/conditional/position.json" % game.pk in page
    client.force_login(mover)
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert "games/conditional.js" not in page and "conditional-data" not in page
