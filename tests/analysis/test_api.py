"""GET/POST /api/v1/games/<id>/analysis/: anyone reads the analysis of a game that is over
(the game's record is public), only its players ask for it; 409 while the game runs, 429
over a player's budget, 200 for one already made (cached), 202 when queued."""

from __future__ import annotations

import pytest

from analysis.models import GameAnalysis
from tests.api_clients import api_settings, token_client  # noqa: F401  (api_settings: the API tests. settings)
from tests.factories import start_game

from .conftest import LEVEL, finished

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


def _url(game_id: int) -> str:
    return "/api/v1/games/%d/analysis/" % game_id


def test_a_player_asks_the_other_player_and_strangers_read_it(
    alice, bob, carol, finished_game, anon, django_capture_on_commit_callbacks
):
    alice_api, bob_api, carol_api = token_client(alice), token_client(bob), token_client(carol)
    assert (anon.get(_url(finished_game.pk)).status_code, anon.get(_url(finished_game.pk)).json()["code"]) == (
        404,
        "analysis_not_found",
    )
    with django_capture_on_commit_callbacks(execute=True) as sent:
        asked = alice_api.post(_url(finished_game.pk))
    assert asked.status_code == 202, asked.json()
    assert asked.json()["status"] == "pending" and len(sent) == 1
    for client in (bob_api, carol_api, anon):
        read = client.get(_url(finished_game.pk))
        assert read.status_code == 200, read.json()
        body = read.json()
        assert body["status"] == "done" and body["bot_level"] == LEVEL and body["game"] == finished_game.pk
        assert [p["ply"] for p in body["positions"]] == list(range(finished_game.ply + 1))
        assert {"ply", "side", "kind", "played", "best", "before", "after"} >= set().union(*body["marks"] or [set()])
    # the other player's request is cached: 200, nothing queued
    with django_capture_on_commit_callbacks(execute=True) as sent:
        again = bob_api.post(_url(finished_game.pk))
    assert (again.status_code, again.json()["status"], sent) == (200, "done", [])
    assert GameAnalysis.objects.count() == 1
    # strangers read but do not ask
    refused = carol_api.post(_url(finished_game.pk))
    assert (refused.status_code, refused.json()["code"]) == (403, "analysis_not_a_player")
    assert anon.post(_url(finished_game.pk)).status_code == 401


@pytest.mark.parametrize("rated", [True, False])
def test_a_running_game_is_a_409_with_a_clear_message(alice, bob, rated):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, rated=rated)
    alice_api = token_client(alice)
    for response in (alice_api.post(_url(game.pk)), alice_api.get(_url(game.pk))):
        assert (response.status_code, response.json()["code"]) == (409, "analysis_game_running")
        assert "still running" in response.json()["message"]
    assert not GameAnalysis.objects.exists()


def test_a_game_that_runs_again_hides_its_analysis(alice, finished_game, django_capture_on_commit_callbacks):
    """Staff may reverse a time-out: the game runs again, and a bot's judgement of it is no
    longer shown to anyone (it would be advice during play)."""
    with django_capture_on_commit_callbacks(execute=True):
        assert token_client(alice).post(_url(finished_game.pk)).status_code == 202
    assert token_client(alice).get(_url(finished_game.pk)).status_code == 200
    finished_game.__class__.objects.filter(pk=finished_game.pk).update(status="active")
    response = token_client(alice).get(_url(finished_game.pk))
    assert (response.status_code, response.json()["code"]) == (409, "analysis_game_running")


def test_the_budget_is_a_429_with_retry_after(alice, bob, settings, django_capture_on_commit_callbacks):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "analysis": "1/hour"}
    first, second = finished(alice, bob, seed=1), finished(alice, bob, seed=2)
    alice_api = token_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post(_url(first.pk)).status_code == 202
    limited = alice_api.post(_url(second.pk))
    assert (limited.status_code, limited.json()["code"]) == (429, "throttled")
    assert int(limited["Retry-After"]) >= 1 and limited.json()["details"]["retry_after"] >= 1
    assert alice_api.post(_url(first.pk)).status_code == 200  # the cached one costs nothing
    assert token_client(bob).post(_url(second.pk)).status_code == 202  # bob's budget is his own


def test_unknown_game_and_read_only_token(alice, finished_game):
    assert token_client(alice).get(_url(finished_game.pk + 1000)).status_code == 404
    assert token_client(alice).post(_url(finished_game.pk + 1000)).status_code == 404
    assert token_client(alice, scopes=("read",)).post(_url(finished_game.pk)).status_code == 403
