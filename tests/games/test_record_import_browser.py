"""A game record pasted on the import page opens on the analysis board, whose step links walk
through the moves; in English and Arabic, on a desktop and a 390 px phone, nothing scrolls
sideways and every text lies inside the screen. Screenshots go to $BOARD_SCREENSHOTS when set."""

from __future__ import annotations

import os

import pytest

from engine import get_game
from engine.core import random_game
from engine.records import GameRecord, record_to_text
from tests.browser_pages import DESKTOP, LANGUAGES, PHONE, signed_in_page, text_boxes
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_imported_record_steps_through_its_moves_in_the_browser(live_server, browser, settings, language):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    make_user("alice")
    rules = get_game("maatatahay")
    options = rules.normalize_options({"variant": "standard"})
    moves, _ = random_game(rules, 21, options)
    text = record_to_text(GameRecord(game="maatatahay", seed=21, options=options, moves=moves[:12]))
    shots = os.environ.get("BOARD_SCREENSHOTS")
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = signed_in_page(browser, live_server.url, language=language, viewport=viewport)
        try:
            page.goto(live_server.url + "/records/import/")
            page.fill("#record-text", text)
            with page.expect_navigation():
                page.locator("#record-open").click()
            assert page.locator("#step-at").inner_text().replace("\u200f", "").count("12") == 2
            page.locator("#step-start").click()
            page.wait_for_url("**?ply=0")
            assert page.locator(".last-move-line").count() == 0
            for ply in (1, 2, 3):
                page.locator("#step-next").click()
                page.wait_for_url("**?ply=%d" % ply)
                assert page.locator(".last-move-line code").inner_text() == moves[ply - 1]
            direction = "rtl" if language == "ar" else "ltr"
            assert page.evaluate("getComputedStyle(document.documentElement).direction") == direction
            width = viewport["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
            outside = [b for b in text_boxes(page) if b["left"] < -0.5 or b["right"] > width + 0.5]
            assert not outside, outside[:5]
            if shots:
                os.makedirs(shots, exist_ok=True)
                page.screenshot(path=os.path.join(shots, "record-%s-%s.png" % (language, name)), full_page=True)
        finally:
            page.context.close()
