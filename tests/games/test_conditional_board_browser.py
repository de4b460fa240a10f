"""Conditional moves entered on the board in a real browser (static/games/conditional.js):
the waiting player clicks their opponent's move and their answer on the board, adds the line,
takes an answer back and adds another, removes it from the list, and saves; the opponent's
page shows none of it, and the opponent's move, made on their board, is answered at once.
In English on a desktop and in Arabic on a 390 px phone, nothing scrolls sideways, every
text lies inside the screen and the form's notation example reads left to right on one line.
The same line is also entered, added and saved with the keyboard alone. Screenshots go to
$BOARD_SCREENSHOTS when set."""

from __future__ import annotations

import os

import pytest

from games import services
from games.models import Move
from games.rules import LegalMove, legal_moves_of
from tests.browser_pages import DESKTOP, PHONE, signed_in_page, text_boxes
from tests.factories import make_user, start_game, to_move
from tests.helpers import browser_login
from tests.test_accessibility import BLOCKING, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def steps(moves: list[LegalMove]) -> list[LegalMove]:
    """The moves of a piece (not passes), entered on the board's squares."""
    return [m for m in moves if m.parts.get("type") == "move"]


def waiting_game():
    """A fresh Onitama game: (game, the player to move, the player waiting, the engine state
    and the opponent's first piece move there, the position after it)."""
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    mover = to_move(game)
    waiter = bob if mover == alice else alice
    state = services.game_state(game)
    theirs = steps(legal_moves_of(kind="onitama", state=state))[0]
    rules = services.rules_for("onitama")
    return game, mover, waiter, theirs, rules.apply(state, rules.parse_move(state, theirs.text))


def click_move(page, move: LegalMove) -> None:
    """A piece, a square, and the card when both cards reach the square."""
    for square in (move.parts["from"], move.parts["to"]):
        page.locator(".board-wrap rect.space[data-square='%s']" % square).click()
    if page.locator("#card-choices").is_visible():
        page.locator("#card-choices button", has_text=str(move.parts["card"]).replace("_", " ")).click()


def wait_for_line(page, line: list[str]) -> None:
    page.wait_for_function(
        "(text) => document.querySelector('#conditional-entry .entry-plies').textContent === text", arg=" ".join(line)
    )


# The example's two plies in the label: the element's line boxes, and where each ply is drawn.
EXAMPLE_BOXES_JS = """
(example) => {
  const text = example.firstChild;
  const range = document.createRange();
  const split = text.textContent.indexOf(" ");
  const box = (start, end) => {
    range.setStart(text, start);
    range.setEnd(text, end);
    const rect = range.getBoundingClientRect();
    return {left: rect.left, right: rect.right, top: rect.top};
  };
  const end = text.textContent.length;
  return {lines: example.getClientRects().length, first: box(0, split), second: box(split + 1, end)};
}
"""


def check_notation_example(page) -> None:
    """The label's example ``ox:c5c4 boar:a1a2`` is an isolated left-to-right unit inside the
    sentence, whatever its direction: on one line, its first ply left of its second."""
    example = page.locator("#conditional-form label .notation-example")
    assert example.inner_text() == "ox:c5c4 boar:a1a2"
    assert example.evaluate("(e) => getComputedStyle(e).direction") == "ltr"
    assert example.evaluate("(e) => getComputedStyle(e).unicodeBidi") == "isolate"
    boxes = example.evaluate(EXAMPLE_BOXES_JS)
    assert boxes["lines"] == 1, boxes
    assert boxes["first"]["top"] == boxes["second"]["top"], boxes
    assert boxes["first"]["right"] <= boxes["second"]["left"], boxes


def check_layout(page, viewport: dict, language: str) -> None:
    direction = "rtl" if language == "ar" else "ltr"
    assert page.evaluate("getComputedStyle(document.documentElement).direction") == direction
    assert page.evaluate("getComputedStyle(document.getElementById('conditional-entry')).direction") == direction
    width = viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    outside = [b for b in text_boxes(page) if b["left"] < -0.5 or b["right"] > width + 0.5]
    assert not outside, outside[:5]
    check_notation_example(page)


@pytest.mark.parametrize("language, viewport", [("en", DESKTOP), ("ar", PHONE)], ids=["en-desktop", "ar-phone"])
def test_a_line_entered_on_the_board_is_saved_and_played(live_server, browser, settings, language, viewport):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game, mover, waiter, theirs, after = waiting_game()
    answers = steps(legal_moves_of(kind="onitama", state=after))
    mine, other = answers[0], answers[1]
    line = "%s %s" % (theirs.text, mine.text)
    shots = os.environ.get("BOARD_SCREENSHOTS")
    base = live_server.url
    page = signed_in_page(browser, base, language=language, viewport=viewport, user=waiter.username)
    try:
        page.goto("%s/games/%d/" % (base, game.pk))
        enter = page.locator("#conditional-enter")
        enter.click()  # shown once the script has run
        page.wait_for_function("() => document.querySelector('#conditional-entry .entry-prompt').textContent")
        assert page.locator("#conditional-entry .entry-add").is_disabled() and not enter.is_visible()
        click_move(page, theirs)
        wait_for_line(page, [theirs.text])
        marked = page.eval_on_selector_all(".board-wrap rect.last-move", "rects => rects.map(r => r.dataset.square)")
        assert set(marked) == {theirs.parts["from"], theirs.parts["to"]}  # the board shows the line's position
        click_move(page, mine)
        wait_for_line(page, [theirs.text, mine.text])
        page.locator("#conditional-entry .entry-add").click()
        rows = page.locator(".conditional-draft-lines li code")
        assert rows.all_inner_texts() == [line]
        assert page.locator("#conditional-lines").input_value() == line
        assert page.locator("#conditional-unsaved").is_visible()
        check_layout(page, viewport, language)
        blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]  # the entry panel open
        assert not blocking, blocking
        if shots:
            os.makedirs(shots, exist_ok=True)
            page.screenshot(path=os.path.join(shots, "conditional-%s.png" % language), full_page=True)
            page.locator("#conditional-form label").screenshot(
                path=os.path.join(shots, "conditional-label-%s.png" % language)
            )
        page.locator("#conditional-entry .entry-back").click()  # another answer to the same move
        wait_for_line(page, [theirs.text])
        click_move(page, other)
        wait_for_line(page, [theirs.text, other.text])
        page.locator("#conditional-entry .entry-add").click()
        assert rows.all_inner_texts() == [line, "%s %s" % (theirs.text, other.text)]
        page.locator(".conditional-draft-lines li").nth(1).locator("button.remove-line").click()
        assert rows.all_inner_texts() == [line]
        page.locator("#conditional-entry .entry-done").click()
        assert page.locator("#conditional-entry").count() == 0
        assert page.locator(".board-wrap rect.space.last-move").count() == 0  # the game's own board again
        with page.expect_navigation():
            page.locator("#conditional-save").click()
        assert services.conditional_lines_of(game_id=game.pk, user=waiter) == [[theirs.text, mine.text]]
        assert rows.all_inner_texts() == [line] and not page.locator("#conditional-unsaved").is_visible()

        browser_login(page, base, mover.username, clear_cookies=True)  # the opponent sees none of it
        page.goto("%s/games/%d/" % (base, game.pk))
        assert page.locator("#conditional").count() == 0 and mine.text not in page.content()
        page.wait_for_function("() => document.getElementById('move-prompt').textContent.length > 0")
        click_move(page, theirs)
        with page.expect_navigation():
            page.locator("#confirm-move").click()
        played = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
        assert played == [theirs.text, mine.text]
        assert page.locator(".last-move-line code").inner_text() == mine.text
    finally:
        page.context.close()


def focused(page) -> dict:
    """What has the keyboard: its id, its classes, and its square when it is one."""
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return {id: e.id, cls: e.getAttribute('class') || '', square: e.getAttribute('data-square')}; }"
    )


# The arrow key that brings the keyboard from the focused square one step nearer ``square``.
ARROW_TOWARDS_JS = """
(square) => {
  const here = document.activeElement;
  const there = document.querySelector(`.board-wrap rect.space[data-square='${square}']`);
  const size = Number(here.getAttribute("width"));
  const dx = (Number(there.getAttribute("x")) - Number(here.getAttribute("x"))) / size;
  const dy = (Number(there.getAttribute("y")) - Number(here.getAttribute("y"))) / size;
  return dx > 0 ? "ArrowRight" : dx < 0 ? "ArrowLeft" : dy > 0 ? "ArrowDown" : dy < 0 ? "ArrowUp" : null;
}
"""


def keyboard_to(page, square: str, key: str) -> None:
    """From the square that has the keyboard to ``square`` with the arrow keys, then ``key``."""
    for _ in range(10):
        assert "space" in focused(page)["cls"].split(), focused(page)
        arrow = page.evaluate(ARROW_TOWARDS_JS, square)
        if arrow is None:
            break
        page.keyboard.press(arrow)
    assert focused(page)["square"] == square
    page.keyboard.press(key)


def keyboard_move(page, move: LegalMove, key: str) -> None:
    """A piece and a square chosen with the keyboard, and the card when both cards reach it."""
    keyboard_to(page, str(move.parts["from"]), key)
    keyboard_to(page, str(move.parts["to"]), key)
    if page.locator("#card-choices").is_visible():
        card = str(move.parts["card"]).replace("_", " ")
        for _ in range(3):
            if card in page.evaluate("document.activeElement.textContent"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press(key)


def wait_for_square_focused(page) -> None:
    page.wait_for_function("() => document.activeElement.matches('.board-wrap rect.space')")


def test_a_line_entered_with_the_keyboard_alone_is_saved(live_server, browser, settings):
    """Enter on the button, the arrow keys and Enter or Space on the squares, Enter on "Add
    this line", Tab and Enter to leave and to save: the keyboard never falls off the page."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game, mover, waiter, theirs, after = waiting_game()
    mine = steps(legal_moves_of(kind="onitama", state=after))[-1]
    line = "%s %s" % (theirs.text, mine.text)
    base = live_server.url
    page = signed_in_page(browser, base, language="en", viewport=DESKTOP, user=waiter.username)
    try:
        page.goto("%s/games/%d/" % (base, game.pk))
        enter = page.locator("#conditional-enter")
        enter.wait_for()  # shown once the script has run
        enter.focus()
        page.keyboard.press("Enter")
        wait_for_square_focused(page)  # the board has the keyboard, on a piece that can move
        keyboard_move(page, theirs, "Enter")
        wait_for_line(page, [theirs.text])
        wait_for_square_focused(page)  # the next position's board has it
        keyboard_move(page, mine, " ")
        wait_for_line(page, [theirs.text, mine.text])
        page.wait_for_function("() => document.activeElement.matches('#conditional-entry .entry-add')")
        page.keyboard.press("Enter")
        rows = page.locator(".conditional-draft-lines li code")
        assert rows.all_inner_texts() == [line]
        assert page.locator("#conditional-lines").input_value() == line
        assert "entry-back" in focused(page)["cls"]  # the button added is off: the keyboard goes on
        page.keyboard.press("Tab")
        assert "entry-done" in focused(page)["cls"]
        page.keyboard.press("Enter")
        assert page.locator("#conditional-entry").count() == 0
        assert focused(page)["id"] == "conditional-enter"
        for _ in range(5):
            page.keyboard.press("Tab")
            if focused(page)["id"] == "conditional-save":
                break
        assert focused(page)["id"] == "conditional-save"
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert services.conditional_lines_of(game_id=game.pk, user=waiter) == [[theirs.text, mine.text]]
        assert rows.all_inner_texts() == [line]

        browser_login(page, base, mover.username, clear_cookies=True)  # the opponent sees none of it
        page.goto("%s/games/%d/" % (base, game.pk))
        assert page.locator("#conditional").count() == 0 and mine.text not in page.content()
    finally:
        page.context.close()


def test_without_javascript_the_notation_form_alone_works(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game, _mover, waiter, theirs, after = waiting_game()
    mine = legal_moves_of(kind="onitama", state=after)[0]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        browser_login(page, live_server.url, waiter.username)
        page.goto("%s/games/%d/" % (live_server.url, game.pk))
        assert not page.locator("#conditional-enter").is_visible()  # the board entry needs the script
        assert not page.locator("#conditional-draft").is_visible()
        page.fill("#conditional-lines", "%s %s" % (theirs.text, mine.text))
        with page.expect_navigation():
            page.locator("#conditional-save").click()
        assert page.locator(".conditional-lines li code").all_inner_texts() == ["%s %s" % (theirs.text, mine.text)]
    finally:
        context.close()
