"""The analysis on the game page in Chromium: a player presses "Analyse this game", and the
chart (server-side SVG) and its marks show, for Onitama and Maatatahay, in English and
Arabic, on a desktop and a 390 px phone: the chart's dots and the list of marked moves are
there, every text of the panel lies inside the viewport and the chart's picture, nothing
scrolls sideways, no text is under 12 px on the phone, the panel takes the language's
direction, and the strict CSP reports nothing. Screenshots go to $BOARD_SCREENSHOTS when set."""

from __future__ import annotations

import os

import pytest

from analysis import services as analysis_services
from analysis.models import AnalysisStatus, GameAnalysis
from games import services
from tests.browser_pages import DESKTOP, LANGUAGES, PHONE, signed_in_page, text_boxes
from tests.factories import make_user, play, start_game, to_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _finished(alice, bob, kind: str, options: dict, decisions: int):
    game = play(start_game(alice, bob, kind, options, seed=12345), decisions)
    if game.is_active:
        services.game_resign(game_id=game.pk, user=to_move(game))
    game.refresh_from_db()
    return game


def _panel_checks(page, *, width: int, direction: str, marks: int, phone: bool) -> None:
    assert page.locator("svg.analysis-chart").is_visible()
    assert page.locator("svg.analysis-chart circle.chart-mark").count() == marks
    assert page.locator("#analysis .analysis-mark").count() == marks
    assert page.evaluate("getComputedStyle(document.querySelector('#analysis')).direction") == direction
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    chart = page.locator("svg.analysis-chart").bounding_box()
    assert chart is not None and chart["x"] >= 0 and chart["x"] + chart["width"] <= width
    panel = page.locator("#analysis").bounding_box()
    assert panel is not None
    inside = [
        box
        for box in text_boxes(page)
        if panel["y"] <= box["top"] <= panel["y"] + panel["height"] and box["tag"] != "title"
    ]
    assert inside, "the panel has text"
    for box in inside:
        assert 0 <= box["left"] and box["right"] <= width + 0.5, box
        if box["clip"]:
            assert box["clip"]["left"] - 0.5 <= box["left"] and box["right"] <= box["clip"]["right"] + 0.5, box
        if phone:
            assert box["size"] >= 12, box


def test_the_chart_and_its_marks_on_the_page_in_each_language_and_size(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    onitama = _finished(alice, bob, "onitama", {"cards": "base"}, 40)
    maatatahay = _finished(alice, bob, "maatatahay", {"variant": "first", "opening": 2}, 24)
    analysis_services.game_analysis_request(game_id=maatatahay.pk, user=bob)  # bob asks for this one
    shots = os.environ.get("BOARD_SCREENSHOTS", "")

    # alice presses the button on her Onitama game's page
    page = signed_in_page(browser, live_server.url, language="en", viewport=DESKTOP, user="alice")
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    try:
        page.goto("%s/games/%d/" % (live_server.url, onitama.pk))
        assert page.locator("svg.analysis-chart").count() == 0
        page.get_by_role("button", name="Analyse this game").click()
        page.wait_for_load_state()
        assert page.url.endswith("/games/%d/#analysis" % onitama.pk)
        assert page.locator("svg.analysis-chart").is_visible()
    finally:
        page.context.close()

    games = {"onitama": onitama, "maatatahay": maatatahay}
    for name, game in games.items():
        row = GameAnalysis.objects.get(game=game)
        assert row.status == AnalysisStatus.DONE and row.marks, (name, row.error)
    for language in LANGUAGES:
        direction = "rtl" if language == "ar" else "ltr"
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            for name, game in games.items():
                page = signed_in_page(browser, live_server.url, language=language, viewport=viewport, user="bob")
                page.on(
                    "console",
                    lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
                )
                try:
                    page.goto("%s/games/%d/#analysis" % (live_server.url, game.pk))
                    marks = len(GameAnalysis.objects.get(game=game).marks)
                    phone = size == "phone"
                    _panel_checks(page, width=viewport["width"], direction=direction, marks=marks, phone=phone)
                    if language == "ar":
                        assert page.locator("#analysis-title").inner_text() == "التحليل"
                    if shots:
                        os.makedirs(shots, exist_ok=True)
                        page.locator("#analysis").screenshot(
                            path=os.path.join(shots, "analysis-%s-%s-%s.png" % (name, language, size))
                        )
                finally:
                    page.context.close()
    assert violations == []


def test_a_page_waiting_for_its_analysis_shows_it_once_done(live_server, browser, settings):
    """The queued analysis's page asks the API now and then (static/analysis/analysis.js) and
    shows the chart by itself once the worker (here: the test) has computed it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    game = _finished(alice, bob, "onitama", {"cards": "base"}, 40)
    row = GameAnalysis.objects.create(
        game=game,
        bot_level=settings.ANALYSIS_BOT_LEVEL,
        bot_version="x",
        game_ply=game.ply,
        requested_at=game.created_at,
    )  # as a request leaves it before its task runs
    page = signed_in_page(browser, live_server.url, language="en", viewport=DESKTOP, user="bob")
    try:
        page.goto("%s/games/%d/" % (live_server.url, game.pk))
        assert page.locator(".analysis-status").is_visible() and page.locator("svg.analysis-chart").count() == 0
        done = analysis_services.game_analysis_run(analysis_id=row.pk)
        assert done is not None and done.status == AnalysisStatus.DONE
        page.locator("svg.analysis-chart").wait_for(state="visible", timeout=30_000)
        assert page.url.endswith("#analysis")
    finally:
        page.context.close()
