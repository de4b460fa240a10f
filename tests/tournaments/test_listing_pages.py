"""The tournament pages and the API's tournament list come a page at a time, in a number of
queries that does not grow with the tournaments, players or pairings there are: the list,
a tournament's standings, and a round's pairings and games. Queries are counted, never timed
(tests/games/test_listing_pages.py does the same for the lobby and the history)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from tournaments import selectors, services

from .conftest import make_user, running_games, seated, started

# Transactional: the pairing task runs when the start commits (on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)

PAGE = 6  # the page sizes under test, small so that a few players make several pages


@pytest.fixture(autouse=True)
def small_pages(monkeypatch):
    monkeypatch.setattr(selectors, "LIST_PAGE_SIZE", PAGE)
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)
    monkeypatch.setattr(selectors, "PAIRINGS_PAGE_SIZE", PAGE)


def counted(client, path: str) -> tuple[int, Any]:
    client.get(path)  # warm per-process caches (content types, translations) out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    is_json = response["Content-Type"].startswith("application/json")
    return len(queries), response.json() if is_json else response.content.decode()


STANDING = re.compile(r"<tr><td>(\d+)</td><td>")
PAIRING = re.compile(r'<li data-board="(\d+)">')


def test_the_tournament_list_is_paged_in_constant_queries(client):
    for index in range(3):
        t = services.tournament_create(actor=None, name="Cup %d" % index, kind="onitama", format="swiss")
        services.tournament_open_registration(tournament_id=t.pk, actor=None)
    few_count, few_html = counted(client, "/tournaments/")
    for index in range(3, PAGE + 3):
        t = services.tournament_create(actor=None, name="Cup %d" % index, kind="onitama", format="swiss")
        services.tournament_open_registration(tournament_id=t.pk, actor=None)
    many_count, many_html = counted(client, "/tournaments/")
    last_count, last_html = counted(client, "/tournaments/?page=2")
    names = re.compile(r">Cup (\d+)</a>")
    assert len(names.findall(few_html)) == 3
    assert [int(n) for n in names.findall(many_html)] == list(range(PAGE + 2, 2, -1))  # newest first
    assert [int(n) for n in names.findall(last_html)] == [2, 1, 0]
    assert 'rel="next"' in many_html and 'rel="prev"' in last_html
    assert few_count == many_count == last_count, (few_count, many_count, last_count)


@pytest.mark.parametrize("format", ["swiss", "round_robin", "knockout"])
def test_a_tournament_and_its_rounds_are_paged_in_constant_queries(client, format):
    """Standings (every player ranked from every result) and a round's pairings cost the
    same queries for 4 players as for 3 pages of them, signed in or not."""
    small = started([make_user("s%d" % i) for i in range(4)], format=format)
    big_players = [make_user("b%d" % i) for i in range(2 * PAGE + 4)]
    big = started(big_players, format=format)
    # a result in each, so that the standings have points to rank by
    for tournament in (small, big):
        game = running_games(tournament)[0]
        loser = seated(game.seats.order_by("position")[1])
        game_services.game_resign(game_id=game.pk, user=loser)

    counts = {}
    for signed_in in (None, big_players[0]):
        if signed_in is not None:
            client.force_login(signed_in)
        for name, path in (
            ("small", "/tournaments/%d/" % small.pk),
            ("big", "/tournaments/%d/" % big.pk),
            ("big, last page", "/tournaments/%d/?page=3" % big.pk),
            ("small round", "/tournaments/%d/rounds/1/" % small.pk),
            ("big round", "/tournaments/%d/rounds/1/" % big.pk),
            ("big round, page 2", "/tournaments/%d/rounds/1/?page=2" % big.pk),
        ):
            counts[(signed_in is not None, name)], html = counted(client, path)
            if name == "small":
                assert [int(r) for r in STANDING.findall(html)] == [1, 2, 3, 4]
                assert ("Crosstable" in html) == (format == "round_robin")
                assert ("Bracket" in html) == (format == "knockout")
            if name == "big":
                assert [int(r) for r in STANDING.findall(html)] == list(range(1, PAGE + 1))
                assert 'rel="next"' in html and "Crosstable" not in html and "Bracket" not in html
                assert 'href="/tournaments/%d/rounds/1/"' % big.pk in html
            if name == "big, last page":
                assert [int(r) for r in STANDING.findall(html)] == list(range(2 * PAGE + 1, 2 * PAGE + 5))
            if name == "small round":
                assert [int(b) for b in PAIRING.findall(html)] == [1, 2]
            if name == "big round":
                assert [int(b) for b in PAIRING.findall(html)] == list(range(1, PAGE + 1))
                assert 'rel="next"' in html and "/games/" in html
            if name == "big round, page 2":
                assert [int(b) for b in PAIRING.findall(html)] == list(range(PAGE + 1, PAGE + 3))
        values = {count for (signed, _name), count in counts.items() if signed == (signed_in is not None)}
        detail = {counts[(signed_in is not None, n)] for n in ("small", "big", "big, last page")}
        rounds = {counts[(signed_in is not None, n)] for n in ("small round", "big round", "big round, page 2")}
        assert len(detail) == 1 and len(rounds) == 1, (counts, values)


def test_an_unknown_round_or_a_bad_page_number_is_a_page_not_an_error(client):
    t = started([make_user("u%d" % i) for i in range(4)], format="swiss")
    assert client.get("/tournaments/%d/rounds/9/" % t.pk).status_code == 404
    assert "This round does not exist." in client.get("/tournaments/%d/rounds/9/" % t.pk).content.decode()
    for page in ("0", "-1", "abc", "99999999999999999999"):
        for path in ("/tournaments/", "/tournaments/%d/" % t.pk, "/tournaments/%d/rounds/1/" % t.pk):
            assert client.get(path, {"page": page}).status_code == 200


def test_the_api_tournament_list_is_cursor_paged_in_constant_queries(client):
    def listed(path: str) -> tuple[int, dict]:
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200, response.content[:300]
        return len(queries), response.json()

    for index in range(2):
        t = services.tournament_create(actor=None, name="Api %d" % index, kind="onitama", format="swiss")
        services.tournament_open_registration(tournament_id=t.pk, actor=None)
    few_count, few = listed("/api/v1/tournaments/")
    assert [r["name"] for r in few["results"]] == ["Api 1", "Api 0"] and few["next"] is None
    for index in range(2, 25):
        t = services.tournament_create(actor=None, name="Api %d" % index, kind="onitama", format="swiss")
        services.tournament_open_registration(tournament_id=t.pk, actor=None)
    many_count, many = listed("/api/v1/tournaments/?page_size=10")
    assert [r["name"] for r in many["results"]] == ["Api %d" % i for i in range(24, 14, -1)]
    seen = [r["name"] for r in many["results"]]
    path = many["next"]
    while path:
        count, body = listed(path)
        assert count == many_count
        seen += [r["name"] for r in body["results"]]
        path = body["next"]
    assert seen == ["Api %d" % i for i in range(24, -1, -1)]
    assert few_count == many_count, (few_count, many_count)


@pytest.mark.parametrize("format", ["swiss", "knockout"])
def test_the_api_tournament_and_its_standings_cost_the_same_queries_for_4_and_16_players(client, format):
    """The API's tournament (players, rounds, pairings) and its standings read the whole
    tournament in a constant number of queries, never one per player, pairing or game."""
    small = started([make_user("s%d" % i) for i in range(4)], format=format)
    big = started([make_user("b%d" % i) for i in range(16)], format=format)
    counts = []
    for tournament, players in ((small, 4), (big, 16)):
        detail_count, detail = counted(client, "/api/v1/tournaments/%d/" % tournament.pk)
        assert len(detail["players"]) == players and len(detail["rounds"][0]["pairings"]) == players // 2
        assert all(p["game"] for p in detail["rounds"][0]["pairings"])
        standings_count, standings = counted(client, "/api/v1/tournaments/%d/standings/" % tournament.pk)
        assert len(standings["standings"]) == players and standings["current_round"] == 1
        json_count, _ = counted(client, "/tournaments/%d/standings.json" % tournament.pk)
        counts.append((detail_count, standings_count, json_count))
    assert counts[0] == counts[1], counts


def _api_pages(client, path: str) -> tuple[set[int], list[dict]]:
    """Every page of an API tournament answer from ``path`` on (following ``next``): the
    query counts of the pages and their bodies."""
    counts, bodies = set(), []
    while path:
        count, body = counted(client, path)
        counts.add(count)
        bodies.append(body)
        path = body["next"]
    return counts, bodies


@pytest.mark.parametrize("format", ["swiss", "knockout"])
def test_the_api_tournament_and_its_standings_are_paged_in_constant_queries_from_4_to_64_players(client, format):
    """Each page of the API's tournament (players, pairings) and of its standings (rows, a
    knockout's bracket) costs the same queries for 4 players as for 64, whatever the page;
    the pages add up to the whole tournament."""
    counts: dict[str, set[int]] = {"detail": set(), "standings": set()}
    for prefix, players in (("s", 4), ("b", 64)):
        names = ["%s%d" % (prefix, i) for i in range(players)]
        tournament = started([make_user(name) for name in names], format=format)
        game = running_games(tournament)[0]
        game_services.game_resign(game_id=game.pk, user=seated(game.seats.order_by("position")[1]))

        detail_counts, details = _api_pages(client, "/api/v1/tournaments/%d/?page_size=10" % tournament.pk)
        counts["detail"] |= detail_counts
        assert len(details) == max(1, -(-players // 10)) == details[0]["pages"]
        assert all(len(d["players"]) <= 10 and sum(len(r["pairings"]) for r in d["rounds"]) <= 10 for d in details)
        assert sorted(p["username"] for d in details for p in d["players"]) == sorted(names)
        assert [p["seed"] for d in details for p in d["players"]] == list(range(1, players + 1))
        pairings = [(r["number"], p["board"]) for d in details for r in d["rounds"] for p in r["pairings"]]
        assert pairings == [(1, board) for board in range(1, players // 2 + 1)]
        assert {d["pairing_count"] for d in details} == {players // 2}
        assert {d["player_count"] for d in details} == {players} and {d["name"] for d in details} == {tournament.name}
        assert details[0]["previous"] is None and details[-1]["next"] is None

        standing_counts, pages = _api_pages(client, "/api/v1/tournaments/%d/standings/?page_size=10" % tournament.pk)
        counts["standings"] |= standing_counts
        assert [row["rank"] for page in pages for row in page["standings"]] == list(range(1, players + 1))
        assert sorted(row["player"] for page in pages for row in page["standings"]) == sorted(names)
        assert {page["player_count"] for page in pages} == {players}
        if format == "knockout":
            matches = [(m["round"], m["board"]) for page in pages for matches in page["bracket"] for m in matches]
            assert len(matches) == pages[0]["match_count"] >= players // 2
            assert matches == sorted(matches)
        whole = client.get("/tournaments/%d/standings.json" % tournament.pk).json()  # the page's JSON: whole
        assert [row["player"] for row in whole["standings"]] == [r["player"] for p in pages for r in p["standings"]]
    assert len(counts["detail"]) == 1 and len(counts["standings"]) == 1, counts


def test_the_api_tournament_answers_a_bad_page_with_400_and_a_page_past_the_end_empty(client):
    t = started([make_user("u%d" % i) for i in range(4)], format="swiss")
    for path in ("/api/v1/tournaments/%d/" % t.pk, "/api/v1/tournaments/%d/standings/" % t.pk):
        for query in ({"page": "0"}, {"page": "abc"}, {"page_size": "-1"}, {"page": "99999999999999999999"}):
            response = client.get(path, query)
            assert response.status_code == 400, (path, query, response.status_code)
            assert response.json()["code"] == "bad_page"
        past = client.get(path, {"page": "3", "page_size": "2"}).json()
        lists = ("players", "rounds") if "standings" not in path else ("standings",)
        assert all(past[name] == [] for name in lists) and past["next"] is None
        assert past["previous"].endswith("page=2&page_size=2") or "page=2" in past["previous"]
        big = client.get(path, {"page_size": "1000"}).json()
        assert big["page_size"] == 100 and big["pages"] == 1
