"""Accessibility in a real browser: axe-core and the names of the board's parts.

axe-core (tests/vendor/axe-core, 4.14.1, MPL-2.0; never served to users) runs with its default
rules, none disabled, on the home page, the lobby, both games running and over, and the mail
settings page, in English and Arabic; no violation may be serious or critical. It is evaluated
in the page through the browser's DevTools protocol (not a <script> tag), so the site's
Content-Security-Policy stays as strict as it is for users. Every square, piece and tile of the
boards and the Tile Stream has a non-empty accessible name, as Playwright computes it.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_pages import DESKTOP, LANGUAGES, page_games, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js").read_text()
BLOCKING = {"serious", "critical"}
RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return {passed: results.passes.length,
          violations: results.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + n.failureSummary)}))};
}"""


def axe_violations(page) -> list[dict]:
    """axe's violations on the page (after checking that its rules did run: some passed)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    results = page.evaluate(RUN_AXE)
    assert results["passed"] >= 10, results
    return results["violations"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_serious_violation_and_the_boards_have_names(live_server, browser, language):
    games = page_games()
    base = live_server.url
    pages = {
        "home": "/",
        "lobby": "/lobby/",
        "settings": "/correspondence/settings/",
        "webhooks": "/settings/webhooks/",
        "onitama": "/games/%d/" % games.onitama.pk,
        "maatatahay": "/games/%d/" % games.maatatahay.pk,
        "onitama over": "/games/%d/" % games.onitama_over.pk,
        "maatatahay over": "/games/%d/" % games.maatatahay_over.pk,
    }
    page = signed_in_page(browser, base, language=language, viewport=DESKTOP)
    found = {}
    try:
        for name, path in pages.items():
            page.goto(base + path)
            assert page.evaluate("document.documentElement.lang") == language
            violations = axe_violations(page)
            blocking = [v for v in violations if v["impact"] in BLOCKING]
            if blocking:
                found[name] = blocking
            if name in ("onitama", "maatatahay", "maatatahay over"):
                check_board_names(page, name.split()[0], running=not name.endswith("over"))
        # The check does see violations: a control page (off the site, so with no policy against
        # its inline style) with an unnamed button and faint text.
        control_page = page.context.new_page()
        control_page.set_content(
            '<html lang="en"><head><title>control</title></head><body><main><button></button>'
            '<p style="color:#bbb;background:#fff">faint</p></main></body></html>'
        )
        control = {v["id"] for v in axe_violations(control_page) if v["impact"] in BLOCKING}
        assert {"button-name", "color-contrast"} <= control, control
    finally:
        page.context.close()
    assert not found, found


# What must have a name of its own, by game.
BOARD_PARTS = {
    "onitama": [".board-wrap .space", ".board-wrap .piece", ".onitama-cards svg.card"],
    "maatatahay": [".board-wrap .space", ".board-wrap .tile", ".tile-stream .mini-tile", ".tribe-line .crystal"],
}


def check_board_names(page, kind: str, *, running: bool) -> None:
    """Every square, piece and tile has a name, and the board exposes them (not one picture).
    A running game shows each kind of part; at a game's end the stream may be empty."""
    for selector in BOARD_PARTS[kind]:
        parts = page.locator(selector)
        count = parts.count()
        if selector.endswith(".space"):
            assert count == 25
        elif running:
            assert count >= 1, selector
        for i in range(count):
            part = parts.nth(i)
            square = part.get_attribute("data-square")
            # A square's or a piece's name says where it is; every other one names something.
            expect(part).to_have_accessible_name(re.compile(re.escape(square) if square else r"\w"))
    assert page.locator(".board-wrap svg").get_attribute("role") == "group"
    tree = page.locator(".board-wrap").aria_snapshot()
    # Squares are named images, or named buttons where the player to move plays on the board.
    assert len(re.findall(r'\b(?:img|button) "', tree)) >= 25, tree[:500]
