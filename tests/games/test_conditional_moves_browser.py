"""Conditional moves through the game page in a browser: queue a line, see it played."""

import pytest

import engine
from games import services
from games.models import Move
from tests.factories import make_user, start_game, to_move
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = engine.get_game("onitama")


def test_a_line_queued_on_the_page_is_played_and_shown_to_nobody_else(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    mover = to_move(game)
    waiter = bob if mover == alice else alice
    state = services.game_state(game)
    theirs = RULES.move_text(RULES.legal_moves(state)[0])
    mine = RULES.move_text(RULES.legal_moves(RULES.apply(state, RULES.parse_move(state, theirs)))[0])
    base = live_server.url
    context = browser.new_context()
    page = context.new_page()
    try:
        browser_login(page, base, waiter.username)
        page.goto("%s/games/%d/" % (base, game.pk))
        page.fill("#conditional-lines", "%s %s" % (theirs, mine))
        page.locator("#conditional button[type=submit]").click()
        page.wait_for_load_state()
        assert page.locator(".conditional-lines li").inner_text() == "%s %s" % (theirs, mine)
        browser_login(page, base, mover.username, clear_cookies=True)
        page.goto("%s/games/%d/" % (base, game.pk))
        assert page.locator("#conditional").count() == 0 and "%s %s" % (theirs, mine) not in page.content()
        services.move_submit(game_id=game.pk, user=mover, move_text=theirs, expected_ply=0)
        assert list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True)) == [theirs, mine]
    finally:
        context.close()
