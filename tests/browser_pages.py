"""Shared by the layout and accessibility browser tests: the games they look at, a signed-in
browser context in a language and a viewport, and what a page's text boxes measure.

``page_games()`` builds, through the services, a running and a finished game of Onitama and of
Maatatahay (Standard, so shrines and relics are on the map) between alice and bob, with alice
to move in both running games, so that her game pages show the move controls; her lobby also
lists a challenge to her, one of hers and an open one.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import services
from games.models import Game, GameStatus
from tests.factories import make_user, play, start_game
from tests.helpers import browser_login

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LANGUAGES = ("en", "ar")


@dataclass
class PageGames:
    onitama: Game
    maatatahay: Game
    onitama_over: Game
    maatatahay_over: Game


def _running_with_alice_to_move(alice, bob, kind: str, options: dict, decisions: int) -> Game:
    """A game after at least ``decisions`` decisions, with alice to move (the deal is random: a
    game that ends that early is replaced by a new one)."""
    for _ in range(10):
        game = play(start_game(alice, bob, kind, options), decisions)
        while game.status == GameStatus.ACTIVE and game.to_move_user != alice:
            game = play(game, 1)
        if game.status == GameStatus.ACTIVE:
            return game
    raise AssertionError("no %s game lasted %d decisions" % (kind, decisions))


def page_games() -> PageGames:
    alice, bob = make_user("alice"), make_user("bob")
    games = PageGames(
        onitama=_running_with_alice_to_move(alice, bob, "onitama", {"cards": "base"}, 6),
        maatatahay=_running_with_alice_to_move(alice, bob, "maatatahay", {"variant": "standard"}, 10),
        onitama_over=play(start_game(bob, alice, "onitama", {"cards": "base"}), 400),
        maatatahay_over=play(start_game(bob, alice, "maatatahay", {"variant": "standard"}), 400),
    )
    carol = make_user("carol")
    services.challenge_create(
        challenger=bob, opponent=alice, kind="maatatahay", options={"variant": "first"}, days_per_move=3
    )
    services.challenge_create(
        challenger=alice, opponent=carol, kind="onitama", options={"cards": "base"}, days_per_move=2
    )
    services.challenge_create(
        challenger=carol, opponent=None, kind="maatatahay", options={"variant": "standard"}, days_per_move=5
    )
    assert games.onitama.status == games.maatatahay.status == GameStatus.ACTIVE
    assert games.onitama_over.status == games.maatatahay_over.status == GameStatus.FINISHED
    return games


def signed_in_page(browser, base: str, *, language: str, viewport: dict, user: str = "alice"):
    """A new context in ``language`` (the language cookie) and ``viewport``, signed in as ``user``;
    close its ``context`` when done."""
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    browser_login(page, base, user)
    return page


# Every rendered piece of text on the page: its box (the text's own, not its element's), the size
# it is drawn at (an SVG text's font size times the scale its picture is drawn at) and, for SVG
# text, the left and right of its picture, which clips it (text outside it is cut off unseen).
# Text meant to be off-screen or unseen (the skip link, visually hidden labels, <title>) is left out.
TEXT_BOXES_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("script, style, noscript, title, option, .visually-hidden, .skip-link")) {
      continue;
    }
    let rects;
    let clip = null;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      rects = [el.getBoundingClientRect()];
      let picture = el.ownerSVGElement;
      while (picture && picture.ownerSVGElement) { picture = picture.ownerSVGElement; }
      const box = picture.getBoundingClientRect();
      clip = {left: box.left, right: box.right};
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    } else {
      const range = document.createRange();
      range.selectNodeContents(node);
      rects = Array.from(range.getClientRects());
    }
    rects = rects.filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length || getComputedStyle(el).visibility === "hidden") { continue; }
    const cls = el.getAttribute("class") || "";
    out.push({text: text.slice(0, 40), tag: el.tagName.toLowerCase(), cls: cls, size: size, clip: clip,
              left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
              top: Math.min(...rects.map((r) => r.top)) + window.scrollY});
  }
  return out;
}
"""


def text_boxes(page) -> list[dict]:
    return page.evaluate(TEXT_BOXES_JS)
