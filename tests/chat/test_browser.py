"""Two players in two browsers: one writes on the game page, the other reads it after a
reload and reports it; a watching third player sees no messages."""

import pytest

from fairplay.models import Report
from tests.factories import make_user
from tests.games.conftest import start_game
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_writes_and_the_other_reads_after_a_reload(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    make_user("carol")
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    url = "%s/games/%d/" % (live_server.url, game.pk)
    contexts = {name: browser.new_context() for name in ("alice", "bob", "carol")}
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    try:
        for name, page in pages.items():
            browser_login(page, live_server.url, name)
        pages["bob"].goto(url)
        assert pages["bob"].locator("#messages .no-messages").is_visible()

        alice_page = pages["alice"]
        alice_page.goto(url)
        alice_page.fill("#message-text", "Good luck, <bob>!")
        alice_page.locator("#send-message").click()
        alice_page.wait_for_load_state()
        assert alice_page.url.endswith("/games/%d/#messages" % game.pk)
        assert alice_page.locator("#messages .message-text").inner_text() == "Good luck, <bob>!"

        bob_page = pages["bob"]
        bob_page.reload()
        message = bob_page.locator("#messages .message")
        assert message.locator(".message-text").inner_text() == "Good luck, <bob>!"
        assert message.locator(".message-author").inner_text() == "alice"
        bob_page.once("dialog", lambda dialog: dialog.accept())
        message.locator("form.report-message button").click()
        bob_page.wait_for_load_state()
        report = Report.objects.get()
        assert (report.reporter.username, report.game_id) == ("bob", game.pk)
        assert "Good luck, <bob>!" in report.reason

        pages["carol"].goto(url)
        assert pages["carol"].locator("#messages").count() == 0
        assert "Good luck" not in pages["carol"].content()
    finally:
        for ctx in contexts.values():
            ctx.close()
