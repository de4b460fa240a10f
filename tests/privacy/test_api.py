"""/api/v1/account/export/ and /api/v1/account/delete/."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import GameStatus
from privacy import services
from privacy.serializers import AccountExportSerializer
from tests.api_clients import api_settings, token_client  # noqa: F401  (api_settings: the API tests' settings, applied below)
from tests.games.conftest import play, start_game
from tests.privacy.test_services import alice_with_everything  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

EXPORT = "/api/v1/account/export/"
DELETE = "/api/v1/account/delete/"


def test_both_endpoints_need_credentials():
    anon = APIClient()
    assert anon.get(EXPORT).status_code == 401
    response = anon.post(DELETE, {"password": "x"}, format="json")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_the_export_is_the_services_document(alice, bob):
    game = play(start_game(alice, bob), 2)
    response = token_client(alice, scopes=["read"]).get(EXPORT)
    assert response.status_code == 200
    data = response.json()
    assert data == services.account_export(user=alice)
    assert data["format"] == "maatasite-account-export"
    assert [g["id"] for g in data["games"]] == [game.pk]


def test_the_documented_shape_holds_a_full_export(alice, alice_with_everything):  # noqa: F811  (the fixture imported above)
    data = token_client(alice).get(EXPORT).json()
    checked = AccountExportSerializer(data=data)
    assert checked.is_valid(), checked.errors
    assert set(checked.fields) == set(data)
    assert all(
        data[section] for section in ("games", "blocks", "reports", "ladders", "tournaments", "messages", "webhooks")
    )


def test_deleting_needs_the_play_scope_and_the_password(alice, bob):
    game = start_game(alice, bob)
    refused = token_client(alice, scopes=["read"]).post(DELETE, {"password": "pw-alice-123456"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    api = token_client(alice)
    wrong = api.post(DELETE, {"password": "not it"}, format="json")
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    missing = api.post(DELETE, {}, format="json")
    assert missing.status_code == 400 and "password" in missing.json()["details"]["fields"]
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and get_user_model().objects.get(pk=alice.pk).is_active


def test_deleting_through_the_api(alice, bob):
    game = play(start_game(alice, bob), 2)
    api = token_client(alice)
    response = api.post(DELETE, {"password": "pw-alice-123456"}, format="json")
    assert response.status_code == 200 and "deleted" in response.json()["message"]
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    # The token died with the account: a second attempt is refused, not an error.
    again = api.post(DELETE, {"password": "pw-alice-123456"}, format="json")
    assert again.status_code == 401 and again.json()["code"] == "authentication_failed"

    seen = token_client(bob).get("/api/v1/games/%d/" % game.pk).json()
    gone = next(seat for seat in seen["seats"] if not seat["is_you"])
    assert gone["username"] is None and gone["display_name"] == "deleted player"
    assert gone["bot_level"] is None
    assert APIClient().get("/api/v1/players/alice/").status_code == 404


def test_a_deleted_players_messages_name_no_account(alice, bob):
    from chat import services as chat_services

    game = start_game(alice, bob)
    chat_services.message_create(game_id=game.pk, author=alice, text="good luck")
    services.account_delete(user=get_user_model().objects.get(pk=alice.pk), password="pw-alice-123456")
    listed = token_client(bob).get("/api/v1/games/%d/messages/" % game.pk).json()
    assert [(m["author"], m["author_name"], m["text"]) for m in listed] == [(None, "deleted player", "good luck")]


def test_deleting_with_the_session_signs_it_out(client, alice):
    client.force_login(alice)
    response = client.post(DELETE, {"password": "pw-alice-123456"}, content_type="application/json")
    assert response.status_code == 200
    assert client.get("/api/v1/me/").status_code in (401, 403)
    assert "_auth_user_id" not in client.session
