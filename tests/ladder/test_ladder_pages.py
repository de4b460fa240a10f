"""The ladder pages and actions: positions, whom I can challenge, games, changes; clear refusals."""

import pytest
from django.urls import reverse

from ladder import services
from ladder.models import Ladder, LadderChallenge
from ratings.selectors import rating_for_player

from .conftest import make_user, order, resign

pytestmark = pytest.mark.django_db


def test_the_ladder_list_links_every_ladder(client, ladder):
    html = client.get(reverse("ladder:list")).content.decode()
    for each in Ladder.objects.all():
        assert reverse("ladder:detail", args=[each.pk]) in html
    assert reverse("ladder:list") in client.get(reverse("games:home")).content.decode()  # nav link


def test_the_ladder_page_shows_positions_challenges_games_and_changes(client, ladder, players):
    made = services.ladder_challenge_create(ladder_id=ladder.pk, challenger=players[6], defender=players[2])
    won = services.ladder_challenge_create(ladder_id=ladder.pk, challenger=players[9], defender=players[8])
    resign(won.game, players[8])
    client.force_login(players[9])
    response = client.get(reverse("ladder:detail", args=[ladder.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    standings = html[html.index('id="standings"') : html.index('id="running"')]
    climber = rating_for_player(user=players[9], kind="onitama").display
    assert climber.endswith("?") and climber != "1500?"
    assert '>p10</a> <span class="rating">%s</span>' % climber in standings
    assert '>p1</a> <span class="rating">1500?</span>' in standings
    assert [standings.index(">p%d</a>" % i) for i in (1, 2, 10, 9)] == sorted(
        standings.index(">p%d</a>" % i) for i in (1, 2, 10, 9)
    )
    assert "You are number 9." in html
    challengeable = html[html.index('id="can-challenge"') : html.index('id="standings"')]
    assert [m for m in ("p4", "p5", "p6", "p7", "p8") if 'data-member="%s"' % m in challengeable] == [
        "p4",
        "p5",
        "p6",
        "p7",
        "p8",
    ]
    assert 'data-member="p3"' not in challengeable
    running = html[html.index('id="running"') : html.index('id="changes"')]
    assert reverse("games:game", args=[made.game_id]) in running
    assert reverse("games:game", args=[won.game_id]) not in running
    changes = html[html.index('id="changes"') :]
    assert "p10 beat p9 and climbed from 10 to 9" in changes


def test_join_challenge_and_leave_by_post(client, ladder, players):
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    assert client.post(reverse("ladder:join", args=[ladder.pk])).status_code == 302
    assert order(ladder)[-1] == "newcomer"
    response = client.post(reverse("ladder:challenge", args=[ladder.pk, players[9].pk]))
    made = LadderChallenge.objects.get(challenger=newcomer)
    assert response.status_code == 302 and response["Location"] == reverse("games:game", args=[made.game_id])
    assert client.post(reverse("ladder:leave", args=[ladder.pk])).status_code == 302
    made.game.refresh_from_db()
    assert "newcomer" not in order(ladder) and made.game.status == "finished"


@pytest.mark.parametrize(
    "target, status, text",
    [
        (0, 400, "You can challenge at most 5 places above you."),
        (9, 400, "You cannot challenge yourself."),
    ],
)
def test_a_refused_challenge_answers_with_a_status_and_a_message(client, ladder, players, target, status, text):
    client.force_login(players[9])
    response = client.post(reverse("ladder:challenge", args=[ladder.pk, players[target].pk]))
    assert response.status_code == status
    assert text in response.content.decode()
    assert LadderChallenge.objects.count() == 0


def test_refusals_for_repeats_outsiders_and_unknowns(client, ladder, players):
    client.force_login(players[9])
    client.post(reverse("ladder:challenge", args=[ladder.pk, players[8].pk]))
    again = client.post(reverse("ladder:challenge", args=[ladder.pk, players[8].pk]))
    assert again.status_code == 409 and "already playing" in again.content.decode()
    assert client.post(reverse("ladder:join", args=[ladder.pk])).status_code == 409
    assert client.post(reverse("ladder:challenge", args=[ladder.pk, 999999])).status_code == 404
    assert client.get(reverse("ladder:detail", args=[999999])).status_code == 404
    client.force_login(make_user("outsider"))
    assert client.post(reverse("ladder:challenge", args=[ladder.pk, players[0].pk])).status_code == 403
    assert client.post(reverse("ladder:leave", args=[ladder.pk])).status_code == 403


def test_actions_need_a_login_and_a_post(client, ladder, players):
    join = reverse("ladder:join", args=[ladder.pk])
    assert client.post(join).status_code == 302 and order(ladder)[-1] == "p10"
    client.force_login(players[0])
    assert client.get(join).status_code == 405


def test_the_ladder_page_shows_its_positions_a_page_at_a_time_in_constant_queries(client, ladder):
    """A page of positions costs the same queries for a ladder of 5 as of 60 members
    (ratings read for the shown page at once, never member by member)."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ladder.selectors import STANDINGS_PAGE_SIZE

    def counted(path: str) -> tuple[int, str]:
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200
        return len(queries), response.content.decode()

    row = re.compile(r'<li value="(\d+)"')
    members = [make_user("lp%d" % i) for i in range(5)]
    for user in members:
        services.ladder_join(ladder_id=ladder.pk, user=user)
    client.force_login(members[0])
    few_count, few_html = counted("/ladders/%d/" % ladder.pk)
    assert len(row.findall(few_html)) == 5
    for i in range(5, STANDINGS_PAGE_SIZE + 10):
        services.ladder_join(ladder_id=ladder.pk, user=make_user("lp%d" % i))
    many_count, many_html = counted("/ladders/%d/" % ladder.pk)
    last_count, last_html = counted("/ladders/%d/?page=2" % ladder.pk)
    assert [int(p) for p in row.findall(many_html)] == list(range(1, STANDINGS_PAGE_SIZE + 1))
    assert [int(p) for p in row.findall(last_html)] == list(range(STANDINGS_PAGE_SIZE + 1, STANDINGS_PAGE_SIZE + 11))
    assert 'rel="next"' in many_html and 'rel="prev"' in last_html
    assert few_count == many_count == last_count, (few_count, many_count, last_count)
