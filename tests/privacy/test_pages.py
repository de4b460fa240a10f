"""The privacy pages: the export download and the deletion confirm page, linked from
the profile page; what a deleted account looks like on the site afterwards."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import GameStatus
from privacy import services
from tests.games.conftest import play, start_game

pytestmark = pytest.mark.django_db


def test_the_profile_page_links_to_export_and_deletion(client, alice):
    client.force_login(alice)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert 'href="%s" download' % reverse("privacy:export") in html
    assert 'href="%s"' % reverse("privacy:delete") in html


def test_the_export_downloads_as_a_json_attachment(client, alice, bob):
    play(start_game(alice, bob), 2)
    client.force_login(alice)
    response = client.get(reverse("privacy:export"))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="maatasite-alice.json"'
    assert json.loads(response.content) == services.account_export(user=alice)
    assert response.content == client.get(reverse("privacy:export")).content  # deterministic


def test_the_pages_need_a_signed_in_player(client):
    for name in ("privacy:export", "privacy:delete"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_a_wrong_password_keeps_the_account(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.post(reverse("privacy:delete"), {"password": "wrong"})
    assert response.status_code == 400
    assert "The password is wrong" in response.content.decode()
    game.refresh_from_db()
    alice.refresh_from_db()
    assert alice.is_active and game.status == GameStatus.ACTIVE
    assert client.get(reverse("accounts:profile")).status_code == 200  # still signed in


def test_deleting_logs_out_and_the_games_show_deleted_player(client, alice, bob):
    alice.display_name = "Queen Alice"
    alice.save()
    game = play(start_game(alice, bob), 2)  # no Onitama game ends in 2 plies
    client.force_login(alice)
    assert client.get(reverse("privacy:delete")).status_code == 200
    response = client.post(reverse("privacy:delete"), {"password": "pw-alice-123456"}, follow=True)
    assert response.status_code == 200
    assert "Your account is deleted" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated
    # Deleting again: signed out, so the login page, never an error.
    again = client.post(reverse("privacy:delete"), {"password": "pw-alice-123456"})
    assert again.status_code == 302 and reverse("accounts:login") in again["Location"]

    client.force_login(bob)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "deleted player" in html
    assert "Queen Alice" not in html and ">alice<" not in html
    assert reverse("games:history", args=["deleted-%d" % alice.pk]) not in html
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_a_deleted_account_cannot_log_in_and_has_no_public_page(client, alice):
    services.account_delete(user=alice, password="pw-alice-123456")
    row = get_user_model().objects.get(pk=alice.pk)
    assert not client.login(username="alice", password="pw-alice-123456")
    assert not client.login(username=row.username, password="pw-alice-123456")
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "pw-alice-123456"})
    assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    for name in ("alice", row.username):
        assert client.get(reverse("players:detail", args=[name])).status_code == 404
