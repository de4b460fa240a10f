"""Where ratings show: the lobby's leaderboards, the player page's chart, the leaderboard page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import Rating

from .conftest import win

pytestmark = pytest.mark.django_db


def test_the_lobby_shows_each_games_leaderboard(client, alice, bob):
    Rating.objects.create(
        user=bob,
        kind="onitama",
        rating=1750,
        deviation=70,
        games_played=20,
        last_played_at=timezone.now() - timedelta(days=2),
    )
    client.force_login(alice)
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'class="leaderboards"' in html
    assert 'data-kind="onitama"' in html and 'data-kind="maatatahay"' in html
    assert '>bob</a> <span class="rating">1750</span>' in html


def test_the_player_page_shows_ratings_and_an_svg_history_chart(client, alice, bob):
    game = win(alice, bob)
    win(bob, alice)
    html = client.get(reverse("players:detail", args=["alice"])).content.decode()
    assert 'class="player-ratings"' in html
    assert '<svg class="rating-chart"' in html and "<polyline" in html
    assert html.count("<circle") == 2
    assert reverse("games:game", args=[game.pk]) in html
    assert "?" in html  # two games: still provisional


def test_a_player_without_rated_games_has_no_chart(client, alice):
    html = client.get(reverse("players:detail", args=["alice"])).content.decode()
    assert "1500?" in html and "<svg" not in html


def test_the_leaderboard_page(client, alice):
    Rating.objects.create(
        user=alice, kind="maatatahay", rating=1640, deviation=50, games_played=12, last_played_at=timezone.now()
    )
    response = client.get(reverse("ratings:leaderboard", args=["maatatahay"]))
    assert response.status_code == 200 and "1640" in response.content.decode()
    assert client.get(reverse("ratings:leaderboard", args=["chess"])).status_code == 404
