"""The previews of one square (games.views.game_previews) that the Maatatahay board fetches
when a space is chosen: the engine's previews of the legal moves on it, for the player to
move only (the opponent and spectators get nothing)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

import engine
from games import services
from games.rules import legal_moves_of
from tests.factories import make_user, start_game

pytestmark = pytest.mark.django_db


def placing_game():
    """A Maatatahay First game advanced to its first placement (pick, then first)."""
    game = start_game(make_user("mira"), make_user("nanda"), "maatatahay", {"variant": "first"})
    for _ in range(2):
        assert game.to_move_user is not None
        move = legal_moves_of(kind=game.kind, state=services.game_state(game))[0]
        services.move_submit(game_id=game.pk, user=game.to_move_user, move_text=move.text, expected_ply=game.ply)
        game.refresh_from_db()
    return game


def test_the_player_to_move_gets_the_engines_previews_of_one_square(client):
    game = placing_game()
    legal = legal_moves_of(kind=game.kind, state=services.game_state(game), previews=True)
    assert legal[0].parts["type"] == "place"
    square = str(legal[0].parts["square"])
    client.force_login(game.to_move_user)
    response = client.get(reverse("games:previews", args=[game.pk]), {"square": square})
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    body = json.loads(response.content)
    expected = [{"text": m.text, "preview": m.preview} for m in legal if m.parts.get("square") == square]
    assert body == {"ply": game.ply, "moves": expected} and len(expected) > 1
    # The page itself carries the moves without their previews.
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert '"preview"' not in page and "previews.json" in page


def test_the_opponent_and_spectators_get_no_previews(client):
    game = placing_game()
    url = reverse("games:previews", args=[game.pk])
    assert client.get(url, {"square": "a1"}).status_code == 403
    other = next(seat.user for seat in game.seats.all() if seat.user != game.to_move_user)
    client.force_login(other)
    assert client.get(url, {"square": "a1"}).status_code == 403
    assert client.get(reverse("games:previews", args=[game.pk + 1000])).status_code == 404


def test_only_the_chosen_squares_previews_are_computed(client, monkeypatch):
    """The endpoint never previews the whole position (every square's moves, a few ms to
    tens of ms in a crowded one): only the square asked for, still exactly the engine's."""
    game = placing_game()
    legal = legal_moves_of(kind=game.kind, state=services.game_state(game), previews=True)
    rules = type(engine.get_game(game.kind))

    def every_preview(self, state):
        raise AssertionError("the endpoint computed every preview of the position")

    monkeypatch.setattr(rules, "move_previews", every_preview)
    client.force_login(game.to_move_user)
    url = reverse("games:previews", args=[game.pk])
    for square in sorted({str(m.parts["square"]) for m in legal})[:5]:
        body = json.loads(client.get(url, {"square": square}).content)
        assert body["moves"] == [{"text": m.text, "preview": m.preview} for m in legal if m.parts["square"] == square]
    # A square nobody can place on, or none of the board, has no moves; no square: the moves on none.
    assert json.loads(client.get(url, {"square": "zz9"}).content)["moves"] == []
    assert json.loads(client.get(url, {"square": ""}).content)["moves"] == []


def test_a_pick_is_previewed_with_no_square(client):
    game = start_game(make_user("mira"), make_user("nanda"), "maatatahay", {"variant": "first"})
    legal = legal_moves_of(kind=game.kind, state=services.game_state(game), previews=True)
    assert legal and all(m.parts["type"] == "pick" for m in legal)
    client.force_login(game.to_move_user)
    body = json.loads(client.get(reverse("games:previews", args=[game.pk])).content)
    assert body == {"ply": game.ply, "moves": [{"text": m.text, "preview": m.preview} for m in legal]}
