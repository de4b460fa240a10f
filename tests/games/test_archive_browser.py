"""The archive in a browser: a visitor filters a player's games by opponent and result with the
page's form and sees exactly the matching rows, the filters kept in the address; and the page
in Arabic on a 390 px phone is right to left, with nothing scrolling sideways and every text
inside the viewport and at least 12 px (a screenshot is saved for a look: ARCHIVE_SCREENSHOT)."""

import os

import pytest

from games import services
from tests.browser_pages import PHONE, text_boxes
from tests.factories import make_user, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARCHIVE_SCREENSHOT = os.environ.get("ARCHIVE_SCREENSHOT", "/tmp/archive-ar-phone.png")


def archive_games() -> dict[str, int]:
    arc, bobby, bobcat, carla = make_user("arc"), make_user("bobby"), make_user("bobcat"), make_user("carla")
    won_bobby = start_game(arc, bobby, options={"cards": "base"}, seed=21)
    services.game_resign(game_id=won_bobby.pk, user=bobby)
    lost_bobby = start_game(arc, bobby, kind="maatatahay", options={"variant": "standard"}, seed=22)
    services.game_resign(game_id=lost_bobby.pk, user=arc)
    won_bobcat = start_game(bobcat, arc, options={"cards": "senseis_path"}, rated=False, seed=23)
    services.game_resign(game_id=won_bobcat.pk, user=bobcat)
    won_carla = start_game(arc, carla, options={"cards": "mixed"}, seed=24)
    services.game_resign(game_id=won_carla.pk, user=carla)
    return {
        "won_bobby": won_bobby.pk,
        "lost_bobby": lost_bobby.pk,
        "won_bobcat": won_bobcat.pk,
        "won_carla": won_carla.pk,
    }


def rows(page) -> list[int]:
    return [int(pk) for pk in page.locator("tr.archive-row").evaluate_all("rs => rs.map(r => r.dataset.game)")]


def test_the_archive_is_filtered_on_the_page_by_opponent_and_result(live_server, browser):
    ids = archive_games()
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(live_server.url + "/history/arc/")
        assert sorted(rows(page)) == sorted(ids.values())
        page.fill("#id_opponent", "BOB")
        page.select_option("#id_result", "won")
        page.click("#archive-search")
        page.wait_for_url("**/history/arc/?*")
        assert sorted(rows(page)) == sorted([ids["won_bobby"], ids["won_bobcat"]])
        assert page.input_value("#id_opponent") == "BOB" and page.input_value("#id_result") == "won"
        page.select_option("#id_result", "lost")
        page.click("#archive-search")
        page.wait_for_url("**result=lost*")
        assert rows(page) == [ids["lost_bobby"]]
        # each row links to its game and its record
        link = page.locator("tr.archive-row a[href$='record.txt']")
        assert link.get_attribute("href") == "/games/%d/record.txt" % ids["lost_bobby"]
        page.click("#archive-clear")
        page.wait_for_url("**/history/arc/")
        assert len(rows(page)) == 4
    finally:
        context.close()


def test_the_archive_fits_a_phone_in_arabic(live_server, browser):
    archive_games()
    base = live_server.url
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "ar", "url": base}])
    page = context.new_page()
    try:
        page.goto(base + "/history/arc/?result=won&finished_to=bad-date")
        assert page.locator("html").get_attribute("lang") == "ar"
        assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
        assert page.locator("#archive-note").is_visible()  # the bad date is left out, with a note
        assert len(rows(page)) == 3
        width = PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
        boxes = text_boxes(page)
        assert len(boxes) > 10
        outside = [b for b in boxes if b["left"] < -0.5 or b["right"] > width + 0.5]
        assert not outside, "text outside the %d px viewport: %s" % (width, outside[:10])
        small = [b for b in boxes if b["size"] < 12]
        assert not small, "text under 12 px on a phone: %s" % small[:10]
        for selector in ("#archive-filters", "#archive", "tr.archive-row"):
            box = page.locator(selector).first.bounding_box()
            assert box and box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (selector, box)
        page.screenshot(path=ARCHIVE_SCREENSHOT, full_page=True)
    finally:
        context.close()
