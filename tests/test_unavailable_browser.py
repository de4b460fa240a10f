"""The page a browser gets while PostgreSQL or Redis is out of reach (maatasite/unavailable.py):
in English and Arabic, on a desktop and a 390 px phone, its text lies inside the screen,
nothing scrolls sideways, and its link tries the same address again once the service is back.
Screenshots go to $BOARD_SCREENSHOTS when set."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.db import OperationalError

from tests.browser_pages import DESKTOP, LANGUAGES, PHONE, signed_in_page, text_boxes
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_503_page_reads_on_a_phone_and_its_link_tries_again(live_server, browser, settings, monkeypatch, language):
    from games import selectors

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_user("alice")
    read_ids, down = selectors.player_game_ids, {"now": True}

    def game_ids(**kwargs):
        if down["now"]:
            try:
                raise psycopg.OperationalError("connection failed: Connection refused")
            except psycopg.OperationalError as cause:
                raise OperationalError(*cause.args) from cause
        return read_ids(**kwargs)

    monkeypatch.setattr(selectors, "player_game_ids", game_ids)
    shots = os.environ.get("BOARD_SCREENSHOTS")
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        down["now"] = False
        page = signed_in_page(browser, live_server.url, language=language, viewport=viewport)
        try:
            down["now"] = True
            answer = page.goto(live_server.url + "/lobby/")
            assert answer is not None and answer.status == 503
            assert answer.headers["retry-after"] == "30"
            assert page.locator("h1").inner_text() == ("نعود بعد قليل" if language == "ar" else "Back in a moment")
            direction = "rtl" if language == "ar" else "ltr"
            assert page.evaluate("getComputedStyle(document.documentElement).direction") == direction
            width = viewport["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
            boxes = text_boxes(page)
            assert boxes and not [b for b in boxes if b["left"] < -0.5 or b["right"] > width + 0.5]
            if shots:
                os.makedirs(shots, exist_ok=True)
                page.screenshot(path=os.path.join(shots, "unavailable-%s-%s.png" % (language, name)), full_page=True)
            down["now"] = False  # the service is back: the page's link loads the lobby
            with page.expect_navigation():
                page.locator("main a").click()
            assert page.url.endswith("/lobby/") and page.locator("#my-games").count() == 1
        finally:
            page.context.close()
