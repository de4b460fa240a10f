"""The whole path of two new players, in two browsers: sign up, confirm the mailed link,
log in, challenge from the lobby, accept, play turns of Onitama and of Maatatahay by
clicking on the game page, resign, and both see the result.

Mail goes to Django's locmem outbox: the live server runs in this process's thread.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games.models import Game, GameStatus
from tests.accounts.test_accounts_signup import confirm_link
from tests.helpers import browser_login

from .test_browser import challenge, play_turns, resign_and_check

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("dana", "emil")


def password(name: str) -> str:
    """The password the shared ``browser_login`` helper types for ``name``."""
    return "pw-%s-123456" % name


def sign_up_and_confirm(page, base: str, name: str) -> None:
    """Sign up through the form, then follow the link mailed to the new address and press its button."""
    sent = len(mail.outbox)
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", "%s@example.org" % name)
    page.fill("input[name=password1]", password(name))
    page.fill("input[name=password2]", password(name))
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.url.endswith("/accounts/signup/done/"), page.content()[:2000]
    assert len(mail.outbox) == sent + 1
    message = mail.outbox[-1]
    assert message.to == ["%s@example.org" % name]
    link = confirm_link(message)
    assert link.startswith(base + "/accounts/confirm/")
    page.goto(link)  # the link's page; its button confirms (a GET alone changes nothing)
    page.locator("#confirm-button").click()
    page.wait_for_load_state()
    assert page.url.endswith("/accounts/profile/")
    assert "Your email address is confirmed" in page.content()


def accept_from_lobby(page, base: str) -> Game:
    page.goto(base + "/lobby/")
    page.locator(".challenge form[action*='/accept/'] button").first.click()
    page.wait_for_load_state()
    found = re.search(r"/games/(\d+)/$", page.url)
    assert found, page.url
    return Game.objects.get(pk=int(found.group(1)))


def test_new_players_sign_up_challenge_play_both_games_and_resign(live_server, browser, settings):
    settings.SITE_URL = live_server.url  # the mailed link points at the live server
    base = live_server.url
    contexts = {name: browser.new_context() for name in PLAYERS}
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    dana, emil = PLAYERS
    try:
        for name, page in pages.items():
            sign_up_and_confirm(page, base, name)
            # Following the link signed them in; log out of this browser and in again with the password.
            contexts[name].clear_cookies()
            page.goto(base + "/lobby/")
            assert "/accounts/login/" in page.url
            browser_login(page, base, name)
            page.goto(base + "/lobby/")
            assert page.url == base + "/lobby/"

        challenge(pages[dana], base, "onitama", emil, {"cards": "base"})
        onitama = accept_from_lobby(pages[emil], base)
        assert onitama.kind == "onitama"
        play_turns(pages, onitama, base, 4)
        onitama.refresh_from_db()
        assert onitama.ply >= 4 or onitama.status == GameStatus.FINISHED

        challenge(pages[emil], base, "maatatahay", dana, {"variant": "first"})
        maatatahay = accept_from_lobby(pages[dana], base)
        assert maatatahay.kind == "maatatahay"
        # First Game: a pick, the choice of who goes first, then placements.
        play_turns(pages, maatatahay, base, 5)
        texts = list(maatatahay.moves.order_by("ply").values_list("text", flat=True))
        assert texts[0].startswith("pick ") and texts[1].startswith("first ")
        assert sum(text.startswith("place ") for text in texts[2:]) >= 2, texts

        if onitama.status == GameStatus.ACTIVE:
            resign_and_check(pages, base, onitama, resigner=dana, winner=emil)
        resign_and_check(pages, base, maatatahay, resigner=emil, winner=dana)
    finally:
        for ctx in contexts.values():
            ctx.close()
