"""/api/v1/blocks/ and /api/v1/reports/: the API's error shape, scopes and idempotency."""

from __future__ import annotations

import pytest

from accounts import selectors as account_selectors
from fairplay.models import Report
from games import services as games_services
from tests.api_clients import token_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def test_block_list_and_unblock(alice_api, alice, bob):
    created = alice_api.post("/api/v1/blocks/", {"username": "bob"}, format="json")
    assert created.status_code == 201 and created.json()["username"] == "bob"
    again = alice_api.post("/api/v1/blocks/", {"username": "bob"}, format="json")
    assert again.status_code == 201
    listed = alice_api.get("/api/v1/blocks/").json()
    assert [b["username"] for b in listed] == ["bob"]
    assert alice_api.delete("/api/v1/blocks/bob/").status_code == 204
    assert alice_api.delete("/api/v1/blocks/bob/").status_code == 204
    assert alice_api.get("/api/v1/blocks/").json() == []


def test_a_blocked_player_gets_403_when_challenging(alice_api, bob_api, alice, bob):
    alice_api.post("/api/v1/blocks/", {"username": "bob"}, format="json")
    refused = bob_api.post("/api/v1/challenges/", {"kind": "onitama", "opponent": "alice"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "blocked"
    assert refused.json()["message"] == "This player does not accept your challenges."
    open_challenge = games_services.challenge_create(challenger=alice, kind="onitama")
    refused = bob_api.post("/api/v1/challenges/%d/accept/" % open_challenge.pk)
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"


def test_block_errors(alice_api, anon, alice):
    self_block = alice_api.post("/api/v1/blocks/", {"username": "alice"}, format="json")
    assert self_block.status_code == 400 and self_block.json()["code"] == "self_block"
    unknown = alice_api.post("/api/v1/blocks/", {"username": "nobody"}, format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "player_not_found"
    assert alice_api.delete("/api/v1/blocks/nobody/").status_code == 404
    assert alice_api.post("/api/v1/blocks/", {}, format="json").status_code == 400
    assert anon.get("/api/v1/blocks/").status_code == 401


def test_a_read_only_token_cannot_block(alice, bob):
    reader = token_client(alice, scopes=("read",))
    assert reader.get("/api/v1/blocks/").status_code == 200
    assert reader.post("/api/v1/blocks/", {"username": "bob"}, format="json").status_code == 403
    assert not account_selectors.is_blocked(blocker=alice, blocked=bob)


def test_report_a_player_and_a_game_once_a_day(alice_api, alice, bob):
    challenge = games_services.challenge_create(challenger=alice, opponent=bob, kind="onitama")
    game = games_services.challenge_accept(challenge_id=challenge.pk, user=bob)
    made = alice_api.post("/api/v1/reports/", {"kind": "abuse", "reason": "Rude.", "player": "bob"}, format="json")
    assert made.status_code == 201
    assert made.json()["player"] == "bob" and made.json()["status"] == "open"
    repeat = alice_api.post("/api/v1/reports/", {"kind": "other", "reason": "Again.", "player": "bob"}, format="json")
    assert repeat.status_code == 409 and repeat.json()["code"] == "report_repeated"
    on_game = alice_api.post(
        "/api/v1/reports/", {"kind": "engine", "reason": "Too good.", "game": game.pk}, format="json"
    )
    assert on_game.status_code == 201 and on_game.json()["game"] == game.pk
    assert Report.objects.count() == 2


def test_report_errors(alice_api, anon):
    def post(body):
        return alice_api.post("/api/v1/reports/", body, format="json")

    assert post({"kind": "abuse", "reason": "me", "player": "alice"}).json()["code"] == "report_self"
    assert post({"kind": "abuse", "reason": "x"}).status_code == 400
    assert post({"kind": "abuse", "reason": "x", "player": "bob", "game": 1}).status_code == 400
    assert post({"kind": "cheese", "reason": "x", "player": "bob"}).status_code == 400
    assert post({"kind": "abuse", "reason": "x", "player": "nobody"}).status_code == 404
    assert post({"kind": "abuse", "reason": "x", "game": 999999}).status_code == 404
    assert (
        anon.post("/api/v1/reports/", {"kind": "abuse", "reason": "x", "player": "bob"}, format="json").status_code
        == 401
    )
    assert not Report.objects.exists()


def test_a_repeated_idempotency_key_reports_once(alice_api, bob):
    body = {"kind": "stalling", "reason": "Never moves.", "player": "bob"}
    first = alice_api.post("/api/v1/reports/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    second = alice_api.post("/api/v1/reports/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert Report.objects.count() == 1
