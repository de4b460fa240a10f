"""The Maatatahay move controls in English and Arabic, on a desktop and on a 390 px phone.

A placement with every control on show (the third settlement example of the rulebook, with
crystals in storage: a1 can be rotated, takes Energy and Spirit from storage and, with 1 Energy,
has four settlement orders): the rotate button, the crystals' names, minus, value and plus, the
settlement order buttons, the preview, the pending move with its confirm and undo, and the side
panel's labels all lie inside the viewport; the page and every panel of the board take the
language's direction (rtl in Arabic), and the crystal rows read the way the language runs (minus
at the start, plus at the end: on the right and the left in Arabic). Screenshots of each are
written to $BOARD_SCREENSHOTS when it is set (to look at them).
"""

from __future__ import annotations

import os
import re

import pytest

from games import services
from tests.browser_pages import DESKTOP, LANGUAGES, PHONE, signed_in_page
from tests.engine.test_maatatahay import EXAMPLE_3, position
from tests.factories import make_user, start_game
from tests.games.test_board_browser import mover_name, open_game, space
from tests.games.test_maatatahay_board_browser import _mirrored, legal_now

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLS = [
    "#maat-rotate",
    ".maat-put-label",
    ".maat-counter-name",
    "#maat-energy-minus",
    "#maat-energy-value",
    "#maat-energy-plus",
    "#maat-spirit-minus",
    "#maat-spirit-value",
    "#maat-spirit-plus",
    ".maat-orders-label",
    ".maat-order",
    "#maat-preview p",
    "#pending-text",
    "#confirm-move",
    "#undo-move",
    "#move-prompt",
]
SIDE_PANEL = [
    ".spirit-track .panel-label",
    ".tribe-line .tribe-name",
    ".tribe-line .tribe-storage",
    ".tile-stream .panel-label",
    ".tile-stream .bag-line",
]
PANELS = [
    ".move-controls",
    "#move-form",
    "#maat-controls",
    ".maat-counters",
    ".maat-counter",
    "#maat-orders",
    "#maat-preview",
    "#pending-move",
    ".maatatahay-extras",
    ".spirit-track",
    ".tribe-line",
    ".tile-stream",
]


def every_control_game():
    game = start_game(make_user("rani"), make_user("sari"), "maatatahay", {"variant": "first"}, seed=3)
    placer = str(game.to_move_side)
    state = position(_mirrored(EXAMPLE_3, placer), placer=placer, tile="rookie", storage={placer: (2, 2)})
    services.game_state_keep(game=game, state=state)
    game.save()
    on_a1 = [m for m in legal_now(game) if m.parts.get("square") == "a1"]
    assert len({m.parts["rotation"] for m in on_a1}) > 1
    assert len({m.parts["put_energy"] for m in on_a1}) > 1 and len({m.parts["put_spirit"] for m in on_a1}) > 1
    ordered = [
        m for m in on_a1 if m.parts["put_energy"] == 1 and m.parts["rotation"] == 0 and not m.parts["put_spirit"]
    ]
    assert len(ordered) > 1
    return game


def numbers(text: str | None) -> list[float]:
    return [float(n) for n in re.findall(r"-?[0-9.]+", text or "")]


def inside(page, selector: str, width: int) -> int:
    """Every visible element of ``selector`` lies inside the viewport's width; how many there are."""
    boxes = page.locator(selector).evaluate_all(
        "els => els.filter((e) => e.getClientRects().length).map((e) => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, width: r.width, text: e.textContent.slice(0, 30)}; })"
    )
    outside = [b for b in boxes if b["width"] <= 0 or b["left"] < -0.5 or b["right"] > width + 0.5]
    assert not outside, "%s outside the %d px viewport: %s" % (selector, width, outside)
    return len(boxes)


def test_the_move_controls_and_the_panel_lie_inside_the_viewport_in_each_direction(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = every_control_game()
    shots = os.environ.get("BOARD_SCREENSHOTS")
    for language in LANGUAGES:
        direction = "rtl" if language == "ar" else "ltr"
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            width = viewport["width"]
            page = signed_in_page(browser, live_server.url, language=language, viewport=viewport, user=mover_name(game))
            try:
                open_game(page, live_server.url, game)
                space(page, "a1").click()
                page.locator("#maat-energy-plus").click()  # 1 Energy: the four orders
                assert page.locator(".maat-order").count() > 1
                page.wait_for_function(
                    "() => [...document.querySelectorAll('.maat-order-preview')].every((p) => p.textContent)"
                    " && !document.getElementById('maat-preview').textContent.includes('…')"
                )
                assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
                for selector in CONTROLS + SIDE_PANEL:
                    assert inside(page, selector, width) >= 1, (language, name, selector)
                assert page.evaluate("getComputedStyle(document.documentElement).direction") == direction
                for selector in PANELS:
                    found = page.locator(selector)
                    assert found.count() >= 1, selector
                    for i in range(found.count()):
                        assert found.nth(i).evaluate("e => getComputedStyle(e).direction") == direction, selector
                # The crystal rows run with the language: name, minus, value, plus from its start.
                for crystal in ("energy", "spirit"):
                    row = [
                        page.locator(s).bounding_box()
                        for s in (
                            "#maat-%s-minus" % crystal,
                            "#maat-%s-value" % crystal,
                            "#maat-%s-plus" % crystal,
                        )
                    ]
                    centres = [b["x"] + b["width"] / 2 for b in row if b]
                    assert len(centres) == 3
                    expected = sorted(centres, reverse=direction == "rtl")
                    assert centres == expected, (language, name, crystal, centres)
                # Confirm and Undo stay on one line (Undo wrapped below on a desktop once).
                confirm, undo = (page.locator(s).bounding_box() for s in ("#confirm-move", "#undo-move"))
                assert confirm and undo and abs(confirm["y"] - undo["y"]) < 2, (language, name, confirm, undo)
                rotate_keys_follow_the_reading_direction(page, direction)
                if shots:
                    os.makedirs(shots, exist_ok=True)
                    page.screenshot(
                        path=os.path.join(shots, "maat-controls-%s-%s.png" % (language, name)), full_page=True
                    )
            finally:
                page.context.close()


def rotate_keys_follow_the_reading_direction(page, direction: str) -> None:
    """On the rotate button the sideways arrow pointing along the line (right in English, left in
    Arabic) turns the tile on as a click does, and the other arrow turns it back."""
    forward, back = ("ArrowLeft", "ArrowRight") if direction == "rtl" else ("ArrowRight", "ArrowLeft")
    rotation = lambda: page.locator(".hot-tile").get_attribute("data-rotation")  # noqa: E731
    start = rotation()
    page.locator("#maat-rotate").click()
    clicked = rotation()
    page.locator("#maat-rotate").press(back)
    assert rotation() == start, (direction, start, clicked)
    page.locator("#maat-rotate").press(back)
    turned_back = rotation()
    page.locator("#maat-rotate").press(forward)
    page.locator("#maat-rotate").press(forward)
    assert rotation() == clicked, (direction, start, clicked)
    # Four or more distinct turns here: back and on differ, so a mirrored key would be caught.
    assert len({start, clicked, turned_back}) == 3, (start, clicked, turned_back)


def test_the_pending_tile_is_drawn_as_it_will_be_placed_with_the_crystals_put_on_it(live_server, browser, settings):
    """The tile drawn for the pending move is turned as the move says and carries the crystals it
    puts from storage; once confirmed, the board draws the placed tile with the same turn and
    the same crystals."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = every_control_game()
    legal = legal_now(game, previews=True)
    move = next(
        m
        for m in legal
        if m.parts["type"] == "place"
        and m.parts["rotation"] == 1
        and m.parts["put_energy"] == 1
        and m.parts["put_spirit"] == 1
        and m.preview
        and m.preview["hot_survives"]
        and m.preview["hot_crystals"] == {"energy": 1, "spirit": 1}
    )
    square = str(move.parts["square"])
    page = signed_in_page(browser, live_server.url, language="en", viewport=DESKTOP, user=mover_name(game))
    try:
        open_game(page, live_server.url, game)
        space(page, square).click()
        assert page.locator(".hot-tile .hot-crystal").count() == 0
        page.locator("#maat-rotate").click()
        page.locator("#maat-energy-plus").click()
        page.locator("#maat-spirit-plus").click()
        assert page.locator("#pending-text").inner_text() == move.text
        hot = page.locator(".hot-tile")
        assert hot.get_attribute("data-rotation") == "1"
        assert hot.locator(".hot-energy").count() == 1 and hot.locator(".hot-spirit").count() == 1
        turn = numbers(hot.locator("g").first.get_attribute("transform"))
        with page.expect_navigation():
            page.locator("#confirm-move").click()
        placed = page.locator(".tile[data-square='%s']" % square)
        assert numbers(placed.locator("g").first.get_attribute("transform")) == turn
        assert placed.locator("path title").all_text_contents() == ["Energy: 1", "Spirit: 1"]
    finally:
        page.context.close()
