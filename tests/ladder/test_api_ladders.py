"""Ladders through the API: list, detail, join, leave and ladder challenges (the ladder
app's own rules)."""

import pytest

from ladder.models import Ladder
from tests.api_clients import api_settings  # noqa: F401  (api_settings: the API tests' settings, applied below)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


@pytest.fixture
def ladder(db):
    return Ladder.objects.create(name="API ladder", kind="onitama", days_per_move=3, max_places_up=3)


def test_join_challenge_and_leave_a_ladder(alice_api, bob_api, anon, ladder):
    listed = anon.get("/api/v1/ladders/").json()
    assert ladder.pk in [lad["id"] for lad in listed]
    assert alice_api.post("/api/v1/ladders/%d/join/" % ladder.pk).json()["your_position"] == 1
    joined = bob_api.post("/api/v1/ladders/%d/join/" % ladder.pk).json()
    assert joined["your_position"] == 2 and joined["you_may_challenge"] == ["alice"]
    assert [row["username"] for row in anon.get("/api/v1/ladders/%d/" % ladder.pk).json()["standings"]] == [
        "alice",
        "bob",
    ]
    twice = bob_api.post("/api/v1/ladders/%d/join/" % ladder.pk)
    assert twice.status_code == 409 and twice.json()["code"] == "already_member"
    upward = alice_api.post("/api/v1/ladders/%d/challenges/" % ladder.pk, {"defender": "bob"}, format="json")
    assert upward.status_code in (400, 403, 409) and upward.json()["message"]
    game = bob_api.post("/api/v1/ladders/%d/challenges/" % ladder.pk, {"defender": "alice"}, format="json")
    assert game.status_code == 201
    assert game.json()["rated"] and {s["username"] for s in game.json()["seats"]} == {"alice", "bob"}
    running = anon.get("/api/v1/ladders/%d/" % ladder.pk).json()["running"]
    assert running == [{"game_id": game.json()["id"], "challenger": "bob", "defender": "alice"}]
    left = bob_api.post("/api/v1/ladders/%d/leave/" % ladder.pk)
    assert left.status_code == 200 and left.json()["your_position"] is None
    assert bob_api.post("/api/v1/ladders/%d/leave/" % ladder.pk).status_code == 403
    assert anon.post("/api/v1/ladders/%d/join/" % ladder.pk).status_code == 401
    assert anon.get("/api/v1/ladders/999999/").status_code == 404
    assert alice_api.post("/api/v1/ladders/999999/join/").json()["code"] == "ladder_not_found"
