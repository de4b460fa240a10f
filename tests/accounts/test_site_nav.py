"""accounts.context_processors.site_nav: the header's links and the language choices drawn once
per process for (language, player), the same markup as before, and a changed name shows at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import context_processors
from tests.factories import make_user

pytestmark = pytest.mark.django_db

NAV = re.compile(r'<ul class="nav-links">(.*?)</ul>', re.S)
LINK = re.compile(r'<li><a href="([^"]+)">([^<]+)</a></li>')


def nav_of(client: Client, path: str = "/", language: str = "en") -> str:
    found = NAV.search(client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert found is not None
    return found.group(1)


def test_a_visitor_and_a_player_see_their_links_and_the_player_logs_out_with_a_fresh_token():
    context_processors._drawn.clear()
    visitor = Client()
    links = LINK.findall(nav_of(visitor))
    assert [text for _href, text in links] == ["Home", "Lobby", "Tournaments", "Ladders", "Rules", "Log in", "Sign up"]
    dora = make_user("dora")
    player = Client()
    player.force_login(dora)
    nav = nav_of(player)
    assert [text for _href, text in LINK.findall(nav)] == [
        "Home",
        "Lobby",
        "Tournaments",
        "Ladders",
        "Rules",
        dora.public_name,
        "Profile",
        "Mail and vacation",
    ]
    assert '<a href="/players/dora/">' in nav
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', nav_of(player) + nav_of(player))
    assert len(tokens) == 2 and tokens[0] != tokens[1]  # masked anew on each page: not kept
    assert "Log in" not in nav and 'action="/accounts/logout/"' in nav


def test_a_changed_name_shows_at_once_and_each_language_has_its_choices():
    dora = make_user("dora")
    player = Client()
    player.force_login(dora)
    assert "Dora the Bold" not in nav_of(player)
    dora.display_name = "Dora the Bold"
    dora.save()
    assert "Dora the Bold" in nav_of(player)
    erin = make_user("erin")
    other = Client()
    other.force_login(erin)
    assert "Dora the Bold" not in nav_of(other) and "/players/erin/" in nav_of(other)
    for language in ("en", "ar", "id"):
        page = Client().get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        selected = re.findall(r'<option value="(\w+)" lang="\w+" selected>', page)
        assert selected == [language]
        assert len(re.findall(r'<option value="\w+" lang="\w+"', page)) >= 3
    arabic = LINK.findall(nav_of(Client(), language="ar"))
    assert len(arabic) == 7 and "Home" not in [text for _href, text in arabic]


def test_the_kept_drawings_are_bounded(monkeypatch):
    monkeypatch.setattr(context_processors, "_DRAWN_KEPT", 3)
    context_processors._drawn.clear()
    for index in range(5):
        player = Client()
        player.force_login(make_user("p%d" % index))
        nav_of(player)
        assert len(context_processors._drawn) <= 3
