"""The Content-Security-Policy in a real browser: every kind of page loads with no violation.

Chromium enforces the very policy the site sends (nothing is loosened for tests, and the
context does not bypass CSP). Each page reports its ``securitypolicyviolation`` events to the
test through an exposed binding, and Chromium's console errors are collected too. A control
first shows that the listener does see a violation: an inline script injected into a page.
Then the game page's scripts are shown to still work under the policy: a move entered on the
board (or typed) is pending until undone, and polling reloads the page when the opponent has moved.
"""

import pytest
from django.contrib import admin
from django.urls import reverse

from fairplay.models import Report
from games import services
from games.rules import legal_moves_of
from tests.factories import make_user
from tests.games.conftest import first_legal, start_game
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  window.reportViolation(event.violatedDirective + " blocked " + (event.blockedURI || "inline")
                         + " on " + document.location.pathname);
});
"""


class PolicyWatch:
    """Violations and console errors of every page of one browser context."""

    def __init__(self, context):
        self.violations: list[str] = []
        self.console_errors: list[str] = []
        context.expose_binding("reportViolation", lambda source, text: self.violations.append(text))
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("page", self.watch)

    def watch(self, page):
        def console(message) -> None:
            if message.type == "error":
                self.console_errors.append("%s: %s" % (page.url, message.text))

        page.on("console", console)
        page.on("pageerror", lambda error: self.console_errors.append("%s: %s" % (page.url, error)))

    def clear(self):
        self.violations.clear()
        self.console_errors.clear()


def turn_of(user, game, *, with_squares=False):
    """The game, played on (first legal moves) until ``user`` is to move, and, if asked, has
    a legal move that names a square to click on the board."""
    for _ in range(40):
        game.refresh_from_db()
        legal = legal_moves_of(kind=game.kind, state=services.game_state(game))
        moves = [move.text for move in legal]
        if game.to_move_user == user and (not with_squares or any(move.squares for move in legal)):
            return game
        services.move_submit(game_id=game.pk, user=game.to_move_user, move_text=moves[0], expected_ply=game.ply)
    raise AssertionError("no such position within 40 decisions")


def visit(page, url):
    response = page.goto(url)
    assert response.status == 200, url
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")


def test_every_kind_of_page_loads_with_no_csp_violation_and_its_scripts_work(live_server, browser):
    alice = make_user("alice")
    alice.is_staff = alice.is_superuser = True
    alice.save()
    bob = make_user("bob")
    onitama = turn_of(alice, start_game(alice, bob, "onitama", {"cards": "base"}), with_squares=True)
    maatatahay = turn_of(alice, start_game(alice, bob, "maatatahay", {"variant": "first"}), with_squares=True)
    waiting = turn_of(bob, start_game(bob, alice, "onitama", {"cards": "base"}))
    report = Report.objects.create(reporter=bob, player=alice, kind="abuse", reason="Rude.")
    base = live_server.url
    context = browser.new_context()
    watch = PolicyWatch(context)
    page = context.new_page()
    try:
        # The control: the policy is enforced and the listener sees what it blocks.
        visit(page, base + "/")
        page.evaluate("""() => { const s = document.createElement("script");
                                 s.textContent = "window.inlineRan = true;"; document.body.append(s); }""")
        page.wait_for_function("() => true")
        assert page.evaluate("() => window.inlineRan") is None
        assert any(v.startswith("script-src") for v in watch.violations), watch.violations
        watch.clear()

        browser_login(page, base, "alice")
        for path in (
            "/",
            "/lobby/",
            "/rules/",
            "/accounts/profile/",
            "/correspondence/settings/",
            "/players/alice/",
            "/blocks/",
            "/games/%d/" % onitama.pk,
            "/games/%d/" % maatatahay.pk,
            "/ratings/onitama/",
            "/ladders/",
            "/tournaments/",
            "/admin/",
            "/admin/games/game/%d/change/" % onitama.pk,
            "/admin/accounts/user/%d/change/" % bob.pk,
            "/admin/accounts/user/add/",
        ):
            visit(page, base + path)
        for model in admin.site._registry:  # every change list of the admin
            visit(page, base + reverse("admin:%s_%s_changelist" % (model._meta.app_label, model._meta.model_name)))

        # The admin's own scripts: the action bar, then the "ask why" page of an action.
        visit(page, base + "/admin/fairplay/report/")
        page.locator("input[name=_selected_action][value='%d']" % report.pk).check()
        assert "1 of 1 selected" in page.locator(".action-counter").inner_text()
        page.select_option("select[name=action]", "mark_reviewed")
        page.locator("button[name=index]").click()
        page.wait_for_load_state("networkidle")
        assert page.locator("textarea[name=reason]").count() == 1

        # The API docs: Swagger UI renders the schema it fetched.
        visit(page, base + "/api/v1/docs/")
        page.locator(".swagger-ui .opblock").first.wait_for()
        assert page.locator(".swagger-ui .opblock").count() > 10

        # The language menu switches on change (static/js/language.js, no inline handler).
        visit(page, base + "/lobby/")
        # The form's submit navigates: wait for that navigation, not for the page already open.
        with page.expect_navigation():
            page.select_option("#language-select", "id")
        assert page.locator("html").get_attribute("lang") == "id"
        with page.expect_navigation():
            page.select_option("#language-select", "en")
        assert page.locator("html").get_attribute("lang") == "en"

        # board.js: the legal moves are the page's data; Onitama's are entered on the board
        # (a piece marks the squares it reaches), Maatatahay's typed; either is pending until
        # confirmed, and undo takes it back.
        for game in (onitama, maatatahay):
            visit(page, base + "/games/%d/" % game.pk)
            move = next(m for m in legal_moves_of(kind=game.kind, state=services.game_state(game)) if m.squares)
            if game.kind == "onitama":
                page.locator(".board-wrap svg .space[data-square='%s']" % move.parts["from"]).click()
                assert page.locator(".board-wrap svg .space.target").count() >= 1
                page.locator(".board-wrap svg .space[data-square='%s']" % move.parts["to"]).click()
                if page.locator("#card-choices").is_visible():
                    page.locator("#card-choices button", has_text=move.parts["card"]).click()
            else:
                page.fill("#move-text", move.text)
            assert page.locator("#pending-text").inner_text() == move.text
            assert page.locator(".board-wrap svg .space.pending").count() >= 1
            page.locator("#undo-move").click()
            assert page.locator("#pending-move").is_hidden()
            assert page.locator(".board-wrap svg .space.pending").count() == 0

        # game.js: while alice waits, polling reloads the page once bob has moved.
        visit(page, base + "/games/%d/" % waiting.pk)
        assert page.locator(".game-page").get_attribute("data-poll") == "1"
        services.move_submit(game_id=waiting.pk, user=bob, move_text=first_legal(waiting), expected_ply=waiting.ply)
        page.wait_for_function(
            "(ply) => document.querySelector('.game-page').dataset.ply === ply",
            arg=str(waiting.ply + 1),
            timeout=30_000,
        )

        assert watch.violations == []
        assert watch.console_errors == []
    finally:
        context.close()
