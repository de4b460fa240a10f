"""End to end: staff create a round robin in the admin with a browser, four players
register on the site, staff start it, the players finish every game, and the
tournament page shows the final standings."""

from __future__ import annotations

import pytest

from accounts.models import StaffActionKind
from accounts.selectors import staff_actions_on
from games.models import Game, GameStatus
from tests.helpers import browser_login
from tournaments.models import Tournament, TournamentStatus

from .conftest import make_user, seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def admin_action(page, base, tournament, action):
    page.goto(base + "/admin/tournaments/tournament/")
    page.check("input[name=_selected_action][value='%d']" % tournament.pk)
    page.select_option("select[name=action]", action)
    page.locator("button[name=index]").click()
    page.wait_for_load_state()


def test_staff_create_in_the_admin_and_four_players_finish(live_server, page):
    base = live_server.url
    staff = make_user("boss")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    players = [make_user(name) for name in ("ana", "ben", "cid", "dee")]

    page.goto(base + "/admin/login/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "pw-boss-123456")
    page.locator("input[type=submit]").click()
    page.goto(base + "/admin/tournaments/tournament/add/")
    page.fill("input[name=name]", "Browser cup")
    page.select_option("select[name=kind]", "onitama")
    page.select_option("select[name=format]", "round_robin")
    page.select_option("select[name=days_per_move]", "2")
    page.uncheck("input[name=vacation_allowed]")
    page.fill("input[name=min_players]", "4")
    page.locator("input[name=_save]").click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Browser cup")
    assert (tournament.format, tournament.days_per_move, tournament.vacation_allowed) == ("round_robin", 2, False)
    admin_action(page, base, tournament, "open_registration")

    for player in players:
        browser_login(page, base, player.username, clear_cookies=True)
        page.goto(base + "/tournaments/")
        page.get_by_role("link", name="Browser cup").click()
        page.locator("#register").click()
        page.wait_for_load_state()
        assert page.locator("#withdraw").count() == 1

    browser_login(page, base, "boss", clear_cookies=True)
    admin_action(page, base, tournament, "start")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING

    for _ in range(3):  # three rounds of two games, each ended by a resignation on the game page
        games = list(Game.objects.filter(tournament_pairing__tournament=tournament, status=GameStatus.ACTIVE))
        assert len(games) == 2
        for game in games:
            loser = seated(game.seats.get(position=1))
            browser_login(page, base, loser.username, clear_cookies=True)
            page.goto("%s/games/%d/" % (base, game.pk))
            page.once("dialog", lambda dialog: dialog.accept())
            page.get_by_role("button", name="Resign").click()
            page.wait_for_load_state()
            game.refresh_from_db()
            assert game.status == GameStatus.FINISHED

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    page.goto("%s/tournaments/%d/" % (base, tournament.pk))
    assert page.locator(".tournament-status").inner_text() == "Finished"
    assert page.locator("table.standings tbody tr").count() == 4
    assert page.locator("table.crosstable tbody tr").count() == 4
    assert set(staff_actions_on(target=tournament).values_list("action", flat=True)) == {
        StaffActionKind.TOURNAMENT_CREATE,
        StaffActionKind.TOURNAMENT_OPEN_REGISTRATION,
        StaffActionKind.TOURNAMENT_START,
    }
