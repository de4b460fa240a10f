"""Ratings through the API: profiles with ratings, leaderboards."""

import pytest

from tests.api_clients import api_settings  # noqa: F401  (api_settings: the API tests' settings, applied below)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def test_a_profile_lists_a_rating_per_game(anon, alice):
    ratings = anon.get("/api/v1/players/alice/").json()["ratings"]
    assert {r["kind"] for r in ratings} == {"onitama", "maatatahay"}
    assert all(r["provisional"] and r["games_played"] == 0 and r["display"].endswith("?") for r in ratings)


def test_leaderboard_needs_a_game_kind(anon):
    assert anon.get("/api/v1/ratings/leaderboard/", {"kind": "onitama"}).json() == []
    refused = anon.get("/api/v1/ratings/leaderboard/")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_a_bad_kind_is_a_field_error_like_any_other(anon):
    """The leaderboard's kind is checked by a serializer: the field error says what is wrong (it
    used to echo the value sent, unlike every other field error of the API)."""
    unknown = anon.get("/api/v1/ratings/leaderboard/", {"kind": "chess"})
    assert unknown.status_code == 400
    assert unknown.json()["details"] == {"fields": {"kind": ['"chess" is not a valid choice.']}}
    missing = anon.get("/api/v1/ratings/leaderboard/")
    assert missing.json()["details"] == {"fields": {"kind": ["This field is required."]}}
