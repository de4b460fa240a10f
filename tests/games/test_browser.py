"""Two players in two browsers: a challenge, several turns of each game, a resignation."""

import re

import pytest

from games import services
from games.models import Game, GameStatus
from games.rules import legal_moves_of
from tests.helpers import browser_login

from .conftest import make_user, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def challenge(page, base, kind, opponent, extra):
    page.goto(base + "/lobby/")
    page.select_option("#challenge-form select[name=challenge-kind]", kind)
    page.fill("#challenge-form input[name=challenge-opponent]", opponent)
    page.select_option("#challenge-form select[name=challenge-days_per_move]", "2")
    for name, value in extra.items():
        page.select_option("#challenge-form select[name=challenge-%s]" % name, value)
    page.locator("#challenge-form button[type=submit]").click()
    page.wait_for_load_state()


def play_turns(pages, game, base, decisions):
    """Play ``decisions`` decisions through the pages, whoever is to move: Onitama's on the
    board, Maatatahay's by a button or the notation field; each shown as the pending move,
    then confirmed."""
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        page = pages[game.to_move_user.username]
        page.goto("%s/games/%d/" % (base, game.pk))
        page.wait_for_function("() => document.getElementById('move-prompt').textContent.length > 0")
        move = legal_moves_of(kind=game.kind, state=services.game_state(game))[0]
        choice = page.locator(".move-choice[data-move='%s']" % move.text)
        if game.kind == "onitama" and move.parts["type"] == "move":
            for square in (move.parts["from"], move.parts["to"]):
                page.locator(".board-wrap svg rect.space[data-square='%s']" % square).click()
            if page.locator("#card-choices").is_visible():
                page.locator("#card-choices button", has_text=move.parts["card"]).click()
        elif choice.count():
            choice.click()
        else:  # typed: the move shows as pending once the text is a legal move
            page.fill("#move-text", move.text)
        assert page.locator("#pending-text").inner_text() == move.text
        ply = game.ply
        page.locator("#confirm-move").click()
        page.wait_for_load_state()
        game.refresh_from_db()
        assert game.ply == ply + 1, page.content()[:2000]


def resign_and_check(pages, base: str, game: Game, resigner: str, winner: str) -> None:
    """``resigner`` resigns through the game page; every page then shows ``winner``'s win."""
    page = pages[resigner]
    page.goto("%s/games/%d/" % (base, game.pk))
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("form[action$='/resign/'] button").click()
    page.wait_for_load_state()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    assert game.winner_side == game.seats.get(user__username=winner).side
    for name, viewer in pages.items():  # both are seated: each reads their own result
        viewer.goto("%s/games/%d/" % (base, game.pk))
        result = viewer.locator(".game-status .result").inner_text()
        assert result == ("You won: your opponent resigned" if name == winner else "You lost: you resigned")
        assert viewer.locator("#move-form").count() == 0
        assert game.revealed_seed in viewer.content()


@pytest.mark.parametrize("kind, extra", [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"})])
def test_two_players_challenge_play_and_resign(live_server, browser, kind, extra, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_user("alice")
    make_user("bob")
    base = live_server.url
    contexts = {
        name: browser.new_context(viewport={"width": 390, "height": 844} if name == "bob" else None)
        for name in ("alice", "bob")
    }
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    try:
        for name, page in pages.items():
            browser_login(page, base, name)
        challenge(pages["alice"], base, kind, "bob", extra)
        bob = pages["bob"]
        bob.goto(base + "/lobby/")
        bob.locator(".challenge form[action*='/accept/'] button").first.click()
        bob.wait_for_load_state()
        assert re.search(r"/games/\d+/$", bob.url)
        game = Game.objects.get()
        assert game.kind == kind and game.days_per_move == 2
        assert game.seed_commitment in bob.content()
        play_turns(pages, game, base, 8)
        game.refresh_from_db()
        assert game.ply >= 1
        # The move list replays an earlier position.
        alice = pages["alice"]
        alice.goto("%s/games/%d/?ply=1" % (base, game.pk))
        assert "position after ply 1" in alice.content()
        if game.status == GameStatus.ACTIVE:
            resign_and_check(pages, base, game, "alice", "bob")
        html = alice.content()
        assert game.revealed_seed in html and "python -m engine reveal" in html
    finally:
        for ctx in contexts.values():
            ctx.close()


def test_the_end_shows_the_result_and_rating_change_and_a_rematch_is_accepted(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, seat_choice="red", rated=True)
    base = live_server.url
    contexts = {
        name: browser.new_context(viewport={"width": 390, "height": 844} if name == "bob" else None)
        for name in ("alice", "bob")
    }
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    try:
        for name, page in pages.items():
            browser_login(page, base, name)
        play_turns(pages, game, base, 2)
        alice_page, bob_page = pages["alice"], pages["bob"]
        url = "%s/games/%d/" % (base, game.pk)
        alice_page.goto(url)
        alice_page.once("dialog", lambda dialog: dialog.accept())
        alice_page.locator("form[action$='/resign/'] button").click()
        alice_page.wait_for_load_state()
        # The game's end: each player's own result and rating change.
        assert alice_page.locator(".game-status .result").inner_text() == "You lost: you resigned"
        mine = alice_page.locator(".game-rating-changes .rating-change.mine")
        assert re.fullmatch(r"Your rating: 1500 → \d+ \(-\d+\)", mine.inner_text().strip())
        bob_page.goto(url)
        assert bob_page.locator(".game-status .result").inner_text() == "You won: your opponent resigned"
        assert re.fullmatch(
            r"Your rating: 1500 → \d+ \(\+\d+\)", bob_page.locator(".rating-change.mine").inner_text().strip()
        )
        # Alice offers the rematch; a second click is no second offer.
        alice_page.locator("#rematch-offer").click()
        alice_page.wait_for_load_state()
        assert alice_page.locator("[data-rematch=offered]").count() == 1
        bob_page.goto(url)
        assert bob_page.locator("[data-rematch=to_me]").count() == 1
        bob_page.locator("#rematch-accept").click()
        bob_page.wait_for_load_state()
        rematch = Game.objects.get(rematch_of=game)
        assert bob_page.url == "%s/games/%d/" % (base, rematch.pk)
        assert {s.side: s.user for s in rematch.seats.all()} == {"blue": alice, "red": bob}
        alice_page.goto(url)
        alice_page.locator("#rematch-game").click()
        alice_page.wait_for_load_state()
        assert alice_page.url == bob_page.url
        assert alice_page.locator(".seat-blue").inner_text().strip().endswith("alice")
    finally:
        for ctx in contexts.values():
            ctx.close()
