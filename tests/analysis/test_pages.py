"""The game page's analysis panel: the button for the players of a game that is over, the
chart (server-side SVG, no inline style or script) and the marked moves for every visitor;
nothing while the game runs, and the button's refusals with their status."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import GameAnalysis
from tests.factories import start_game

from .conftest import finished

pytestmark = pytest.mark.django_db


def _page(client, game):
    return client.get(reverse("games:game", args=[game.pk]))


def test_the_button_then_the_chart_and_the_marks(client, alice, carol, django_capture_on_commit_callbacks):
    # a game whose first-legal moves walk into a forced loss, so that it has marks
    from tests.factories import play, to_move

    game = play(start_game(alice, carol, "onitama", {"cards": "base"}, seed=12345), 40)
    if game.is_active:
        from games import services

        services.game_resign(game_id=game.pk, user=to_move(game))
    client.force_login(alice)
    page = _page(client, game).content.decode()
    assert 'id="analysis"' in page and "Analyse this game" in page and "analysis-chart" not in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("analysis:request", args=[game.pk]))
    assert response.status_code == 302 and response["Location"].endswith("#analysis")
    page = _page(client, game).content.decode()
    assert '<svg class="analysis-chart"' in page and "Analyse this game" not in page
    row = GameAnalysis.objects.get(game=game)
    assert row.marks, "this game has marked moves"
    for mark in row.marks:
        assert 'id="analysis-mark-%d"' % mark["ply"] in page
        assert mark["best"] in page
    assert "style=" not in page.split('id="analysis"', 1)[1].split("</section>", 1)[0]
    # a stranger sees the chart, without the button
    client.logout()
    page = _page(client, game).content.decode()
    assert '<svg class="analysis-chart"' in page and "Analyse this game" not in page


def test_a_running_game_shows_nothing_and_the_button_is_refused_with_409(client, alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    client.force_login(alice)
    assert 'id="analysis"' not in _page(client, game).content.decode()
    response = client.post(reverse("analysis:request", args=[game.pk]))
    assert response.status_code == 409
    assert "still running" in response.content.decode()
    assert not GameAnalysis.objects.exists()


def test_over_the_budget_the_page_says_so_with_429(client, alice, bob, settings, django_capture_on_commit_callbacks):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "analysis": "1/hour"}
    first, second = finished(alice, bob, seed=1), finished(alice, bob, seed=2)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("analysis:request", args=[first.pk])).status_code == 302
    response = client.post(reverse("analysis:request", args=[second.pk]))
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert "try again" in response.content.decode()


def test_a_visitor_who_does_not_play_cannot_ask(client, carol, finished_game):
    client.force_login(carol)
    assert "Analyse this game" not in _page(client, finished_game).content.decode()
    assert client.post(reverse("analysis:request", args=[finished_game.pk])).status_code == 403
