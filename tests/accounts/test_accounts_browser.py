"""In a real browser: the confirmation link's page and its button, then the same link in a
fresh browser, which only says the address is confirmed and signs nobody in."""

import pytest
from django.urls import reverse

from accounts import services
from accounts.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_confirm_button_confirms_once(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = services.user_signup(username="carol", email="carol@example.com", password="a-long-passphrase-9")
    link = live_server.url + reverse(
        "accounts:confirm", kwargs={"token": services.email_confirmation_token_make(user=user)}
    )

    owner = browser.new_context().new_page()
    owner.goto(link)
    button = owner.locator("#confirm-button")
    assert button.is_visible()
    assert not User.objects.get(pk=user.pk).email_confirmed  # opening the page did nothing
    button.click()
    owner.wait_for_load_state()
    assert owner.url.endswith(reverse("accounts:profile"))
    assert "Your email address is confirmed" in owner.content()
    assert User.objects.get(pk=user.pk).email_confirmed

    stranger = browser.new_context().new_page()  # no cookies
    stranger.goto(link)
    assert "already confirmed" in stranger.content()
    assert stranger.locator("#confirm-button").count() == 0
    stranger.locator("main a[href='%s']" % reverse("accounts:login")).click()
    stranger.wait_for_load_state()
    assert stranger.url.endswith(reverse("accounts:login"))
    stranger.goto(live_server.url + reverse("accounts:profile"))
    assert "/accounts/login/" in stranger.url  # not signed in
