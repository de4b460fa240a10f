"""Maatatahay played on the board in a real browser (static/games/board.js, maatatahay.js).

Two new users play a complete game of Maatatahay First by clicking only: each decision is
a seeded random legal move (from the engine, so the easy ones are not favoured), entered
on the board (the pair in the Tile Stream, the first placer's button, the space, the
rotations, the crystals with plus and minus, the settlement order) and confirmed. Every
interaction is counted, the confirm included; the median and maximum per decision are
printed and held to the goal (a typical placement in at most 4 before the confirm). The
previews the page fetches for a square are checked against the engine's. Then a stretch of
decisions is entered with the keyboard alone.
"""

from __future__ import annotations

import random
import statistics

import pytest

from games import services
from games.models import Game, GameStatus
from games.rules import LegalMove, legal_moves_of
from tests.engine.test_maatatahay import EXAMPLE_3, position
from tests.factories import make_user, start_game
from tests.games.test_board_browser import arrow_to, marked, mover_name, open_game, space, tab_to, two_players
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_PLIES = 200


def legal_now(game: Game, *, previews: bool = False) -> list[LegalMove]:
    game.refresh_from_db()
    return legal_moves_of(kind=game.kind, state=services.game_state(game), previews=previews)


def keys_to(page, selector: str, limit: int = 40) -> None:
    """Move the focus to ``selector`` as a keyboard user would: Tab when it comes later in
    the page than the focused element, Shift+Tab when it comes earlier."""
    later = page.evaluate(
        """(s) => { const target = document.querySelector(s), at = document.activeElement;
        return !at || at === document.body ||
            Boolean(at.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING); }""",
        selector,
    )
    key = "Tab" if later else "Shift+Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError("%s never reached %s" % (key, selector))


def keyboard_press(page):
    """Activate a control by the keyboard: Tab or Shift+Tab to it, then Enter."""

    def press(selector: str) -> None:
        if not page.evaluate("(s) => document.activeElement.matches(s)", selector):
            keys_to(page, selector)
        page.keyboard.press("Enter")

    return press


def pending_square(page) -> str:
    return str(page.evaluate("() => JSON.parse(document.getElementById('move-data').textContent).pending_square"))


def _number(move: LegalMove, key: str) -> int:
    value = move.parts.get(key, 0)
    assert isinstance(value, int)
    return value


def _kind(move: LegalMove) -> str:
    return str(move.parts["type"])


def _energy(move: LegalMove) -> int:
    return _number(move, "pay_energy" if _kind(move) == "shrine" else "put_energy")


def _spirit(move: LegalMove) -> int:
    return _number(move, "pay_spirit" if _kind(move) == "shrine" else "put_spirit")


def _rotation(move: LegalMove) -> int:
    return _number(move, "rotation")


def pending_text(page) -> str:
    return page.locator("#pending-text").inner_text()


def candidates_of(move: LegalMove, legal: list[LegalMove]) -> list[LegalMove]:
    kind = move.parts["type"]
    if kind == "finish":
        return [m for m in legal if m.parts["type"] == "finish"]
    return [m for m in legal if m.parts["type"] == kind and m.parts.get("square") == move.parts.get("square")]


def adjust(page, move: LegalMove, legal: list[LegalMove], press) -> int:
    """Set rotation, crystals and order of a placement already started on its square; ``press``
    activates a control by its selector. Returns the interactions it took."""
    count = 0
    rotations = sorted({_rotation(m) for m in candidates_of(move, legal)})
    for _ in range(len(rotations)):
        if "r%d" % _rotation(move) in pending_text(page).split() or move.parts["type"] == "shrine":
            break
        press("#maat-rotate")
        count += 1
    for crystal, of in (("energy", _energy), ("spirit", _spirit)):
        for _ in range(12):
            shown = int(page.locator("#maat-%s-value" % crystal).inner_text())
            if shown == of(move):
                break
            press("#maat-%s-%s" % (crystal, "plus" if shown < of(move) else "minus"))
            count += 1
        assert int(page.locator("#maat-%s-value" % crystal).inner_text()) == of(move)
    if pending_text(page) != move.text:  # the same setting with another settlement order
        assert page.locator(".maat-order").count() > 1
        press(".maat-order[data-move='%s']" % move.text)
        count += 1
    return count


def enter_by_clicks(page, move: LegalMove, legal: list[LegalMove]) -> int:
    """Enter ``move`` on the board with the mouse; returns the clicks it took (no confirm)."""
    kind = move.parts["type"]
    if kind == "pick":
        # Two equal pairs in the stream are one move: either one picks it.
        page.locator(
            ".tile-stream .stream-pair[data-wazu='%s'][data-balan='%s']" % (move.parts["wazu"], move.parts["balan"])
        ).first.click()
        return 1
    if kind == "first":
        page.locator(".move-choice[data-move='%s']" % move.text).click()
        return 1
    square = move.parts.get("square") or pending_square(page)
    expected = {m.parts["square"] for m in legal if m.parts.get("square")} | ({square} if kind == "finish" else set())
    assert marked(page, "placeable") == expected
    space(page, str(square)).click()
    if kind == "draft":
        return 1
    return 1 + adjust(page, move, legal, lambda selector: page.locator(selector).click())


def check_pending_tile(page, move: LegalMove) -> None:
    """The tile drawn on the chosen space is turned as the pending move says: a Shrine's first
    half at the turn its "finish" starts from (0), its second half as chosen."""
    kind = move.parts["type"]
    if kind not in ("place", "shrine", "finish"):
        return
    hot = page.locator(".hot-tile")
    assert hot.count() == 1, move.text
    assert hot.get_attribute("data-rotation") == ("0" if kind == "shrine" else str(_rotation(move))), move.text


def check_preview(page, move: LegalMove) -> None:
    """The preview shown is the engine's, fetched for the chosen square."""
    check_pending_tile(page, move)
    if move.parts["type"] not in ("place", "shrine", "finish"):
        return
    page.wait_for_function("() => !document.getElementById('maat-preview').textContent.includes('…')")
    shown = page.locator("#maat-preview").inner_text()
    assert shown.strip()
    assert move.preview is not None
    if "strength" in move.preview:
        strength = move.preview["strength"]
        assert isinstance(strength, dict)
        assert "Strength %s" % strength["total"] in shown
        deaths = move.preview["deaths"]
        assert isinstance(deaths, list)
        for dead in deaths:
            assert isinstance(dead, dict) and str(dead["square"]) in shown
        if not deaths:
            assert "No warrior dies" in shown


def play_by_clicks(
    browser, base: str, game: Game, names: tuple[str, str], seed: int, shrines: bool = False
) -> dict[str, int]:
    """``shrines``: when a Shrine placement is legal, one of them is chosen (still at random),
    so that the game has its two confirms."""
    contexts, pages = two_players(browser, base, names, phone=names[1])
    rng = random.Random(seed)
    interactions: list[int] = []
    placements: list[int] = []
    kinds: dict[str, int] = {}
    try:
        while game.status == GameStatus.ACTIVE and game.ply < MAX_PLIES:
            legal = legal_now(game, previews=True)
            shrine_moves = [m for m in legal if m.parts["type"] == "shrine"]
            move = rng.choice(shrine_moves if shrines and shrine_moves else legal)
            page = pages[mover_name(game)]
            open_game(page, base, game)
            clicks = enter_by_clicks(page, move, legal)
            assert pending_text(page) == move.text
            check_preview(page, move)
            # On the phone the controls and the preview fit: nothing scrolls sideways.
            assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]
            ply = game.ply
            with page.expect_navigation():
                page.locator("#confirm-move").click()
            game.refresh_from_db()
            assert game.ply == ply + 1 and game.moves.get(ply=ply + 1).text == move.text
            interactions.append(clicks + 1)
            kinds[_kind(move)] = kinds.get(_kind(move), 0) + 1
            same = [
                m
                for m in candidates_of(move, legal)
                if (_rotation(m), _energy(m), _spirit(m)) == (_rotation(move), _energy(move), _spirit(move))
            ]
            if move.parts.get("order") and len(same) > 1:
                kinds["(order chosen)"] = kinds.get("(order chosen)", 0) + 1
            if move.parts["type"] in ("place", "finish"):
                placements.append(clicks)
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED, "the game did not end within %d plies" % MAX_PLIES
        for page in pages.values():
            page.goto("%s/games/%d/" % (base, game.pk))
            assert page.locator("#move-form").count() == 0
    finally:
        for ctx in contexts.values():
            ctx.close()
    print(
        "\nMaatatahay %s on the board: %d decisions, interactions per decision (confirm included): median %s, "
        "max %s; placements before the confirm: median %s, max %s (decisions: %s)"
        % (
            game.options.get("variant"),
            len(interactions),
            statistics.median(interactions),
            max(interactions),
            statistics.median(placements),
            max(placements),
            ", ".join("%s %d" % item for item in sorted(kinds.items())),
        )
    )
    assert statistics.median(placements) <= 4
    return kinds


def test_two_new_users_play_a_whole_maatatahay_first_game_on_the_board(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = start_game(make_user("gita"), make_user("hadi"), "maatatahay", {"variant": "first"}, seed=1515)
    play_by_clicks(browser, live_server.url, game, ("gita", "hadi"), seed=1515)


def test_two_new_users_play_a_whole_maatatahay_standard_game_on_the_board(live_server, browser, settings):
    """Standard has the Shrines: a Shrine placement (``shrine``) and, after its favour is
    drawn, its second confirm (``finish``)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = start_game(make_user("kiki"), make_user("lestari"), "maatatahay", {"variant": "standard"}, seed=2626)
    kinds = play_by_clicks(browser, live_server.url, game, ("kiki", "lestari"), seed=2626, shrines=True)
    assert kinds.get("shrine") and kinds.get("finish")


def test_a_stretch_of_maatatahay_entered_with_the_keyboard_alone(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Deal 3 once needed Tab after the rotation (the crystals come later in the page).
    game = start_game(make_user("indah"), make_user("joko"), "maatatahay", {"variant": "first"}, seed=3)
    base = live_server.url
    contexts, pages = two_players(browser, base, ("indah", "joko"), phone="joko")
    rng = random.Random(77)
    kinds: set[str] = set()
    try:
        for _ in range(14):
            if game.status != GameStatus.ACTIVE:
                break
            legal = legal_now(game)
            move = rng.choice(legal)
            page = pages[mover_name(game)]
            open_game(page, base, game)
            kind = _kind(move)
            kinds.add(kind)
            if kind == "pick":
                tab_to(
                    page,
                    ".stream-pair[data-wazu='%s'][data-balan='%s']" % (move.parts["wazu"], move.parts["balan"]),
                )
                page.keyboard.press("Enter")
            elif kind == "first":
                tab_to(page, ".move-choice[data-move='%s']" % move.text)
                page.keyboard.press("Enter")
            else:
                square = move.parts.get("square") or pending_square(page)
                tab_to(page, ".board-wrap rect.space")
                arrow_to(page, str(square))
                page.keyboard.press(rng.choice(["Enter", " "]))
                if kind != "draft":
                    adjust(page, move, legal, keyboard_press(page))
                if page.evaluate("() => document.activeElement.id") != "confirm-move":
                    tab_to(page, "#confirm-move")
            assert pending_text(page) == move.text
            ply = game.ply
            with page.expect_navigation():
                page.keyboard.press("Enter")
            game.refresh_from_db()
            assert game.ply == ply + 1 and game.moves.get(ply=ply + 1).text == move.text
        print("\nMaatatahay by keyboard: %d decisions (%s)" % (game.ply, ", ".join(sorted(kinds))))
        assert game.ply >= 10 and {"pick", "first", "place"} <= kinds
    finally:
        for ctx in contexts.values():
            ctx.close()


def _mirrored(board: dict[str, str], placer: str) -> dict[str, str]:
    """The engine test's position with the tribes swapped when Balan is the one to place."""
    if placer == "wazu":
        return board
    swap = {"W": "B", "B": "W", "w": "b", "b": "w"}
    return {square: swap[spec[0]] + spec[1:] for square, spec in board.items()}


def test_where_the_settlement_order_matters_the_player_picks_a_result_with_its_preview(live_server, browser, settings):
    """The third settlement example of the rulebook (tests/engine/test_maatatahay.py): a
    placement on a1 with 1 Energy has four distinct results, one move per order. The board
    offers the four, each with its preview; the chosen one is played."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = start_game(make_user("rani"), make_user("sari"), "maatatahay", {"variant": "first"})
    placer = str(game.to_move_side)
    state = position(_mirrored(EXAMPLE_3, placer), placer=placer, tile="bravery", storage={placer: (1, 0)})
    services.game_state_keep(game=game, state=state)
    game.save()
    legal = legal_now(game, previews=True)
    ordered = [
        m for m in legal if m.parts.get("square") == "a1" and _energy(m) == 1 and _rotation(m) == 0 and _spirit(m) == 0
    ]
    assert len(ordered) == 4
    move = random.Random(9).choice(ordered)
    context = browser.new_context()
    try:
        page = context.new_page()
        browser_login(page, live_server.url, mover_name(game))
        open_game(page, live_server.url, game)
        clicks = enter_by_clicks(page, move, legal)
        assert page.locator(".maat-order").count() == 4
        page.wait_for_function(
            "() => [...document.querySelectorAll('.maat-order-preview')].every((p) => p.textContent.length > 0)"
        )
        shown = page.locator(".maat-order .maat-order-preview").all_inner_texts()
        assert len(set(shown)) > 1  # distinct results, each previewed
        assert pending_text(page) == move.text
        check_preview(page, move)
        print("\nMaatatahay order choice: %d interactions before the confirm (%s)" % (clicks, move.text))
        with page.expect_navigation():
            page.locator("#confirm-move").click()
        game.refresh_from_db()
        assert game.moves.get(ply=game.ply).text == move.text
    finally:
        context.close()
