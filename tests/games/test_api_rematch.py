"""The rematch through the API: POST /api/v1/games/<id>/rematch/ offers it (seats swapped),
the opponent answers it as any challenge; against a bot it starts at once."""

import pytest

from games import services
from games.models import Challenge, Game

from .conftest import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def rematch_url(game_id: int) -> str:
    return "/api/v1/games/%d/rematch/" % game_id


@pytest.fixture
def finished(alice, bob) -> Game:
    game = start_game(alice, bob, seat_choice="red")
    services.game_resign(game_id=game.pk, user=bob)
    return game


def test_an_offer_is_a_challenge_the_opponent_accepts(finished, alice_api, bob_api):
    made = alice_api.post(rematch_url(finished.pk))
    assert made.status_code == 201
    body = made.json()
    assert body["game_id"] is None
    offer = body["challenge"]
    assert (offer["challenger"], offer["opponent"], offer["side"], offer["status"]) == ("alice", "bob", "blue", "open")
    again = alice_api.post(rematch_url(finished.pk))
    assert again.status_code == 200 and again.json() == body
    incoming = bob_api.get("/api/v1/challenges/").json()["incoming"]
    assert [c["id"] for c in incoming] == [offer["id"]] and incoming[0]["rematch_of"] == finished.pk
    game = bob_api.post("/api/v1/challenges/%d/accept/" % offer["id"])
    assert game.status_code == 201 and game.json()["your_side"] == "red"
    late = bob_api.post(rematch_url(finished.pk))
    assert late.status_code == 200 and late.json()["game_id"] == game.json()["id"]
    assert late.json()["challenge"]["status"] == "accepted"


def test_the_opponents_offer_accepts_a_waiting_one(finished, alice_api, bob_api):
    offer = alice_api.post(rematch_url(finished.pk)).json()["challenge"]
    answered = bob_api.post(rematch_url(finished.pk))
    assert answered.status_code == 201
    assert answered.json()["challenge"]["id"] == offer["id"] and answered.json()["game_id"] is not None
    assert Game.objects.filter(rematch_of=finished).count() == 1


def test_a_replayed_idempotency_key_answers_the_first_time(finished, alice_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "rematch-1"}
    one = alice_api.post(rematch_url(finished.pk), **headers)
    two = alice_api.post(rematch_url(finished.pk), **headers)
    assert one.status_code == two.status_code == 201 and one.json() == two.json()
    assert two["Idempotent-Replayed"] == "true" and Challenge.objects.filter(rematch_of=finished).count() == 1


def test_refusals_in_the_error_shape(finished, alice, bob, carol_api, alice_api, anon):
    stranger = carol_api.post(rematch_url(finished.pk))
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_a_player"
    assert anon.post(rematch_url(finished.pk)).status_code == 401
    assert alice_api.post(rematch_url(999999)).status_code == 404
    running = start_game(alice, bob)
    early = alice_api.post(rematch_url(running.pk))
    assert early.status_code == 409 and early.json()["code"] == "rematch_not_finished"
    assert not Challenge.objects.filter(rematch_of__isnull=False).exists()


def test_against_a_bot_the_rematch_starts_at_once(alice, alice_api):
    game = services.game_create_solo(
        user=alice, kind="maatatahay", bot_level=4, side="wazu", options={"variant": "first"}
    )
    services.game_resign(game_id=game.pk, user=alice)
    made = alice_api.post(rematch_url(game.pk))
    assert made.status_code == 201 and made.json()["challenge"] is None
    detail = alice_api.get("/api/v1/games/%d/" % made.json()["game_id"]).json()
    assert detail["your_side"] == "balan" and detail["bot_level"] == 4 and detail["options"] == game.options
