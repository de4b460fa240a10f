"""The API's ladder reads cost the same queries for a ladder of a few members as for one of
many: the ladder (the top of its standings, the newest running games), its standings and
its running games, both cursor-paged like the games lists. Queries are counted, never timed
(the ladder page's own count: test_ladder_pages.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ladder import selectors, services
from ladder.models import Ladder
from tests.api_clients import api_settings  # noqa: F401  (the API tests' settings, applied below)
from tests.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]


@pytest.fixture
def ladder(db):
    return Ladder.objects.create(name="Paged ladder", kind="onitama", days_per_move=3, max_places_up=3)


def counted(client, path: str) -> tuple[int, dict]:
    client.get(path)  # warm per-process caches out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.content[:300])
    return len(queries), response.json()


def grow(ladder, start: int, end: int) -> None:
    """Members lp<start>..lp<end - 1> join at the bottom; every fourth challenges the one above."""
    for index in range(start, end):
        user = make_user("lp%d" % index)
        services.ladder_join(ladder_id=ladder.pk, user=user)
        if index % 4 == 3:
            above = ladder.members.get(position=index).user  # position index: the one just above
            services.ladder_challenge_create(ladder_id=ladder.pk, challenger=user, defender=above)


def test_the_api_ladder_its_standings_and_its_games_are_paged_in_constant_queries(anon, ladder):
    paths = {
        "ladder": "/api/v1/ladders/%d/" % ladder.pk,
        "standings": "/api/v1/ladders/%d/standings/" % ladder.pk,
        "games": "/api/v1/ladders/%d/games/?page_size=3" % ladder.pk,
    }
    grow(ladder, 0, 8)
    few = {name: counted(anon, path) for name, path in paths.items()}
    assert [r["position"] for r in few["standings"][1]["results"]] == list(range(1, 9))
    assert len(few["ladder"][1]["standings"]) == 8 and len(few["ladder"][1]["running"]) == 2

    grow(ladder, 8, selectors.STANDINGS_PAGE_SIZE + 12)
    total = selectors.STANDINGS_PAGE_SIZE + 12
    many = {name: counted(anon, path) for name, path in paths.items()}
    detail = many["ladder"][1]
    assert [r["position"] for r in detail["standings"]] == list(range(1, selectors.STANDINGS_PAGE_SIZE + 1))
    assert len(detail["running"]) == total // 4

    # the standings, page by page, in the same queries each
    positions, path = [], paths["standings"]
    while path:
        count, body = counted(anon, path)
        assert count == few["standings"][0], (count, few["standings"][0])
        positions += [r["position"] for r in body["results"]]
        path = body["next"]
    assert positions == list(range(1, total + 1))
    # the running games, newest first
    games, path = [], paths["games"]
    while path:
        count, body = counted(anon, path)
        assert count == few["games"][0], (count, few["games"][0])
        games += [r["game_id"] for r in body["results"]]
        path = body["next"]
    assert games == sorted(games, reverse=True) and len(games) == total // 4

    assert {name: c for name, (c, _b) in few.items()} == {name: c for name, (c, _b) in many.items()}


def test_an_unknown_ladder_or_a_bad_cursor_is_a_clear_error(anon, ladder):
    for tail in ("standings/", "games/"):
        missing = anon.get("/api/v1/ladders/999999/%s" % tail)
        assert missing.status_code == 404 and missing.json()["code"] == "ladder_not_found"
        bad = anon.get("/api/v1/ladders/%d/%s?cursor=nonsense" % (ladder.pk, tail))
        assert bad.status_code == 400 and bad.json()["code"] == "bad_cursor"
