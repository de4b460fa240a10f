"""The pictures of mail: what they show (the recipient's own view, turned to them, the last
move marked, Onitama's cards, Maatatahay's stream, tracks and storages), their size, their
storage (drawn once per game, ply and player after each move, replaced on the next) and
that nothing hidden reaches them."""

from __future__ import annotations

import io
import re
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone
from PIL import Image

import engine
from correspondence import pictures, services
from correspondence.models import MailPicture
from engine.fair import SeedStream
from games.models import Game
from games.rules import game_state
from tests.factories import first_legal, make_user, play, start_game, to_move

pytestmark = pytest.mark.django_db


def _seat(game: Game, user):
    return next(seat for seat in game.seats.all() if seat.user_id == user.pk)


def _svg(game: Game, user) -> str:
    seat = _seat(game, user)
    view = pictures.player_view(game, seat)
    last = pictures.last_move_of(game=game)
    return pictures.picture_svg(
        kind=game.kind, view=view, flip=seat.position == 1, last=last.squares if last is not None else ()
    )


def _png_facts(png: bytes) -> tuple[str, int, int]:
    image = Image.open(io.BytesIO(png))
    return image.mode, len(image.getcolors(256) or []), len(png)


def test_an_onitama_picture_shows_both_hands_the_side_card_and_the_last_move(alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=11)
    play(game, 1)
    game.refresh_from_db()
    view = game_state(game)
    rules = engine.get_game("onitama")
    public: Any = rules.view(view, "red")
    for user in (alice, bob):
        svg = _svg(game, user)
        cards = re.findall(r'data-card="([a-z_]+)" data-holder="([a-z]*)"', svg)
        shown = {name for name, _holder in cards}
        assert shown == set(public["hands"]["red"]) | set(public["hands"]["blue"]) | {public["side"]}
        for colour in ("red", "blue"):
            assert {n for n, h in cards if h == colour} >= set(public["hands"][colour])
        assert svg.count('class="space last-move"') == 2  # the last move's from and to
    # turned to the viewer: the second seat's player has their own hand at the bottom
    alice_svg, bob_svg = _svg(game, alice), _svg(game, bob)
    assert alice_svg != bob_svg
    png = pictures.game_png(game, _seat(game, bob))
    mode, colours, size = _png_facts(png)
    assert mode == "P" and colours <= pictures.COLOURS and size < 20 * 1024


def test_a_maatatahay_picture_shows_the_stream_the_tracks_and_both_storages(alice, bob):
    game = start_game(alice, bob, "maatatahay", seed=5)
    play(game, 3)
    game.refresh_from_db()
    rules = engine.get_game("maatatahay")
    view: Any = rules.view(game_state(game), "balan")
    assert view["stream"], "a deal with a stream"
    svg = _svg(game, alice)
    assert "Spirit Track" in svg and "%d/%d" % (view["track"], 6) in svg
    for pair in view["stream"]:
        for tile in pair.values():
            assert ">%s<" % pictures.maatatahay_board.tile_label(tile) in svg
    for tribe in ("balan", "wazu"):
        storage = view["storage"][tribe]
        assert "Balan" in svg and "Wazu" in svg
        assert ">%d<" % storage["energy"] in svg and ">%d<" % storage["spirit"] in svg
    assert "bag" not in svg.lower()
    png = pictures.game_png(game, _seat(game, alice))
    mode, colours, size = _png_facts(png)
    assert mode == "P" and colours <= pictures.COLOURS and size < 20 * 1024


def test_the_picture_is_drawn_after_each_move_and_replaced_by_the_next(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=3)
    stored = {p.user_id: p for p in MailPicture.objects.filter(game=game)}
    assert set(stored) == {alice.pk, bob.pk}
    assert {p.ply for p in stored.values()} == {0} and all(p.size == len(p.png) < 20 * 1024 for p in stored.values())
    before = {user_id: bytes(p.png) for user_id, p in stored.items()}
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 1)
    after = {p.user_id: p for p in MailPicture.objects.filter(game=game)}
    assert MailPicture.objects.filter(game=game).count() == 2  # replaced, not added
    assert {p.ply for p in after.values()} == {1}
    assert all(bytes(after[user_id].png) != before[user_id] for user_id in before)
    # idempotent: the task again draws nothing
    with mock.patch.object(pictures, "position_png", side_effect=AssertionError("drawn again")):
        assert pictures.mail_pictures_render(game_id=game.pk).rendered == 0


def test_a_mail_carries_the_stored_picture_of_its_recipient_and_draws_nothing(alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=7)
    assert pictures.mail_pictures_render(game_id=game.pk).rendered == 2
    marker = {}
    for picture in MailPicture.objects.filter(game=game):
        # a picture no drawing of this game makes, of its own per player
        picture.png = pictures.position_png(kind="onitama", view={"board": ["R...."] * 5}) + b"%d" % picture.user_id
        picture.save()
        marker[picture.user_id] = bytes(picture.png)
    mail.outbox.clear()
    with mock.patch.object(pictures, "position_png", side_effect=AssertionError("drawn at send")):
        assert services.alarms_send_due(now=timezone.now()).sent == 1
    message = mail.outbox[0]
    game.refresh_from_db()
    image = [part for part in message.attachments if part.get_content_type() == "image/png"]
    assert len(image) == 1 and image[0].get_payload(decode=True) == marker[to_move(game).pk]


def test_a_missing_or_old_picture_is_drawn_at_send_and_stored(alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=9)
    pictures.mail_pictures_render(game_id=game.pk)
    MailPicture.objects.filter(game=game).update(ply=5)  # out of date
    mail.outbox.clear()
    assert services.alarms_send_due(now=timezone.now()).sent == 1
    picture = MailPicture.objects.get(game=game, user=game.to_move_user)
    assert picture.ply == 0
    image = [part for part in mail.outbox[0].attachments if part.get_content_type() == "image/png"]
    assert image[0].get_payload(decode=True) == bytes(picture.png)


@pytest.mark.parametrize("seed", [2, 8])
def test_a_picture_depends_on_the_players_view_only_never_on_hidden_state(alice, bob, seed):
    """Two Maatatahay tables alike to the players but with other face-down piles and another
    bag order give the same picture, for either player: nothing hidden is drawn."""
    game = start_game(alice, bob, "maatatahay", seed=seed)
    play(game, 4)
    game.refresh_from_db()
    rules: Any = engine.get_game("maatatahay")  # sample_state: Maatatahay's own
    state = game_state(game)
    for user in (alice, bob):
        seat = _seat(game, user)
        view = rules.view(state, seat.side)
        other = rules.sample_state(view, SeedStream(seed + 1000, "sample"))
        assert rules.to_json(other) != rules.to_json(state)  # the hidden part differs
        assert rules.view(other, seat.side) == view
        assert pictures.game_png(game, seat, state=other) == pictures.game_png(game, seat, state=state)


def test_only_players_who_get_mail_get_a_picture(alice):
    carol = make_user("nomail", email=False)
    game = start_game(alice, carol, "onitama", {"cards": "base"}, seed=4)
    pictures.mail_pictures_render(game_id=game.pk)
    assert list(MailPicture.objects.filter(game=game).values_list("user_id", flat=True)) == [alice.pk]
    assert first_legal(game)  # the game runs


def test_the_pictures_of_a_game_over_for_a_day_are_purged(alice, bob):
    from datetime import timedelta

    from games import services as game_services

    game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=6)
    running = start_game(alice, bob, "onitama", {"cards": "base"}, seed=12)
    game_services.game_resign(game_id=game.pk, user=alice)
    for each in (game, running):
        pictures.mail_pictures_render(game_id=each.pk)
    game.refresh_from_db()
    assert game.finished_at is not None
    assert MailPicture.objects.filter(game=game, finished=True).count() == 2  # the game-over mail's
    assert pictures.mail_pictures_purge(now=game.finished_at + timedelta(hours=23)) == 0
    assert pictures.mail_pictures_purge(now=game.finished_at + timedelta(hours=25)) == 2
    assert MailPicture.objects.filter(game=running).count() == 2
    storage = pictures.mail_pictures_storage()
    assert storage["running_games"] == 1 and storage["pictures"] == 2 and storage["bytes_per_running_game"] > 0


def test_the_links_of_a_mail_are_the_urls_reverse_gives():
    """The sweep reverses each link's pattern once (correspondence.mail._token_path)."""
    from django.urls import reverse

    from correspondence import mail as correspondence_mail
    from correspondence import tokens

    for token in (tokens.open_token(game_id=12, user_id=34), tokens.unsubscribe_token(user_id=5, kind="turn")):
        for name in ("correspondence:open", "correspondence:unsubscribe"):
            assert correspondence_mail._token_path(name, token) == reverse(name, args=[token])
