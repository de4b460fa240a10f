"""Onitama played on the board in a real browser (static/games/board.js, onitama.js).

Two new users play a complete game by clicking only: each move is a seeded random legal
move (from the engine, so the easy ones are not favoured), entered on the board (piece,
square, the card when both cards reach it, or a pass button) and confirmed. Every click
is counted, the card picks and the confirm included; the median and the maximum per
move are printed and held to the goals (2 clicks and a confirm, 1 more when two cards
reach the square). Then a stretch of a game is played with the keyboard alone.
"""

from __future__ import annotations

import random
import statistics

import pytest

from games import services
from games.models import Game, GameStatus
from games.rules import LegalMove, legal_moves_of
from tests.factories import make_user, start_game
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_PLIES = 400


def text_parts(move: LegalMove) -> dict[str, str]:
    """Onitama's move parts, all text (card, from, to, type)."""
    assert all(isinstance(value, str) for value in move.parts.values())
    return {key: str(value) for key, value in move.parts.items()}


def mover_name(game: Game) -> str:
    assert game.to_move_user is not None
    return game.to_move_user.username


def legal_now(game: Game) -> list[LegalMove]:
    game.refresh_from_db()
    return legal_moves_of(kind=game.kind, state=services.game_state(game))


def open_game(page, base: str, game: Game) -> None:
    page.goto("%s/games/%d/" % (base, game.pk))
    page.wait_for_load_state()
    # The module script has run once the prompt is filled in.
    page.wait_for_function("() => document.getElementById('move-prompt').textContent.length > 0")


def space(page, square: str):
    return page.locator(".board-wrap svg rect.space[data-square='%s']" % square)


def marked(page, class_name: str) -> set[str]:
    return set(
        page.eval_on_selector_all(
            ".board-wrap svg rect.space.%s" % class_name, "rects => rects.map(r => r.dataset.square)"
        )
    )


def enter_by_clicks(page, move: LegalMove, legal: list[LegalMove], side: str, rng: random.Random) -> int:
    """Enter ``move`` on the board with the mouse; returns the clicks it took (no confirm)."""
    parts = text_parts(move)
    if parts["type"] == "pass":
        page.locator(".move-choice[data-move='%s']" % move.text).click()
        return 1
    same_square = [m for m in legal if m.parts.get("from") == parts["from"] and m.parts.get("to") == parts["to"]]
    clicks = 0
    card_first = len(same_square) > 1 and rng.random() < 0.5
    if card_first:  # narrow the marks to the card first
        page.locator(".hand-%s svg.card[data-card='%s']" % (side, parts["card"])).click()
        clicks += 1
    space(page, parts["from"]).click()
    clicks += 1
    reachable = {
        m.parts["to"]
        for m in legal
        if m.parts.get("from") == parts["from"] and (not card_first or m.parts["card"] == parts["card"])
    }
    assert marked(page, "target") == reachable and marked(page, "selected") == {parts["from"]}
    space(page, parts["to"]).click()
    clicks += 1
    if len(same_square) > 1 and not card_first:
        assert page.locator("#card-choices").is_visible()
        if rng.random() < 0.5:
            page.locator("#card-choices button", has_text=parts["card"].replace("_", " ")).click()
        else:
            page.locator(".hand-%s svg.card[data-card='%s']" % (side, parts["card"])).click()
        clicks += 1
    return clicks


def confirm_and_check(page, game: Game, move: LegalMove) -> None:
    assert page.locator("#pending-text").inner_text() == move.text
    assert page.locator("#move-text").input_value() == move.text
    ply = game.ply
    with page.expect_navigation():
        page.locator("#confirm-move").click()
    game.refresh_from_db()
    assert game.ply == ply + 1 and game.moves.get(ply=ply + 1).text == move.text


def two_players(browser, base: str, names: tuple[str, str], phone: str):
    contexts = {
        name: browser.new_context(viewport={"width": 390, "height": 844} if name == phone else None) for name in names
    }
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    for name, page in pages.items():
        browser_login(page, base, name)
    return contexts, pages


def test_two_new_users_play_a_whole_onitama_game_by_clicking_on_the_board(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = start_game(make_user("ayu"), make_user("budi"), "onitama", {"cards": "base"}, seed=15)
    base = live_server.url
    contexts, pages = two_players(browser, base, ("ayu", "budi"), phone="budi")
    rng = random.Random(15)
    interactions: list[int] = []
    kinds: set[str] = set()
    try:
        while game.status == GameStatus.ACTIVE and game.ply < MAX_PLIES:
            legal = legal_now(game)
            move = rng.choice(legal)
            page = pages[mover_name(game)]
            open_game(page, base, game)
            if game.ply:  # the last move is highlighted and named
                last = game.moves.get(ply=game.ply)
                assert page.locator(".last-move-line code").inner_text() == last.text
                assert page.locator(".board-wrap .space.last-move").count() >= 1
            clicks = enter_by_clicks(page, move, legal, game.to_move_side, rng)
            # Undo once in a while: the board is back as it was and the move is entered again.
            if rng.random() < 0.1:
                page.locator("#undo-move").click()
                assert page.locator("#pending-move").is_hidden() and page.locator("#move-text").input_value() == ""
                assert marked(page, "pending") == set()
                clicks = enter_by_clicks(page, move, legal, game.to_move_side, rng)
            confirm_and_check(page, game, move)
            interactions.append(clicks + 1)
            kinds.add(
                text_parts(move)["type"]
                if len(
                    [
                        m
                        for m in legal
                        if m.parts.get("to") == move.parts.get("to") and m.parts.get("from") == move.parts.get("from")
                    ]
                )
                == 1
                else "two cards"
            )
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED, "the game did not end within %d plies" % MAX_PLIES
        median, most = statistics.median(interactions), max(interactions)
        print(
            "\nOnitama on the board: %d moves, interactions per move: median %s, max %s (kinds: %s)"
            % (len(interactions), median, most, ", ".join(sorted(kinds)))
        )
        assert median <= 3 and most <= 4
        for page in pages.values():  # the finished game offers no move
            page.goto("%s/games/%d/" % (base, game.pk))
            assert page.locator("#move-form").count() == 0 and page.locator("#move-data").count() == 0
    finally:
        for ctx in contexts.values():
            ctx.close()


def tab_to(page, selector: str, limit: int = 80) -> int:
    """Press Tab until the focused element matches ``selector``; returns the presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return presses
    raise AssertionError("Tab never reached %s" % selector)


def focused_square(page) -> str | None:
    return page.evaluate("() => document.activeElement && document.activeElement.dataset.square || null")


def arrow_to(page, square: str) -> None:
    """Move the focus over the board with the arrow keys, by what the screen shows."""
    box = page.evaluate(
        """(sq) => { const r = (s) => document.querySelector(
        ".board-wrap rect.space[data-square='" + s + "']"); const a = r(document.activeElement.dataset.square),
        b = r(sq), w = Number(a.getAttribute("width"));
        return [(Number(b.getAttribute("x")) - Number(a.getAttribute("x"))) / w,
                (Number(b.getAttribute("y")) - Number(a.getAttribute("y"))) / w]; }""",
        square,
    )
    dx, dy = round(box[0]), round(box[1])
    for key, count in (("ArrowRight", dx), ("ArrowLeft", -dx), ("ArrowDown", dy), ("ArrowUp", -dy)):
        for _ in range(max(count, 0)):
            page.keyboard.press(key)
    assert focused_square(page) == square


def enter_by_keyboard(page, move: LegalMove, legal: list[LegalMove], rng: random.Random) -> None:
    parts = text_parts(move)
    if parts["type"] == "pass":  # the cards are focusable: pass with the chosen one
        tab_to(page, ".onitama-cards svg.card[data-card='%s'][role=button]" % parts["card"])
        page.keyboard.press(rng.choice(["Enter", " "]))
        return
    tab_to(page, ".board-wrap rect.space")
    arrow_to(page, parts["from"])
    page.keyboard.press(rng.choice(["Enter", " "]))
    arrow_to(page, parts["to"])
    page.keyboard.press(rng.choice(["Enter", " "]))
    if len([m for m in legal if m.parts.get("from") == parts["from"] and m.parts.get("to") == parts["to"]]) > 1:
        # The focus is on the first "move with" button; the other is one Tab further.
        buttons = page.locator("#card-choices button")
        if parts["card"].replace("_", " ") not in buttons.first.inner_text():
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")


def test_a_stretch_of_onitama_played_with_the_keyboard_alone(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    citra, dewi = make_user("citra"), make_user("dewi")
    game = start_game(citra, dewi, "onitama", {"cards": "base"}, seed=1515)
    base = live_server.url
    contexts, pages = two_players(browser, base, ("citra", "dewi"), phone="dewi")
    rng = random.Random(1515)
    played = 0
    try:
        while played < 24:
            if game.status != GameStatus.ACTIVE:  # a random game may end early: the stretch goes on in a new one
                game = start_game(citra, dewi, "onitama", {"cards": "base"}, seed=1516 + played)
            legal = legal_now(game)
            move = rng.choice(legal)
            page = pages[mover_name(game)]
            open_game(page, base, game)
            enter_by_keyboard(page, move, legal, rng)
            # The focus is on the confirm button: Enter plays the move.
            assert page.evaluate("() => document.activeElement.id") == "confirm-move"
            assert page.locator("#pending-text").inner_text() == move.text
            ply = game.ply
            with page.expect_navigation():
                page.keyboard.press("Enter")
            game.refresh_from_db()
            assert game.ply == ply + 1 and game.moves.get(ply=ply + 1).text == move.text
            played += 1
        print("\nOnitama by keyboard: %d plies" % played)
    finally:
        for ctx in contexts.values():
            ctx.close()


def test_with_no_move_possible_the_board_offers_a_pass_with_either_card(live_server, browser, settings):
    """A position where the mover's master can go nowhere (tests/engine/test_onitama_rules.py): the
    page asks for a pass and offers one per card; one click (or the card, by keyboard) and
    the confirm pass."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from engine.onitama.state import position_from_text

    red, blue = make_user("eka"), make_user("fajar")
    games = []
    for _ in range(2):
        game = start_game(red, blue, "onitama", {"cards": "base"})
        # The side card decides who starts: the one to move holds dog and frog.
        hands = "dog,frog boar,ox crab r" if game.to_move_side == "red" else "boar,ox dog,frog crab b"
        services.game_state_keep(game=game, state=position_from_text("4B/5/5/5/R4 " + hands))
        game.save()
        games.append(game)
    base = live_server.url
    contexts = {}
    try:
        for game in games:
            name = mover_name(game)
            if name not in contexts:
                contexts[name] = browser.new_context()
                browser_login(contexts[name].new_page(), base, name)
        by_click, by_keys = games
        page = contexts[mover_name(by_click)].pages[0]
        open_game(page, base, by_click)
        assert "pass" in page.locator("#move-prompt").inner_text()
        assert page.locator(".move-choice").all_inner_texts() == ["Pass with dog", "Pass with frog"]
        page.locator(".move-choice", has_text="frog").click()
        confirm_and_check(page, by_click, next(m for m in legal_now(by_click) if m.text == "frog:pass"))

        page = contexts[mover_name(by_keys)].pages[0]
        open_game(page, base, by_keys)
        move = next(m for m in legal_now(by_keys) if m.text == "dog:pass")
        enter_by_keyboard(page, move, legal_now(by_keys), random.Random(0))
        assert page.evaluate("() => document.activeElement.id") == "confirm-move"
        with page.expect_navigation():
            page.keyboard.press("Enter")
        by_keys.refresh_from_db()
        assert by_keys.moves.get(ply=1).text == "dog:pass"
    finally:
        for context in contexts.values():
            context.close()
