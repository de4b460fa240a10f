"""Ratings through the API: profiles with ratings, leaderboards."""
import pytest

from tests.api.conftest import _api_settings  # noqa: F401  (the API tests' settings: an autouse fixture)

pytestmark = pytest.mark.django_db


def test_a_profile_lists_a_rating_per_game(anon, alice):
    ratings = anon.get("/api/v1/players/alice/").json()["ratings"]
    assert {r["kind"] for r in ratings} == {"onitama", "maatatahay"}
    assert all(r["provisional"] and r["games_played"] == 0 and r["display"].endswith("?") for r in ratings)


def test_leaderboard_needs_a_game_kind(anon):
    assert anon.get("/api/v1/ratings/leaderboard/", {"kind": "onitama"}).json() == []
    refused = anon.get("/api/v1/ratings/leaderboard/")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
