"""A player's archive (games.archive): the history page's GET form and the API's
``/api/v1/players/<username>/archive/`` filter the player's games that are over by game,
variant, result from the player's view, opponent, finish date, rated or not and tournament;
bad values are a note on the page and a 400 from the API; a page costs the same number of
queries for 10 games as for 200, filters applied. Queries are counted, never timed."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import archive, services
from games.archive import ArchiveFilters
from games.models import Game, PlayerResult, Seat, player_result
from tournaments.models import Pairing, Participant, Round, Tournament

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="archive-row" data-game="(\d+)"')


def finished_on(game: Game, day: str) -> None:
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.make_aware(datetime.fromisoformat(day + "T12:00")))


@pytest.fixture
def shelf():
    """``arc``'s games: one of each result, both games, several variants, a tournament game,
    a running game (never in the archive) and a game without ``arc``."""
    arc, bobby, carla, carl = make_user("arc"), make_user("bobby"), make_user("Carla"), make_user("carl")
    lost = start_game(arc, bobby, options={"cards": "base"}, rated=True, seed=11)
    services.game_resign(game_id=lost.pk, user=arc)
    won = start_game(arc, bobby, kind="maatatahay", options={"variant": "standard"}, rated=False, seed=12)
    services.game_resign(game_id=won.pk, user=bobby)
    drawn = start_game(arc, carla, options={"cards": "senseis_path"}, rated=True, seed=13)
    play(drawn, 2)
    services.draw_offer(game_id=drawn.pk, user=carla)
    services.draw_accept(game_id=drawn.pk, user=arc)
    aborted = start_game(carl, arc, options={"cards": "mixed"}, rated=False, seed=14)
    services.game_abort(game_id=aborted.pk, user=arc)
    in_cup = start_game(arc, carl, options={"cards": "base"}, rated=True, seed=15)
    services.game_resign(game_id=in_cup.pk, user=carl)
    start_game(arc, bobby, seed=16)  # running
    other = start_game(bobby, carla, seed=17)
    services.game_resign(game_id=other.pk, user=bobby)
    cup = Tournament.objects.create(name="Winter Cup")
    first, second = (Participant.objects.create(tournament=cup, user=u, seed=n) for n, u in ((1, arc), (2, carl)))
    Pairing.objects.create(
        tournament=cup,
        round=Round.objects.create(tournament=cup, number=1),
        board=1,
        first=first,
        second=second,
        game=in_cup,
    )
    finished_on(lost, "2026-01-10")
    finished_on(won, "2026-02-10")
    finished_on(drawn, "2026-03-10")
    finished_on(aborted, "2026-03-11")
    finished_on(in_cup, "2026-04-01")
    games = {"lost": lost, "won": won, "drawn": drawn, "aborted": aborted, "in_cup": in_cup}
    return arc, cup, {name: g.pk for name, g in games.items()}


def shown(client, query: str = "") -> list[int]:
    response = client.get("/history/arc/" + query)
    assert response.status_code == 200, response.status_code
    return [int(pk) for pk in ROW.findall(response.content.decode())]


def test_the_result_rule_is_the_players_view(shelf):
    arc, _cup, ids = shelf
    for name, pk in ids.items():
        game = Game.objects.get(pk=pk)
        mine = Seat.objects.get(game=game, user=arc)
        expected = {"in_cup": PlayerResult.WON}.get(name, name)
        assert player_result(game, mine.side) == expected
        # the query condition agrees with the rule, game by game
        found = archive.games_archive(player=arc, filters=ArchiveFilters(result=expected)).values_list("pk", flat=True)
        assert pk in set(found)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("", ["in_cup", "aborted", "drawn", "won", "lost"]),
        ("?kind=maatatahay", ["won"]),
        ("?kind=onitama", ["in_cup", "aborted", "drawn", "lost"]),
        ("?variant=base", ["in_cup", "lost"]),
        ("?variant=senseis_path", ["drawn"]),
        ("?variant=standard", ["won"]),
        ("?variant=first", []),
        ("?result=won", ["in_cup", "won"]),
        ("?result=lost", ["lost"]),
        ("?result=drawn", ["drawn"]),
        ("?result=aborted", ["aborted"]),
        ("?opponent=BOB", ["won", "lost"]),
        ("?opponent=carl", ["in_cup", "aborted", "drawn"]),  # Carla and carl: a prefix in any case
        ("?opponent=carl&result=won", ["in_cup"]),
        ("?opponent=arc", []),  # never the player themselves
        ("?finished_from=2026-02-01&finished_to=2026-03-10", ["drawn", "won"]),
        ("?finished_from=2026-03-11", ["in_cup", "aborted"]),
        ("?rated=yes", ["in_cup", "drawn", "lost"]),
        ("?rated=no", ["aborted", "won"]),
    ],
)
def test_the_archive_page_filters(client, shelf, query, names):
    _arc, _cup, ids = shelf
    assert shown(client, query) == [ids[name] for name in names]


def test_the_archive_filters_by_tournament_offered_by_name(client, shelf):
    _arc, cup, ids = shelf
    html = client.get("/history/arc/").content.decode()
    assert '<option value="%d">Winter Cup</option>' % cup.pk in html
    assert shown(client, "?tournament=%d" % cup.pk) == [ids["in_cup"]]
    assert shown(client, "?tournament=%d" % (cup.pk + 1000)) == []


def test_rows_link_to_the_game_and_its_records(client, shelf):
    _arc, _cup, ids = shelf
    html = client.get("/history/arc/?result=lost").content.decode()
    pk = ids["lost"]
    assert 'href="/games/%d/"' % pk in html
    assert 'href="/games/%d/record.txt"' % pk in html and 'href="/games/%d/record.json"' % pk in html
    assert client.get("/games/%d/record.txt" % pk).status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        "?result=maybe",
        "?kind=chess",
        "?variant=nope",
        "?finished_from=yesterday",
        "?finished_from=2026-05-01&finished_to=2026-01-01",
        "?tournament=abc",
        "?rated=perhaps",
        "?opponent=" + "x" * 200,
        "?page=999&result=%00",
        "?opponent=%00",
        "?tournament=99999999999999999999999",
        "?finished_from=99999-01-01",
    ],
)
def test_bad_filters_are_left_out_with_a_note_never_an_error(client, shelf, query):
    response = client.get("/history/arc/" + query)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="archive-note"' in html
    assert len(ROW.findall(html)) == 5  # the bad filter left out: every game shown


def test_a_variant_of_another_game_is_left_out_and_the_game_kept(client, shelf):
    _arc, _cup, ids = shelf
    html = client.get("/history/arc/?kind=maatatahay&variant=base").content.decode()
    assert 'id="archive-note"' in html and [int(pk) for pk in ROW.findall(html)] == [ids["won"]]


def test_paging_keeps_the_filters(client, shelf, monkeypatch):
    monkeypatch.setattr(archive, "HISTORY_PAGE_SIZE", 2)
    _arc, _cup, ids = shelf
    html = client.get("/history/arc/?kind=onitama").content.decode()
    assert [int(pk) for pk in ROW.findall(html)] == [ids["in_cup"], ids["aborted"]]
    assert 'href="?kind=onitama&amp;page=2" rel="next"' in html
    assert shown(client, "?kind=onitama&page=2") == [ids["drawn"], ids["lost"]]


def test_a_deleted_or_unknown_player_has_no_archive(client, shelf):
    arc, _cup, _ids = shelf
    assert client.get("/history/nobody/").status_code == 404
    arc.deleted_at = timezone.now()
    arc.save()
    assert client.get("/history/arc/").status_code == 404
    assert client.get("/api/v1/players/arc/archive/").status_code == 404


def test_the_api_archive_filters_the_same_way(anon, shelf):
    _arc, cup, ids = shelf
    body = anon.get("/api/v1/players/ARC/archive/?opponent=bob").json()
    assert [row["id"] for row in body["results"]] == [ids["won"], ids["lost"]]
    won = body["results"][0]
    assert won["player_result"] == "won" and won["opponents"] == ["bobby"]
    assert won["record_text_url"] == "/api/v1/games/%d/record/text/" % ids["won"]
    assert anon.get(won["record_json_url"]).status_code == 200
    rows = anon.get("/api/v1/players/arc/archive/?tournament=%d&result=won&rated=yes" % cup.pk).json()["results"]
    assert [row["id"] for row in rows] == [ids["in_cup"]]
    rows = anon.get("/api/v1/players/arc/archive/?variant=standard&finished_to=2026-02-10").json()["results"]
    assert [row["id"] for row in rows] == [ids["won"]]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("result=maybe", "result"),
        ("finished_from=2026-13-01", "finished_from"),
        ("finished_from=2026-05-01&finished_to=2026-01-01", "finished_to"),
        ("tournament=-1", "tournament"),
        ("kind=onitama&variant=first", "variant"),
        ("opponent=bo%00b", "opponent"),
        ("tournament=99999999999999999999999", "tournament"),
    ],
)
def test_the_api_answers_bad_filters_with_400_naming_the_field(anon, shelf, query, field):
    response = anon.get("/api/v1/players/arc/archive/?" + query)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and field in body["details"]["fields"], body


def give_finished_fast(player, count: int, start: int) -> None:
    """``count`` finished games of ``player``, made through the models in bulk (as bench/archive.py)."""
    opponents = [make_user("opp%d" % (start + n)) for n in range(3)]
    now = timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(
                kind="onitama",
                options={"cards": "base"},
                status="finished",
                rated=n % 2 == 0,
                sealed_state="",
                sealed_seed="",
                seed_commitment="0" * 64,
                revealed_seed="1",
                winner_side="red" if n % 3 else "",
                result_reason="resign",
                finished_at=now - timedelta(hours=n),
            )
            for n in range(count)
        ],
        batch_size=2000,
    )
    Seat.objects.bulk_create(
        [
            seat
            for n, game in enumerate(games)
            for seat in (
                Seat(game=game, side="red" if n % 2 else "blue", position=n % 2, user=player),
                Seat(game=game, side="blue" if n % 2 else "red", position=1 - n % 2, user=opponents[n % 3]),
            )
        ],
        batch_size=4000,
    )


def counted(client, path: str) -> int:
    client.get(path)  # warm per-process caches out of the count
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(queries)


ARCHIVE_QUERIES = [
    "",
    "?page=3",
    "?result=won",
    "?result=lost&rated=no",
    "?opponent=OPP&kind=onitama&variant=base",
    "?finished_from=2020-01-01&finished_to=2100-01-01",
    "?tournament=1",
    "?result=bad&finished_from=bad",  # left out, with a note
]


def test_the_archive_costs_the_same_queries_for_10_and_10000_games(client, anon):
    few, many = make_user("few"), make_user("many")
    give_finished_fast(few, 10, 0)
    give_finished_fast(many, 10_000, 100)
    for query in ARCHIVE_QUERIES:
        page_few, page_many = counted(client, "/history/few/" + query), counted(client, "/history/many/" + query)
        assert page_few == page_many, (query, page_few, page_many)
        if "bad" in query:
            continue  # the API answers 400 to those
        api = "/api/v1/players/%s/archive/" + query.replace("page=3", "page_size=50")
        api_few, api_many = counted(anon, api % "few"), counted(anon, api % "many")
        assert api_few == api_many, (query, api_few, api_many)
    html = client.get("/history/many/?page=3").content.decode()
    assert len(ROW.findall(html)) == 50 and "page 3 of 200" in html
