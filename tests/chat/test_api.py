"""GET/POST /api/v1/games/<id>/messages/: players only, the chat service's refusals in the
API's error shape (400 empty or too long, 403 not a player or blocked, 404, 429)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import services as account_services
from chat import services
from chat.models import Message
from tests.api_clients import api_settings, token_client  # noqa: F401  (api_settings: the API tests' settings, applied below)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def _url(game_id: int) -> str:
    return "/api/v1/games/%d/messages/" % game_id


def test_players_write_and_read(alice, bob, game):
    alice_api, bob_api = token_client(alice), token_client(bob)
    response = alice_api.post(_url(game.pk), {"text": "  Hi <bob>  "}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert {k: body[k] for k in ("author", "author_name", "text", "ply")} == {
        "author": "alice",
        "author_name": "alice",
        "text": "Hi <bob>",
        "ply": 0,
    }
    bob_api.post(_url(game.pk), {"text": "Hello"}, format="json")
    listed = bob_api.get(_url(game.pk))
    assert listed.status_code == 200
    assert [(m["author"], m["text"]) for m in listed.json()] == [("alice", "Hi <bob>"), ("bob", "Hello")]
    assert listed.json()[0]["id"] == body["id"]


def test_refusals(alice, bob, carol, game):
    alice_api, carol_api = token_client(alice), token_client(carol)
    for text, code in (("   ", "message_empty"), ("x" * 501, "message_too_long")):
        response = alice_api.post(_url(game.pk), {"text": text}, format="json")
        assert (response.status_code, response.json()["code"]) == (400, code)
    assert alice_api.post(_url(game.pk), {}, format="json").status_code == 400
    for response in (carol_api.get(_url(game.pk)), carol_api.post(_url(game.pk), {"text": "hi"}, format="json")):
        assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    for response in (
        alice_api.get(_url(game.pk + 1000)),
        alice_api.post(_url(game.pk + 1000), {"text": "hi"}, format="json"),
    ):
        assert (response.status_code, response.json()["code"]) == (404, "game_not_found")
    anon = token_client(alice)
    anon.credentials()
    assert anon.get(_url(game.pk)).status_code == 401
    reader = token_client(alice, scopes=("read",))
    assert reader.get(_url(game.pk)).status_code == 200
    assert reader.post(_url(game.pk), {"text": "hi"}, format="json").status_code == 403
    assert not Message.objects.exists()


def test_blocked_author_is_refused_and_hidden(alice, bob, game):
    alice_api, bob_api = token_client(alice), token_client(bob)
    services.message_create(game_id=game.pk, author=alice, text="raced", now=timezone.now() + timedelta(minutes=1))
    account_services.block_create(blocker=bob, blocked=alice)
    response = alice_api.post(_url(game.pk), {"text": "hi"}, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "code": "message_blocked",
        "message": "This player does not accept your messages.",
        "details": {},
    }
    assert bob_api.get(_url(game.pk)).json() == []
    assert [m["text"] for m in alice_api.get(_url(game.pk)).json()] == ["raced"]


def test_rate_limit_and_idempotent_writes(alice, game):
    alice_api = token_client(alice)
    first = alice_api.post(_url(game.pk), {"text": "once"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = alice_api.post(_url(game.pk), {"text": "once"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    for i in range(services.RATE_LIMIT - 1):
        assert alice_api.post(_url(game.pk), {"text": "m%d" % i}, format="json").status_code == 201
    refused = alice_api.post(_url(game.pk), {"text": "too many"}, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "message_rate_limited"
    assert 0 < refused.json()["details"]["retry_after"] <= 3600
    assert Message.objects.count() == services.RATE_LIMIT
