"""A finished game's record downloads from its page and from the API in both formats, and
``python -m engine replay`` plays either back to the game's own position. While the game runs
there is no record (409): it would carry the secret seed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import get_game
from engine.records import record_read, record_replay
from games import services
from games.models import Game, GameStatus
from games.rules import game_state
from tests.factories import make_user, play, start_game, to_move
from tests.tournaments.conftest import finish, running_games, seated, started

pytestmark = pytest.mark.django_db


def played_out(kind: str, options: dict, seed: int, plies: int) -> Game:
    """A game of ``plies`` decisions (fewer if it ends), then resigned by the player to move."""
    game = play(start_game(make_user("rec%da" % seed), make_user("rec%db" % seed), kind, options, seed=seed), plies)
    if game.status == GameStatus.ACTIVE:
        services.game_resign(game_id=game.pk, user=to_move(game))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


@pytest.mark.parametrize(
    ("kind", "options", "seed"),
    [("onitama", {"cards": "base"}, 41), ("maatatahay", {"variant": "standard"}, 42)],
)
def test_a_finished_game_downloads_in_both_formats_and_replays_to_its_position(client, kind, options, seed, tmp_path):
    game = played_out(kind, options, seed, 12)
    rules = get_game(kind)
    final = rules.to_json(game_state(game))
    seats = {seat.side: seat.player_name for seat in game.seats.all()}
    for path in ("/games/%d/record.txt" % game.pk, "/games/%d/record.json" % game.pk):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Disposition"].startswith("attachment; filename=")
        record = record_read(response.content.decode())
        assert record.seed == int(game.revealed_seed) and record.game == kind
        assert len(record.moves) == game.ply
        assert {side: record.tags[side.capitalize()] for side in seats} == seats
        assert record.tags["Result"] in ("1-0", "0-1") and record.tags["Reason"] == "resign"
        assert record.tags["Salt"] == game.revealed_salt
        # The replayed moves reach the game's position; the resignation is the site's, which the
        # Result and Reason tags carry: ended the same way, the states are equal.
        replayed = record_replay(record)
        ended = rules.terminate(replayed, reason="resign", winner=game.winner_side)
        assert rules.to_json(ended) == final
        file = tmp_path / path.rsplit("/", 1)[1]
        file.write_bytes(response.content)
        done = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(file)], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[:-1] == rules.summary(replayed).splitlines()
        assert done.stdout.splitlines()[-1] == rules.result_line(replayed)

    text = client.get("/games/%d/record.txt" % game.pk).content.decode()
    data = client.get("/games/%d/record.json" % game.pk).json()
    assert data["moves"] == list(game.moves.order_by("ply").values_list("text", flat=True))
    assert data["salt"] == game.revealed_salt and data["tags"]["Seed"] == game.revealed_seed
    assert text.splitlines()[-1] == data["tags"]["Result"]


def test_the_api_serves_both_formats_and_the_page_links_them(client):
    game = played_out("onitama", {"cards": "base"}, 43, 6)
    as_json = client.get("/api/v1/games/%d/record/" % game.pk)
    as_text = client.get("/api/v1/games/%d/record/text/" % game.pk)
    assert as_json.status_code == 200 and as_text.status_code == 200
    assert as_text["Content-Type"].startswith("text/plain")
    assert record_read(as_text.content.decode()).moves == as_json.json()["moves"]
    assert record_read(json.dumps(as_json.json())).seed == int(game.revealed_seed)
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert 'href="/games/%d/record.txt"' % game.pk in page and 'href="/games/%d/record.json"' % game.pk in page


@pytest.mark.parametrize("kind", ["onitama", "maatatahay"])
def test_a_running_game_has_no_record_and_its_seed_stays_secret(client, kind):
    game = play(start_game(make_user("run1"), make_user("run2"), kind, seed=44), 3)
    assert game.status == GameStatus.ACTIVE
    client.force_login(game.to_move_user)
    for path in (
        "/games/%d/record.txt" % game.pk,
        "/games/%d/record.json" % game.pk,
        "/api/v1/games/%d/record/" % game.pk,
        "/api/v1/games/%d/record/text/" % game.pk,
    ):
        response = client.get(path)
        assert response.status_code == 409, path
        assert b"44" not in response.content and b"seed is secret" in response.content, path
    assert 'href="/games/%d/record.txt"' % game.pk not in client.get("/games/%d/" % game.pk).content.decode()
    for path in ("/games/999999/record.txt", "/api/v1/games/999999/record/", "/games/%d/record.pgn" % game.pk):
        assert client.get(path).status_code == 404, path
    assert client.get("/api/v1/games/999999/record/").json()["code"] == "game_not_found"


@pytest.mark.django_db(transaction=True)  # the tournament pairs its first round after commit
def test_a_rated_record_names_the_ratings_before_the_game_and_a_tournament_its_event(client):
    game = played_out("onitama", {"cards": "base"}, 45, 4)
    record = record_read(client.get("/games/%d/record.txt" % game.pk).content.decode())
    assert record.tags["Event"] == "Rated game"
    before = {c.user_id: "%.0f" % c.rating_before for c in game.rating_changes.all()}
    assert len(before) == 2
    assert {record.tags[s.side.capitalize() + "Rating"] for s in game.seats.all()} == set(before.values())

    tournament = started([make_user("trec%d" % i) for i in range(4)])
    first = running_games(tournament)[0]
    finish(first, winner=seated(first.seats.order_by("position").first()))
    tagged = record_read(client.get("/games/%d/record.txt" % first.pk).content.decode()).tags
    assert (tagged["Event"], tagged["Round"]) == (tournament.name, "1")
