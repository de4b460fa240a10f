"""games.views.game_urls and accounts.context_processors' site_urls: the addresses a page links,
reversed once per process, are the addresses Django reverses, under any script prefix."""

from __future__ import annotations

import pytest
from django.urls import get_script_prefix, reverse, set_script_prefix

from accounts.context_processors import _SITE_URL_NAMES, _site_urls
from games.views import _GAME_URL_NAMES, game_urls


@pytest.fixture
def script_prefix():
    before = get_script_prefix()
    yield set_script_prefix
    set_script_prefix(before)


@pytest.mark.parametrize("prefix", ["/", "/site/"])
def test_a_games_addresses_are_djangos(script_prefix, prefix):
    script_prefix(prefix)
    for game_id in (1, 7, 98765, 987654321, 12345678901):
        urls = game_urls(game_id)
        assert set(urls) == set(_GAME_URL_NAMES)
        for name in _GAME_URL_NAMES:
            assert urls[name] == reverse("games:" + name, args=[game_id]), (prefix, game_id, name)
            assert urls[name].startswith(prefix)


@pytest.mark.parametrize("prefix", ["/", "/site/"])
def test_the_sites_addresses_are_djangos(script_prefix, prefix):
    script_prefix(prefix)
    assert _site_urls() == {key: reverse(name) for key, name in _SITE_URL_NAMES.items()}
    assert _site_urls()["home"].startswith(prefix)
