"""The mailed links that sign someone in or change an account work once (accounts.tokens).

A GET only shows the link's page with a button (mail scanners open links); the button's
POST acts, once. A second use, from a fresh browser, changes nothing, signs nobody in
and says so. The one-click unsubscribe link is the exception: it keeps working.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import services
from accounts.models import User
from correspondence import tokens as correspondence_tokens
from tests.helpers import matched, run_together

# Transactional: mail leaves when the transaction commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-unusual-passphrase-9"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def mailed_path(pattern: str) -> str:
    return matched(r"https?://[^/\s]+(%s)" % pattern, mail.outbox[-1].body).group(1)


def signed_up(username: str = "carol") -> tuple[User, str]:
    """A new account and the path of the confirmation link mailed to it."""
    user = services.user_signup(username=username, email="%s@example.com" % username, password=PASSWORD)
    return user, mailed_path(r"/accounts/confirm/[^/\s]+/")


def browser() -> Client:
    """A fresh browser: no cookies, CSRF checked as in production."""
    return Client(enforce_csrf_checks=True)


def press_the_button(client: Client, path: str):
    """Open the link's page and press its button, as a person does."""
    page = client.get(path)
    assert page.status_code == 200 and 'id="confirm-button"' in page.content.decode()
    token = matched(CSRF_FIELD, page.content.decode()).group(1)
    return client.post(path, {"csrfmiddlewaretoken": token})


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def fresh(user: User) -> User:
    return User.objects.get(pk=user.pk)


# ---------------------------------------------------------------- sign-up confirmation


def test_a_scanner_opening_the_link_neither_confirms_nor_signs_in():
    user, path = signed_up()
    for _ in range(3):
        scanner = Client()
        page = scanner.get(path)
        assert page.status_code == 200 and 'id="confirm-button"' in page.content.decode()
        assert not signed_in(scanner)
        assert scanner.get(reverse("accounts:profile")).status_code == 302  # to the login page
    user = fresh(user)
    assert not user.email_confirmed and not user.is_active and user.one_time_links_used == 0
    # The link is still good for its owner.
    owner = browser()
    response = press_the_button(owner, path)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile")
    assert signed_in(owner) and fresh(user).email_confirmed and fresh(user).is_active


def test_a_used_link_in_a_fresh_browser_confirms_nothing_and_signs_nobody_in():
    user, path = signed_up()
    assert press_the_button(browser(), path).status_code == 302
    assert fresh(user).one_time_links_used == 1
    # Whoever else saw the mail, later, without cookies: the page only says it is done.
    stranger = Client()
    page = stranger.get(path)
    html = page.content.decode()
    assert page.status_code == 200 and "already confirmed" in html
    assert 'href="%s"' % reverse("accounts:login") in html and 'id="confirm-button"' not in html
    # Posting it straight away (no button needed) is no better.
    for _ in range(2):
        response = stranger.post(path)
        assert response.status_code == 200 and "already confirmed" in response.content.decode()
        assert 'href="%s"' % reverse("accounts:login") in response.content.decode()
        assert not signed_in(stranger)
    assert stranger.get(reverse("accounts:profile")).status_code == 302
    assert fresh(user).one_time_links_used == 1


def test_every_older_confirmation_link_is_spent_by_the_first_use():
    user, first = signed_up()
    services.user_confirmation_resend(email=user.email)
    second = mailed_path(r"/accounts/confirm/[^/\s]+/")
    assert press_the_button(browser(), second).status_code == 302
    stranger = Client()
    response = stranger.post(first)
    assert "already confirmed" in response.content.decode() and not signed_in(stranger)


def test_a_link_cannot_wake_an_account_suspended_before_it_was_confirmed():
    from ops import services as ops_services
    from tests.factories import make_user

    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    user, path = signed_up("spammer")
    ops_services.player_suspend(player_id=user.pk, staff=staff, reason="Spam sign-ups.")
    visitor = Client()
    response = visitor.post(path)
    assert response.status_code == 400 and "disabled" in response.content.decode()
    assert not fresh(user).is_active and not signed_in(visitor)


def test_a_token_made_before_links_were_counted_still_works_once():
    """Links mailed before the upgrade carry no count: they read as 0 and work once."""
    from django.core import signing

    user, _path = signed_up()
    old_style = signing.dumps({"user": user.pk, "email": user.email}, salt="accounts.email-confirmation")
    path = reverse("accounts:confirm", kwargs={"token": old_style})
    assert press_the_button(browser(), path).status_code == 302
    assert "already confirmed" in Client().post(path).content.decode()


@pytest.mark.services
def test_two_simultaneous_uses_of_one_link_confirm_once():
    """On PostgreSQL, many requests racing with one token: exactly one confirms."""
    assert connection.vendor == "postgresql"
    user, _path = signed_up()
    token = services.email_confirmation_token_make(user=user)
    outcomes = run_together([lambda: services.user_confirm_email(token=token).pk for _ in range(6)])
    results = [getattr(o, "code", repr(o)) if isinstance(o, Exception) else o for o in outcomes]
    assert sorted(results, key=str) == sorted([user.pk] + ["already_confirmed"] * 5, key=str)
    assert fresh(user).one_time_links_used == 1


# ---------------------------------------------------------------- the API's confirmation


def test_the_api_confirmation_works_once_and_says_why_afterwards():
    user, path = signed_up()
    token = path.split("/")[-2]
    anon = APIClient()
    first = anon.post("/api/v1/auth/confirm/", {"token": token}, format="json")
    assert first.status_code == 200 and "confirmed" in first.json()["message"]
    again = APIClient().post("/api/v1/auth/confirm/", {"token": token}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "already_confirmed"
    assert "already confirmed" in again.json()["message"]
    # And the page's link is spent too: it signs nobody in.
    stranger = Client()
    assert "already confirmed" in stranger.post(path).content.decode() and not signed_in(stranger)
    assert fresh(user).one_time_links_used == 1


# ---------------------------------------------------------------- address change


def change_requested(user: User, new_email: str) -> str:
    """Ask for a new address (as the signed-in owner does) and return the mailed link's path."""
    services.email_change_request(user=user, new_email=new_email, password="pw-%s-123456" % user.username)
    return mailed_path(r"/accounts/email/confirm/[^/\s]+/")


def test_an_address_change_link_is_a_button_and_works_once(alice):
    path = change_requested(alice, "alice@new.example.org")
    for _ in range(2):  # a scanner
        page = Client().get(path)
        assert page.status_code == 200 and "alice@new.example.org" in page.content.decode()
    assert fresh(alice).email == "alice@example.org"
    owner = browser()
    response = press_the_button(owner, path)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile")
    assert fresh(alice).email == "alice@new.example.org" and not signed_in(owner)
    stranger = Client()
    for response in (stranger.get(path), stranger.post(path)):
        html = response.content.decode()
        assert response.status_code == 200 and "already been used" in html
        assert 'href="%s"' % reverse("accounts:login") in html and 'id="confirm-button"' not in html
    assert not signed_in(stranger)
    assert fresh(alice).one_time_links_used == 1


def test_an_old_address_change_link_stays_spent_when_the_address_comes_back(alice):
    """A to B, then back to A: the first link (to B) must not move the account to B again."""
    to_b = change_requested(alice, "alice@b.example.org")
    assert Client().post(to_b).status_code == 302
    back_to_a = change_requested(fresh(alice), "alice@example.org")
    assert Client().post(back_to_a).status_code == 302
    assert fresh(alice).email == "alice@example.org"
    replay = Client().post(to_b)
    assert replay.status_code == 400 and "not valid" in replay.content.decode()
    assert fresh(alice).email == "alice@example.org"


def test_a_newer_address_change_link_spends_the_older_ones(alice):
    older = change_requested(alice, "alice@one.example.org")
    newer = change_requested(alice, "alice@two.example.org")
    assert Client().post(newer).status_code == 302
    assert Client().post(older).status_code == 400
    assert fresh(alice).email == "alice@two.example.org"


def test_a_bad_address_change_link_is_a_clear_400():
    response = Client().get(reverse("accounts:email_change_confirm", kwargs={"token": "garbage"}))
    assert response.status_code == 400 and "not valid" in response.content.decode()
    response = Client().post(reverse("accounts:email_change_confirm", kwargs={"token": "garbage"}))
    assert response.status_code == 400


# ---------------------------------------------------------------- the password reset (already one-time)


def test_a_password_reset_link_works_once(alice):
    Client().post(reverse("accounts:password_reset"), {"email": alice.email})
    uid, token = matched(r"/accounts/password/reset/([^/\s]+)/([^/\s]+)/", mail.outbox[-1].body).groups()
    link = reverse("accounts:password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    owner = Client()
    form_page = owner.get(link, follow=True)
    assert form_page.status_code == 200 and "new_password1" in form_page.content.decode()
    done = owner.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "the new long secret 77", "new_password2": "the new long secret 77"},
    )
    assert done.status_code == 302
    again = Client().get(link, follow=True)
    assert "new_password1" not in again.content.decode() and "not valid any more" in again.content.decode()
    api = APIClient().post(
        "/api/v1/auth/password/reset/confirm/",
        {"uid": uid, "token": token, "new_password": "an attacker's secret 88"},
        format="json",
    )
    assert api.status_code == 400 and api.json()["code"] == "bad_reset_link"
    assert get_user_model().objects.get(pk=alice.pk).check_password("the new long secret 77")


# ---------------------------------------------------------------- the exception: unsubscribe


def test_the_one_click_unsubscribe_link_keeps_working(alice):
    path = reverse(
        "correspondence:unsubscribe", args=[correspondence_tokens.unsubscribe_token(user_id=alice.pk, kind="turn")]
    )
    for _ in range(2):
        response = Client().post(path)  # RFC 8058: a mail client's one-click POST, no cookies
        assert response.status_code == 200
        assert not fresh(alice).email_on_your_turn
        User.objects.filter(pk=alice.pk).update(email_on_your_turn=True)  # the player turns it on again
    assert Client().get(path).status_code == 200
