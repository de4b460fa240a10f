"""The fair-play buttons in a real browser: block a player, report one, staff review it."""

import pytest

from accounts.models import Block, StaffAction, StaffActionKind
from fairplay.models import Report, ReportStatus
from tests.factories import make_user
from tests.helpers import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_block_then_report_then_staff_review_through_the_pages(live_server, browser, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob = make_user("alice"), make_user("bob")
    staff = make_user("staffer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    base = live_server.url
    contexts = [browser.new_context() for _ in range(3)]
    page_alice, page_bob, page_staff = (ctx.new_page() for ctx in contexts)
    try:
        # alice blocks bob from his page
        browser_login(page_alice, base, "alice")
        page_alice.goto(base + "/players/bob/")
        page_alice.locator("#player-actions button", has_text="Block").click()
        page_alice.wait_for_load_state()
        assert Block.objects.filter(blocker=alice, blocked=bob).exists()
        assert "Unblock" in page_alice.locator("#player-actions").inner_text()

        # bob cannot challenge her: the lobby form says so and no challenge is made
        browser_login(page_bob, base, "bob")
        page_bob.goto(base + "/lobby/")
        page_bob.fill("#challenge-form input[name=challenge-opponent]", "alice")
        page_bob.locator("#challenge-form button[type=submit]").click()
        page_bob.wait_for_load_state()
        assert "This player does not accept your challenges." in page_bob.content()
        assert not bob.challenges_sent.exists()

        # alice reports bob with a reason
        page_alice.goto(base + "/players/bob/")
        page_alice.locator("#player-actions summary").click()
        page_alice.select_option("#player-actions select[name=kind]", "abuse")
        page_alice.fill("#player-actions textarea[name=reason]", "Insults after every move.")
        page_alice.locator("#player-actions details button[type=submit]").click()
        page_alice.wait_for_load_state()
        assert "staff will look at your report" in page_alice.content()
        report = Report.objects.get(reporter=alice, player=bob)
        assert report.reason == "Insults after every move." and report.status == ReportStatus.OPEN

        # staff mark it reviewed in the admin, saying why
        browser_login(page_staff, base, "staffer")
        page_staff.goto(base + "/admin/fairplay/report/")
        page_staff.locator("input[name=_selected_action][value='%d']" % report.pk).check()
        page_staff.select_option("select[name=action]", "mark_reviewed")
        page_staff.locator("button[name=index]").click()
        page_staff.wait_for_load_state()
        page_staff.fill("textarea[name=reason]", "Warned by mail.")
        page_staff.locator("#content form button[type=submit]").click()
        page_staff.wait_for_load_state()
        report.refresh_from_db()
        assert report.status == ReportStatus.REVIEWED
        action = StaffAction.objects.get()
        assert (action.staff, action.action, action.reason, action.player, action.target) == (
            staff,
            StaffActionKind.REPORT_REVIEWED,
            "Warned by mail.",
            bob,
            report,
        )

        # alice lifts the block from her list of blocked players
        page_alice.goto(base + "/blocks/")
        page_alice.locator("button", has_text="Unblock").first.click()
        page_alice.wait_for_load_state()
        assert not Block.objects.filter(blocker=alice, blocked=bob).exists()
    finally:
        for ctx in contexts:
            ctx.close()
