"""Me and preferences, public player pages, the error shape, rate limits, CORS, the schema."""

import pytest
from rest_framework.test import APIClient

from .conftest import play, start_game

pytestmark = pytest.mark.django_db


def test_me_shows_my_account_and_changes_only_the_sent_preferences(alice_api, alice):
    me = alice_api.get("/api/v1/me/").json()
    assert me["email"] == "alice@example.org" and me["email_on_your_turn"] is True
    changed = alice_api.patch(
        "/api/v1/me/",
        {"display_name": "Alice A.", "email_on_your_turn": False, "time_zone": "Asia/Jakarta"},
        format="json",
    )
    assert changed.status_code == 200
    alice.refresh_from_db()
    assert (alice.display_name, alice.email_on_your_turn, alice.time_zone) == ("Alice A.", False, "Asia/Jakarta")
    assert alice.email_on_game_over is True
    bad = alice_api.patch("/api/v1/me/", {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "time_zone"
    assert alice_api.patch("/api/v1/me/", {"language": "xx"}, format="json").status_code == 400


def test_a_failing_address_is_shown_and_fixed_through_the_api(alice_api, alice, django_capture_on_commit_callbacks):
    from django.core import mail

    from accounts.deliverability import address_failure_record
    from tests.helpers import matched

    address_failure_record(email=alice.email, failure="bounce")
    assert alice_api.get("/api/v1/me/").json()["email_is_failing"] is True
    wrong = alice_api.post(
        "/api/v1/account/email/", {"email": "alice@fixed.example.org", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "password"
    bad = alice_api.post(
        "/api/v1/account/email/", {"email": "not-an-address", "password": "pw-alice-123456"}, format="json"
    )
    assert bad.status_code == 400
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        asked = alice_api.post(
            "/api/v1/account/email/", {"email": "alice@fixed.example.org", "password": "pw-alice-123456"}, format="json"
        )
    assert asked.status_code == 202 and "alice@fixed.example.org" in asked.json()["message"]
    assert [m.to for m in mail.outbox] == [["alice@fixed.example.org"]]
    link = matched(r"https?://[^/\s]+(/accounts/email/confirm/\S+/)", mail.outbox[0].body).group(1)
    APIClient().post(link)  # the link's page: its button POSTs (a GET changes nothing)
    me = alice_api.get("/api/v1/me/").json()
    assert me["email"] == "alice@fixed.example.org" and me["email_is_failing"] is False


def test_messages_follow_the_users_language(alice_api, alice):
    alice.language = "id"
    alice.save()
    assert alice_api.get("/api/v1/players/nobody/").json()["message"] == "Pemain tidak ditemukan."


def test_a_player_page_is_public_but_private_data_stays_private(anon, alice, bob):
    game = play(start_game(alice, bob, "onitama", {"cards": "base"}), 2)
    page = anon.get("/api/v1/players/alice/")
    assert page.status_code == 200
    body = page.json()
    assert body["username"] == "alice" and body["games_active"] == 1
    text = page.content.decode()
    assert "alice@example.org" not in text and "password" not in text
    games = anon.get("/api/v1/players/alice/games/").json()["results"]
    assert [g["id"] for g in games] == [game.pk]
    assert "example.org" not in anon.get("/api/v1/players/alice/games/").content.decode()
    assert anon.get("/api/v1/players/nobody/").status_code == 404
    assert anon.get("/api/v1/players/nobody/games/").json()["code"] == "player_not_found"


def test_every_error_has_one_shape(alice_api, anon):
    answers = [
        anon.get("/api/v1/me/"),
        alice_api.get("/api/v1/games/424242/"),
        alice_api.delete("/api/v1/me/"),
        alice_api.post("/api/v1/challenges/", "{", content_type="application/json"),
        alice_api.post("/api/v1/challenges/", {}, format="json"),
    ]
    assert [a.status_code for a in answers] == [401, 404, 405, 400, 400]
    for answer in answers:
        body = answer.json()
        assert set(body) == {"code", "message", "details"} and body["code"] and body["message"]


def test_rate_limits_per_user_answer_429_with_retry_after(settings, alice_api, bob_api):
    settings.API_THROTTLE_RATES = {"user": "3/min", "ip": "1000/min", "auth": "1000/min"}
    assert [alice_api.get("/api/v1/me/").status_code for _ in range(3)] == [200, 200, 200]
    limited = alice_api.get("/api/v1/me/")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert limited.json()["code"] == "throttled" and limited.json()["details"]["retry_after"] > 0
    assert bob_api.get("/api/v1/me/").status_code == 200  # another user has their own budget


def test_rate_limits_per_ip_cover_anonymous_and_credential_requests(settings, anon, alice):
    settings.API_THROTTLE_RATES = {"user": "1000/min", "ip": "1000/min", "auth": "2/min"}
    wrong = {"username": "alice", "password": "guess", "name": "x"}
    codes = [anon.post("/api/v1/auth/token/", wrong, format="json").status_code for _ in range(3)]
    assert codes == [400, 400, 429]
    settings.API_THROTTLE_RATES = {"user": "1000/min", "ip": "2/min", "auth": "1000/min"}
    codes = [anon.get("/api/v1/ping/").status_code for _ in range(3)]
    assert codes[-1] == 429


def test_cors_allows_the_configured_web_origin_only(settings, anon):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]
    allowed = anon.options(
        "/api/v1/games/", HTTP_ORIGIN="https://app.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert allowed["Access-Control-Allow-Origin"] == "https://app.example"
    assert "idempotency-key" in allowed["Access-Control-Allow-Headers"]
    other = anon.get("/api/v1/games/", HTTP_ORIGIN="https://evil.example")
    assert "Access-Control-Allow-Origin" not in other


def test_schema_and_docs_are_served(anon):
    schema = anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    spec = schema.json()
    paths = spec["paths"]
    assert all(path.endswith("/") for path in paths)
    assert "/api/v1/games/{game_id}/moves/" in paths and "/api/v1/events/" in paths
    move = paths["/api/v1/games/{game_id}/moves/"]["post"]
    assert {"201", "400", "403", "409", "422", "429"} <= set(move["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in move["parameters"])
    assert "bearerAuth" in spec["components"]["securitySchemes"]
    docs = anon.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_unknown_api_paths_are_json_404s(anon):
    for path in ("/api/v1/games/-5/", "/api/v1/nothing/", "/api/v1/games/1/nonsense/"):
        answer = anon.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    csrf_checked = APIClient(enforce_csrf_checks=True)
    posted = csrf_checked.post("/api/v1/games/-5/resign/", {}, format="json")
    assert posted.status_code == 404 and posted.json()["code"] == "not_found"
