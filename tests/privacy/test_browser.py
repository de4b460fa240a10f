"""In a real browser: the profile page's export link downloads the JSON, and deleting
the account with the password signs the player out."""

import json

import pytest

from games.models import Game, GameStatus
from tests.games.conftest import make_user, start_game
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_export_then_delete_from_the_profile_page(live_server, page, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    base = live_server.url
    browser_login(page, base, "alice")
    page.goto(base + "/accounts/profile/")

    link = page.locator("#export-link")
    assert link.get_attribute("download") is not None
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "maatasite-alice.json"
    with open(download.path(), encoding="utf-8") as handle:
        data = json.load(handle)
    assert data["profile"]["username"] == "alice" and [g["id"] for g in data["games"]] == [game.pk]

    page.locator("#delete-link").click()
    page.wait_for_load_state()
    assert page.url.endswith("/privacy/delete/")
    page.fill("#delete-account-form input[name=password]", "pw-alice-123456")
    page.locator("#delete-account-form button[type=submit]").click()
    page.wait_for_load_state()
    assert "Your account is deleted" in page.content()
    assert page.locator("a[href='/accounts/login/']").count() >= 1  # signed out
    page.goto(base + "/accounts/profile/")
    assert "/accounts/login/" in page.url
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
