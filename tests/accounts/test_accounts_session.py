import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.helpers import matched

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-unusual-passphrase-9"


@pytest.fixture
def player():
    return get_user_model().objects.create_user(
        username="alice",
        email="alice@example.com",
        password=PASSWORD,
        email_confirmed=True,
    )


def test_login_and_logout(client, player):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    assert client.session["_auth_user_id"] == str(player.pk)
    page = client.get(reverse("games:home")).content.decode()
    assert reverse("accounts:logout") in page
    response = client.post(reverse("accounts:logout"), follow=True)
    assert response.redirect_chain == [(reverse("games:home"), 302)]
    assert "You are logged out" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_with_a_wrong_password_fails(client, player):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_login_follows_next(client, player):
    response = client.post(
        reverse("accounts:login") + "?next=/accounts/profile/",
        {"username": "alice", "password": PASSWORD, "next": "/accounts/profile/"},
    )
    assert response["Location"] == "/accounts/profile/"


@pytest.mark.django_db(transaction=True)  # mail leaves on commit
def test_password_reset_by_mail(client, player, settings):
    settings.SITE_URL = "http://testserver"
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = matched(r"http://testserver(/accounts/password/reset/\S+/\S+/)", mail.outbox[0].body).group(1)
    response = client.get(link)  # Django redirects to a URL without the token
    assert response.status_code == 302
    form_url = response["Location"]
    new_password = "another-long-passphrase-4"
    response = client.post(form_url, {"new_password1": new_password, "new_password2": new_password})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_password_reset_for_unknown_address_sends_nothing(client, player):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert not mail.outbox


def test_profile_needs_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_update(client, player):
    client.force_login(player)
    response = client.post(
        reverse("accounts:profile"),
        {
            "display_name": "Alice A.",
            "language": "id",
            "time_zone": "Asia/Jakarta",
            "email_on_your_turn": "on",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.display_name, player.language, player.time_zone) == ("Alice A.", "id", "Asia/Jakarta")
    assert player.email_on_your_turn is True
    assert player.email_on_game_over is False


def test_profile_refuses_unknown_time_zone(client, player):
    client.force_login(player)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "", "language": "", "time_zone": "Mars/Olympus"}
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.time_zone == ""


def test_users_language_and_time_zone_are_activated(client, player):
    player.language = "ar"
    player.time_zone = "Asia/Jakarta"
    player.save()
    client.force_login(player)
    response = client.get(reverse("accounts:profile"))
    assert response["Content-Language"] == "ar"
    assert '<html lang="ar" dir="rtl">' in response.content.decode()
    assert response.context["TIME_ZONE"] == "Asia/Jakarta"


def test_public_player_page(client, player):
    player.display_name = "Alice the Bold"
    player.save()
    response = client.get(reverse("players:detail", kwargs={"username": "alice"}))
    assert response.status_code == 200
    assert "Alice the Bold" in response.content.decode()
    assert client.get("/players/ALICE/").status_code == 301
    assert client.get("/players/nobody/").status_code == 404


def test_unconfirmed_players_have_no_public_page(client):
    get_user_model().objects.create_user(
        username="ghost", email="ghost@example.com", password=PASSWORD, is_active=False
    )
    assert client.get("/players/ghost/").status_code == 404


def test_seed_demo_is_idempotent_and_prints_credentials(client):
    from io import StringIO

    from django.core.management import call_command

    for _ in range(2):
        out = StringIO()
        call_command("seed_demo", stdout=out)
    assert "username=admin" in out.getvalue() and "username=alice" in out.getvalue()
    users = get_user_model().objects
    assert users.filter(username__in=["admin", "alice", "bob"], is_active=True).count() == 3
    assert users.get(username="admin").is_superuser
    password = out.getvalue().split("username=alice")[1].split("password=")[1].split()[0]
    assert client.login(username="alice", password=password)


def test_sessions_are_read_through_the_cache_and_ended_in_both(client, player):
    """Sessions are kept in the database and read through the cache (cached_db): a logged-in
    request reads its session without a query, and ending a player's sessions (suspension,
    deletion) ends the cached copy too, so the cookie opens nothing afterwards."""
    from django.conf import settings
    from django.contrib.sessions.models import Session
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.services import user_sessions_end

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
    client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    other = type(client)()
    other.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    for browser in (client, other):
        browser.get(reverse("accounts:profile"))  # read, and so cached
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("accounts:profile")).status_code == 200
    assert queries and not [q for q in queries.captured_queries if "django_session" in q["sql"]]
    assert Session.objects.count() == 2

    assert user_sessions_end(user_id=player.pk) == 2

    assert not Session.objects.exists()
    for browser in (client, other):
        response = browser.get(reverse("accounts:profile"))
        assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
