"""Challenges through the API: direct and open, accept, decline, cancel, lists, permissions."""

import pytest

from games.models import Challenge

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

CHALLENGES = "/api/v1/challenges/"


def challenge(client, headers=None, **fields):
    data = {"kind": "onitama", "options": {"cards": "base"}, **fields}
    return client.post(CHALLENGES, data, format="json", **(headers or {}))


def test_a_direct_challenge_is_listed_both_ways_and_accepted(alice_api, bob_api, carol_api):
    made = challenge(alice_api, opponent="bob", side="blue", days_per_move=5)
    assert made.status_code == 201
    body = made.json()
    assert body["challenger"] == "alice" and body["opponent"] == "bob" and body["status"] == "open"
    assert [c["id"] for c in alice_api.get(CHALLENGES).json()["outgoing"]] == [body["id"]]
    assert [c["id"] for c in bob_api.get(CHALLENGES).json()["incoming"]] == [body["id"]]
    lists = carol_api.get(CHALLENGES).json()
    assert lists == {"incoming": [], "outgoing": [], "open": []}
    assert carol_api.get(CHALLENGES + "%d/" % body["id"]).status_code == 404
    assert bob_api.get(CHALLENGES + "%d/" % body["id"]).json()["status"] == "open"
    stolen = carol_api.post(CHALLENGES + "%d/accept/" % body["id"])
    assert stolen.status_code == 403 and stolen.json()["code"] == "not_for_you"
    accepted = bob_api.post(CHALLENGES + "%d/accept/" % body["id"])
    assert accepted.status_code == 201
    game = accepted.json()
    assert game["your_side"] == "red" and game["days_per_move"] == 5
    assert {s["username"] for s in game["seats"]} == {"alice", "bob"}
    assert Challenge.objects.get(pk=body["id"]).game_id == game["id"]
    again = bob_api.post(CHALLENGES + "%d/accept/" % body["id"])
    assert again.status_code == 409 and again.json()["code"] == "challenge_closed"


def test_an_open_challenge_is_accepted_by_anyone(alice_api, carol_api):
    made = challenge(alice_api, kind="maatatahay", options={"variant": "first"}).json()
    assert made["opponent"] is None
    assert [c["id"] for c in carol_api.get(CHALLENGES).json()["open"]] == [made["id"]]
    assert carol_api.get(CHALLENGES + "%d/" % made["id"]).status_code == 200
    own = alice_api.post(CHALLENGES + "%d/accept/" % made["id"])
    assert own.status_code == 400 and own.json()["code"] == "self_challenge"
    game = carol_api.post(CHALLENGES + "%d/accept/" % made["id"]).json()
    assert game["kind"] == "maatatahay"


def test_decline_and_cancel_belong_to_the_right_player(alice_api, bob_api, carol_api):
    first = challenge(alice_api, opponent="bob").json()["id"]
    assert alice_api.post(CHALLENGES + "%d/decline/" % first).status_code == 403
    assert carol_api.post(CHALLENGES + "%d/decline/" % first).status_code == 403
    declined = bob_api.post(CHALLENGES + "%d/decline/" % first)
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    second = challenge(alice_api, opponent="bob").json()["id"]
    not_yours = bob_api.post(CHALLENGES + "%d/cancel/" % second)
    assert not_yours.status_code == 403 and not_yours.json()["code"] == "not_yours"
    cancelled = alice_api.post(CHALLENGES + "%d/cancel/" % second)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert alice_api.post(CHALLENGES + "%d/cancel/" % second).status_code == 409
    assert alice_api.post(CHALLENGES + "999999/cancel/").status_code == 404


def test_bad_challenges_are_refused_with_a_reason(alice_api, anon):
    assert challenge(alice_api, opponent="nobody").json()["code"] == "player_not_found"
    assert challenge(alice_api, opponent="alice").json()["code"] == "self_challenge"
    bad_kind = challenge(alice_api, kind="chess")
    assert bad_kind.status_code == 400 and "kind" in bad_kind.json()["details"]["fields"]
    bad_options = challenge(alice_api, options={"cards": "all of them"})
    assert bad_options.status_code == 400 and bad_options.json()["code"] == "bad_options"
    assert challenge(alice_api, side="green").json()["code"] == "bad_seat"
    assert challenge(alice_api, days_per_move=4).status_code == 400
    assert challenge(anon, opponent="alice").status_code == 401
    assert not Challenge.objects.exists()


def test_creating_with_an_idempotency_key_makes_one_challenge(alice_api, bob):
    one = challenge(alice_api, {"HTTP_IDEMPOTENCY_KEY": "c-1"}, opponent="bob")
    two = challenge(alice_api, {"HTTP_IDEMPOTENCY_KEY": "c-1"}, opponent="bob")
    assert one.status_code == two.status_code == 201 and one.json() == two.json()
    assert Challenge.objects.count() == 1
